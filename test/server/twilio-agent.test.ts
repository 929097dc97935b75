import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { refusedUpgrade } from '../helpers/refused-upgrade.js';
import { enrolledAgent } from '../helpers/enrolled-agent.js';
import { connectTwilio, SseClient, twilioCall, twilioMessages, type TwilioCall } from '../helpers/twilio.js';

const KEY = 'key-twilio-agent-1';

/**
 * `/v1/twilio` took no `agent`: a call centre whose line carries the agent's voice on the inbound track (a conference leg,
 * a forwarded desk phone) could not keep the agent from taking the caller's external id, as `/v1/stream?agent=` does.
 * It now takes `?agent=` (checked before the upgrade) and `<Parameter name="agent">` (checked at `start`).
 */
describe('/v1/twilio: agent= in the URL or as a stream parameter, checked as /v1/stream checks it', () => {
  let t: TestApp;
  let keyed: TestApp;
  let kim = '';
  let joe = '';
  before(async () => {
    t = await startTestApp();
    keyed = await startTestApp({ PARLEY_API_KEYS: `${KEY}:acme` });
    kim = await enrolledAgent(t.app, 'default', 'Agent Kim');
    joe = await enrolledAgent(t.app, 'default', 'Agent Joe', '+15550000');
    await enrolledAgent(keyed.app, 'acme', 'Agent Kim');
  });
  after(async () => {
    await t.close();
    await keyed.close();
  });

  /** Start `call` on `url` (its `connected` and `start`); its session's agents once it is live. */
  async function agentsOfCall(app: TestApp, url: string, call: TwilioCall, tenant = 'default'): Promise<string[]> {
    const sse = await SseClient.open(`${app.httpUrl}/v1/sessions/${call.callSid}/events${tenant === 'default' ? '' : `?token=${KEY}`}`);
    const { ws } = await connectTwilio(url);
    try {
      for (const m of twilioMessages(call, Buffer.alloc(320, 0xff)).slice(0, 2)) ws.send(JSON.stringify(m));
      await sse.until(() => sse.events.some((e) => e.event === 'session.started'), 60_000, 'session.started');
      return [...(app.app.sessions.get(tenant, call.callSid)?.agents ?? [])].sort();
    } finally {
      sse.close();
      ws.close();
    }
  }

  test('?agent= in the URL, <Parameter name="agent">, or both: the call\'s session holds them as its agents', async () => {
    const url = `${t.wsUrl}/v1/twilio`;
    assert.deepEqual(await agentsOfCall(t, `${url}?agent=${encodeURIComponent('Agent Kim')}`, twilioCall({ external_id: '+15551110001' })), [kim]);
    assert.deepEqual(await agentsOfCall(t, url, twilioCall({ external_id: '+15551110002', agent: 'Agent Kim, +15550000' })), [kim, joe].sort());
    assert.deepEqual(await agentsOfCall(t, `${url}?agent=${kim}`, twilioCall({ agent: 'Agent Joe' })), [kim, joe].sort());
    assert.deepEqual(await agentsOfCall(t, url, twilioCall({})), [], 'none named, none held');
    assert.deepEqual(
      await agentsOfCall(keyed, `${keyed.wsUrl}/v1/twilio?token=${KEY}&agent=${encodeURIComponent('Agent Kim')}`, twilioCall({}), 'acme'),
      [(await keyed.app.stores.graph.findParticipantsByName('acme', 'Agent Kim'))[0]!.id],
      'with keys, the key in the URL says whose agent it is',
    );
  });

  test('a bad ?agent= fails the upgrade with a 400 naming it, as on /v1/stream; nothing opens', async () => {
    for (const [query, says] of [
      ['agent=Nobody%20Here', /querystring\/agent: no participant with id, external_id or name "Nobody Here"/],
      ['agent=%20', /querystring\/agent(\/0)? must not be blank/],
    ] as const) {
      const refused = await refusedUpgrade(`${t.wsUrl}/v1/twilio?${query}`);
      assert.equal(refused.status, 400, query);
      assert.equal(refused.body.error.code, 'PARLEY_ERR_BAD_REQUEST', query);
      assert.match(refused.body.error.message, says, query);
    }
    // With keys, ?agent= needs the key beside it: the agent is looked up in the key's tenant before the call starts.
    const keyless = await refusedUpgrade(`${keyed.wsUrl}/v1/twilio?agent=${encodeURIComponent('Agent Kim')}`);
    assert.equal(keyless.status, 400);
    assert.match(keyless.body.error.message, /querystring\/agent .* needs the API key in the URL \(\?token=\); or name the agent in <Parameter name="agent">/);
    const wrongKey = await refusedUpgrade(`${keyed.wsUrl}/v1/twilio?token=nope&agent=${encodeURIComponent('Agent Kim')}`);
    assert.equal(wrongKey.status, 401);
  });

  test('a bad <Parameter name="agent">, or an agent holding the call\'s external id, refuses the stream at start, naming it; no session opens', async () => {
    for (const [params, query, says] of [
      [{ agent: 'Nobody Here' }, '', /^start: customParameters\.agent: no participant with id, external_id or name "Nobody Here"/],
      [{ agent: ' , ' }, '', /^start: customParameters\.agent must name a participant/],
      [{ agent: 'Agent Joe', external_id: '+15550000' }, '', /^start: customParameters\.agent: "Agent Joe" \(p_\w+\) holds external_id "\+15550000", the id this stream gives its caller$/],
      [{ external_id: '+15550000' }, `?agent=${joe}`, /^querystring\/agent: "p_\w+" \(p_\w+\) holds external_id "\+15550000"/],
    ] as const) {
      const c = twilioCall(params);
      // The close reason is cut to what a close frame holds; the call's subscribers get the whole message.
      const sse = await SseClient.open(`${t.httpUrl}/v1/sessions/${c.callSid}/events`);
      try {
        const { ws, closed } = await connectTwilio(`${t.wsUrl}/v1/twilio${query}`);
        for (const m of twilioMessages(c, Buffer.alloc(320, 0xff)).slice(0, 2)) ws.send(JSON.stringify(m));
        const how = await closed;
        assert.equal(how.code, 1008, JSON.stringify(params));
        assert.match(how.reason, /^PARLEY_ERR_BAD_REQUEST: /);
        await sse.until(() => sse.events.length > 0, 60_000, 'the refusal');
        assert.equal(sse.events[0]?.data.code, 'PARLEY_ERR_BAD_REQUEST');
        assert.match(String(sse.events[0]?.data.message), says, JSON.stringify(params));
      } finally {
        sse.close();
      }
      assert.equal(await t.app.stores.graph.getSession('default', c.callSid), null, 'no session was opened');
    }
  });
});
