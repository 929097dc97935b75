import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { pino } from 'pino';
import { loggerOptions } from '../../server/logger.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { connectTwilio, SseClient, twilioCall, twilioFixture, twilioMessages } from '../helpers/twilio.js';
import { TestWsClient } from '../helpers/ws-client.js';

const PHONE = '+15551230001';
const OTHER_NUMBER = '+15559870002';

/**
 * trial12 F1, F7: erasing a phone caller left their number in the call's session metadata (`external_id`, other
 * custom parameters), and the server log kept the name or number of the request URL.
 */
describe('erasure scrubs what a caller gave in session metadata, and the log never names them', () => {
  let t: TestApp;
  const lines: string[] = [];
  before(async () => {
    const sink = new Writable({ write(chunk: Buffer, _enc, done) { lines.push(chunk.toString()); done(); } });
    // The server's own logger options (as `createLogger` gives them), writing where the test reads.
    t = await startTestApp({ PARLEY_INFERENCE_WORKERS: '1', PARLEY_AUDIO_MAX_QUEUED_MS: '600000' }, true, pino(loggerOptions('info'), sink));
    await t.app.models.inference();
  });
  after(async () => { await t.close(); });

  const get = async (url: string): Promise<{ statusCode: number; json: () => any; body: string }> => t.app.inject({ url });

  /** Play the recorded caller as a Twilio call with `params`, at twice real time; resolves once the call ended. */
  async function call(params: Record<string, string>): Promise<string> {
    const c = twilioCall(params);
    const sse = await SseClient.open(`${t.httpUrl}/v1/sessions/${c.callSid}/events`);
    const { ws } = await connectTwilio(`${t.wsUrl}/v1/twilio`);
    const began = Date.now();
    for (const [i, m] of twilioMessages(c, twilioFixture().audio).entries()) {
      const due = began + i * 10 - Date.now();
      if (due > 0) await new Promise((r) => setTimeout(r, due));
      ws.send(JSON.stringify(m));
    }
    await sse.until(() => sse.ended, 120_000, 'session.ended');
    sse.close();
    ws.close(1000);
    return c.callSid;
  }

  test('a Twilio caller erased: no external_id or caller number left in the call\'s metadata or the database; the number starts afresh', async () => {
    const callSid = await call({ external_id: PHONE, caller_number: OTHER_NUMBER, start_time: '2026-11-30T10:00:00Z' });
    const before = (await get(`/v1/sessions/${callSid}/transcript`)).json();
    assert.equal(before.metadata.twilio.custom_parameters.external_id, PHONE, 'the call kept its parameters');
    const caller = (await get(`/v1/participants/${encodeURIComponent(PHONE)}`)).json();
    assert.ok(before.utterances.some((u: any) => u.speaker.id === caller.id), 'the caller spoke in the call');

    const erased = await t.app.inject({ method: 'DELETE', url: `/v1/participants/${encodeURIComponent(PHONE)}` });
    assert.equal(erased.statusCode, 200, erased.body);

    const after = await get(`/v1/sessions/${callSid}/transcript`);
    for (const value of [PHONE, OTHER_NUMBER]) assert.ok(!after.body.includes(value), `the transcript still holds ${value}: ${after.body}`);
    const metadata = after.json().metadata;
    assert.equal(metadata.channel, 'twilio', 'the call\'s settings stay');
    assert.equal(metadata.twilio.call_sid, callSid);
    assert.deepEqual(metadata.twilio.custom_parameters, { start_time: '2026-11-30T10:00:00Z' }, 'only the call\'s settings are left of its parameters');
    const db = readFileSync(path.join(t.config.dataDir, 'parley.db'));
    for (const value of [PHONE, OTHER_NUMBER]) assert.ok(!db.includes(value), `parley.db still holds ${value}`);

    // The number calls again: a new person, with nothing of the erased one.
    const again = await call({ external_id: PHONE });
    const newcomer = (await get(`/v1/participants/${encodeURIComponent(PHONE)}`)).json();
    assert.notEqual(newcomer.id, caller.id, 'the number does not bring the erased person back');
    const earlier = (await get(`/v1/sessions/${callSid}/transcript`)).json();
    assert.deepEqual(earlier.utterances, [], 'the erased call stays empty');
    assert.ok((await get(`/v1/sessions/${again}/transcript`)).json().utterances.length > 0);
    // The same recorded voice calls below as a stranger: the newcomer goes, so it is one again.
    assert.equal((await t.app.inject({ method: 'DELETE', url: `/v1/participants/${newcomer.id}` })).statusCode, 200);
  });

  test('a WebSocket caller erased: the client\'s own session metadata goes, the settings stay', async () => {
    const c = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=ws-meta-1&external_id=${encodeURIComponent(OTHER_NUMBER)}`);
    await c.next('session.started');
    c.sendJson({ type: 'session.update', session: { language: 'en', metadata: { caller_number: OTHER_NUMBER, crm: 'crm-55' } } });
    await c.next('session.updated');
    c.sendJson({ type: 'utterance', speaker: 'Quintessa Marlowe', text: 'I would like to book a cleaning.' });
    c.sendJson({ type: 'session.end' });
    await c.next('session.ended', () => true, 120_000);
    c.close();
    const said = (await get('/v1/sessions/ws-meta-1/transcript')).json();
    assert.equal(said.metadata.metadata.crm, 'crm-55');
    const erased = await t.app.inject({ method: 'DELETE', url: `/v1/participants/${encodeURIComponent(said.utterances[0].speaker.id)}` });
    assert.equal(erased.statusCode, 200, erased.body);
    const after = (await get('/v1/sessions/ws-meta-1/transcript')).json();
    assert.deepEqual(after.metadata, { language: 'en' });
  });

  test('forgetting a call takes its unnamed caller (voiceprint included) and the call\'s audio folder; a named speaker stays', async () => {
    const callSid = await call({});
    const said = (await get(`/v1/sessions/${callSid}/transcript`)).json();
    const caller = said.utterances[0].speaker.id as string;
    assert.equal((await get(`/v1/participants/${caller}`)).json().name, null, 'the caller never gave a name');
    assert.ok(await t.app.stores.voiceprints.countByParticipant('default', caller) >= 1, 'the caller has a voiceprint');
    const folder = path.join(t.config.dataDir, 'audio', 'default', callSid);
    assert.ok(existsSync(folder), 'the call\'s audio is kept');
    // A named speaker of a text session forgotten stays: they are someone the application knows.
    const posted = await t.app.inject({ method: 'POST', url: '/v1/sessions/named-forget/utterances', payload: { utterances: [{ speaker: 'Ysolde Farrant', text: 'Good morning.' }] } });
    assert.ok(posted.statusCode < 300, posted.body);

    const forgotten = await t.app.inject({ method: 'DELETE', url: `/v1/sessions/${callSid}` });
    assert.equal(forgotten.statusCode, 204, forgotten.body);
    assert.equal((await get(`/v1/participants/${caller}`)).statusCode, 404, 'the caller known only from the call went with it');
    assert.equal(await t.app.stores.voiceprints.countByParticipant('default', caller), 0, 'their voiceprint too');
    assert.ok(!existsSync(folder), 'no empty audio folder is left');

    const named = (await get('/v1/participants/Ysolde%20Farrant')).json().id as string;
    assert.equal((await t.app.inject({ method: 'DELETE', url: '/v1/sessions/named-forget' })).statusCode, 204);
    assert.equal((await get(`/v1/participants/${named}`)).statusCode, 200, 'a named participant stays when their session is forgotten');
  });

  test('request URLs are logged without the names, ids and numbers of people in them', async () => {
    await get('/v1/memories?participant=Quintessa%20Marlowe&role=any');
    await get(`/v1/participants/${encodeURIComponent('Tom Becker')}/persona`);
    await t.app.inject({ method: 'DELETE', url: '/v1/participants/Tom%20Becker' });
    const log = lines.join('');
    for (const value of ['Quintessa', 'Tom%20Becker', 'Tom Becker', PHONE, encodeURIComponent(PHONE), OTHER_NUMBER, encodeURIComponent(OTHER_NUMBER)]) {
      assert.ok(!log.includes(value), `the log holds ${value}`);
    }
    assert.match(log, /"url":"\/v1\/participants\/\[redacted\]\/persona"/, 'the route stays readable');
    assert.match(log, /"url":"\/v1\/memories\?participant=\[redacted\]&role=any"/);
  });
});
