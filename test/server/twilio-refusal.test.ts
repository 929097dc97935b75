import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { refusedUpgrade } from '../helpers/refused-upgrade.js';
import { connectTwilio, SseClient, twilioCall, twilioMessages } from '../helpers/twilio.js';

describe('/v1/twilio refuses bad streams for good', () => {
  let t: TestApp;
  before(async () => { t = await startTestApp(); });
  after(async () => { await t.close(); });

  test('a blank customParameters.external_id refuses the stream before any session opens', async () => {
    for (const blank of ['', '   ', '\t']) {
      const c = twilioCall({ external_id: blank });
      const { ws, closed } = await connectTwilio(`${t.wsUrl}/v1/twilio`);
      for (const m of twilioMessages(c, Buffer.alloc(320, 0xff)).slice(0, 2)) ws.send(JSON.stringify(m));
      const how = await closed;
      assert.equal(how.code, 1003, JSON.stringify(blank));
      assert.equal(how.reason, 'PARLEY_ERR_BAD_FRAME: start: customParameters.external_id must be 1 to 200 characters, not blank');
      assert.equal(await t.app.stores.graph.getSession('default', c.callSid), null);
    }
  });

  test('a bad customParameters.start_time refuses the stream before any session opens, naming it, as /v1/stream refuses its start_time', async () => {
    const ahead = new Date(Date.now() + 2 * 24 * 60 * 60 * 1000).toISOString();
    for (const [value, says] of [
      ['yesterday', /^PARLEY_ERR_BAD_FRAME: start: customParameters\.start_time must be an ISO-8601 date-time/],
      [ahead, /^PARLEY_ERR_BAD_FRAME: start: customParameters\.start_time: .* is in the future/],
    ] as const) {
      const c = twilioCall({ start_time: value });
      const { ws, closed } = await connectTwilio(`${t.wsUrl}/v1/twilio`);
      for (const m of twilioMessages(c, Buffer.alloc(320, 0xff)).slice(0, 2)) ws.send(JSON.stringify(m));
      const how = await closed;
      assert.equal(how.code, 1003, value);
      assert.match(how.reason, says, value);
      assert.equal(await t.app.stores.graph.getSession('default', c.callSid), null);
    }
  });

  // A subscriber opened before the call used to get only keep-alives when the call's stream was refused at `start`.
  test("a stream refused at start tells the call's early subscribers why; one refused before start names no session", async () => {
    const c = twilioCall({ external_id: ' ' });
    const sse = await SseClient.open(`${t.httpUrl}/v1/sessions/${c.callSid}/events`);
    try {
      const { ws, closed } = await connectTwilio(`${t.wsUrl}/v1/twilio`);
      for (const m of twilioMessages(c, Buffer.alloc(320, 0xff)).slice(0, 2)) ws.send(JSON.stringify(m));
      const how = await closed;
      await sse.until(() => sse.events.length > 0, 60_000, 'the refusal');
      assert.deepEqual(sse.events.map((e) => e.event), ['error']);
      const { data, id } = sse.events[0]!;
      assert.equal(id, '0');
      assert.deepEqual(data, { type: 'error', session_id: c.callSid, seq: 0, code: 'PARLEY_ERR_BAD_FRAME', message: how.reason.replace(/^PARLEY_ERR_BAD_FRAME: /, ''), fatal: true });
    } finally {
      sse.close();
    }
    // `stop` before `start`: no frame named the call, so its subscriber cannot be told.
    const d = twilioCall({});
    const quiet = await SseClient.open(`${t.httpUrl}/v1/sessions/${d.callSid}/events`);
    try {
      const { ws, closed } = await connectTwilio(`${t.wsUrl}/v1/twilio`);
      ws.send(JSON.stringify({ event: 'stop', sequenceNumber: '1', streamSid: d.streamSid, stop: { callSid: d.callSid } }));
      assert.equal((await closed).code, 1003);
      await new Promise((r) => setTimeout(r, 200));
      assert.deepEqual(quiet.events, []);
    } finally {
      quiet.close();
    }
  });

  // A refused stream's later frames used to run: a valid `start` behind a junk frame opened the session.
  test('after a refusal every later frame is ignored: a start sent behind a bad frame opens no session', async () => {
    const c = twilioCall({ external_id: '+15550001111' });
    const { ws, closed } = await connectTwilio(`${t.wsUrl}/v1/twilio`);
    const frames = twilioMessages(c, Buffer.alloc(1600, 0xff));
    // Sent together, so they reach the server before the close: junk, then a whole valid call.
    ws.send('not json');
    for (const m of frames) ws.send(JSON.stringify(m));
    const how = await closed;
    assert.equal(how.code, 1003);
    assert.match(how.reason, /^PARLEY_ERR_BAD_FRAME: every frame must be a JSON object/);
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(await t.app.stores.graph.getSession('default', c.callSid), null, 'the start behind the refused frame ran');
    assert.equal(await t.app.stores.graph.getParticipantByExternalId('default', '+15550001111'), null);
  });

  // The query was read loosely: `?external_id=` (a <Parameter> here, a query parameter on /v1/stream) was dropped unsaid.
  test('an unknown query parameter fails the upgrade, named, as on /v1/stream; ?token= still opens the stream', async () => {
    const typo = await refusedUpgrade(`${t.wsUrl}/v1/twilio?tokn=k`);
    assert.equal(typo.status, 400);
    assert.equal(typo.body.error.code, 'PARLEY_ERR_BAD_REQUEST');
    assert.match(typo.body.error.message, /querystring has unknown field "tokn"; did you mean "token"\?/);
    const misplaced = await refusedUpgrade(`${t.wsUrl}/v1/twilio?external_id=%2B15550001111`);
    assert.equal(misplaced.status, 400);
    assert.match(misplaced.body.error.message, /querystring has unknown field "external_id"; known fields: token, agent$/);
    assert.equal(await t.app.stores.graph.getParticipantByExternalId('default', '+15550001111'), null);
    // The parameters it reads still work: a whole call streamed with ?token= opens its session.
    const c = twilioCall({});
    const { ws, closed } = await connectTwilio(`${t.wsUrl}/v1/twilio?token=any`);
    for (const m of twilioMessages(c, Buffer.alloc(1600, 0xff))) ws.send(JSON.stringify(m));
    const how = await closed;
    assert.notEqual(how.code, 1003, how.reason);
    assert.notEqual(await t.app.stores.graph.getSession('default', c.callSid), null);
  });
  // A bad media payload in a live call is dropped with a non-fatal error: test/server/twilio-bad-frames.test.ts.
});
