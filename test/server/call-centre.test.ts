import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ParleyClient } from '../../clients/typescript/src/index.js';
import { encodeS16le } from '../../pipelines/audio/pcm-codecs.js';
import { startVoiceTestApp, type TestApp } from '../helpers/app.js';
import { fliteSpeech } from '../helpers/flite-speech.js';
import { refusedUpgrade } from '../helpers/refused-upgrade.js';
import { liveCall, twilioFixture } from '../helpers/twilio.js';
import { speakOnPhoneLine, TestWsClient } from '../helpers/ws-client.js';

/** `voice` saying each of `texts` in turn (0.6 s of silence before each, 1.5 s after). */
function turns(voice: string, texts: string[]): Float32Array[] {
  return texts.map((text) => {
    const said = fliteSpeech(text, voice);
    const out = new Float32Array(said.length + 24_000);
    out.set(said);
    return out;
  });
}

function joined(parts: Float32Array[]): Float32Array {
  const out = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const AGENT_VOICE = 'kal';
const CALLER_VOICE = 'slt';
const CALLER_ID = '+447700900123';

// The newcomer trial's call centre: agent and caller on one 8 kHz line, the agent greeting first. The first speaker
// took the caller's phone number, so the agent's participant got it, and the caller's next call was a conflict.
describe('a call centre on /v1/stream: agent=… keeps the external id for the caller', () => {
  let t: TestApp;
  let api: ParleyClient;
  let agent = '';
  before(async () => {
    t = await startVoiceTestApp({ PARLEY_SESSION_END_WAIT_MS: '100000' });
    api = new ParleyClient({ baseUrl: t.httpUrl });
    // Enrol the agent once: they speak on a line of their own, then are named.
    const c = await speakOnPhoneLine(t.wsUrl, 'enrol-agent', joined(turns(AGENT_VOICE, [
      'Good morning, this is the customer service desk, my name is Kim.',
      'I can help you with orders, deliveries and returns today.',
    ])));
    c.sendJson({ type: 'session.end' });
    await c.next('session.ended', () => true, 120_000);
    c.close();
    const said = (await api.transcript('enrol-agent')).utterances;
    assert.ok(said.length >= 1, 'the agent was heard');
    agent = said[0]!.speaker.id;
    await api.updateParticipant(agent, { name: 'Agent Kim' });
    assert.ok((await t.app.stores.voiceprints.countByParticipant('default', agent)) >= 1, 'the agent has a voiceprint');
  });
  after(async () => { await t.close(); });

  test('the agent greets first: the caller takes the external id, the agent keeps their turns and no external id', async () => {
    const call = joined([
      ...turns(AGENT_VOICE, ['Thank you for calling, this is Kim, how can I help you today?']),
      ...turns(CALLER_VOICE, ['Hello, I am calling about the order I placed last week.', 'It has still not arrived at my house.']),
    ]);
    const c = await speakOnPhoneLine(t.wsUrl, 'call-1', call, `external_id=${encodeURIComponent(CALLER_ID)}&agent=${encodeURIComponent('Agent Kim')}`);
    c.sendJson({ type: 'session.end' });
    await c.next('session.ended', () => true, 120_000);
    c.close();
    const errors = c.events.filter((e) => e.type === 'error');
    assert.deepEqual(errors, [], 'no conflict over the external id');
    const said = (await api.transcript('call-1')).utterances;
    assert.ok(said.length >= 2, `the call stored the agent's and the caller's turns (${said.length})`);
    assert.equal(said[0]!.speaker.id, agent, 'the greeting is the agent\'s');
    const caller = await api.participant(CALLER_ID);
    assert.notEqual(caller.id, agent, 'the caller, not the agent, holds the phone number');
    assert.ok(said.some((u) => u.speaker.id === caller.id), 'the caller\'s turns are theirs');
    assert.equal((await api.participant(agent)).external_id, null, 'the agent was not given the caller\'s number');
  });

  test('an unknown agent, a blank one, or one without a voiceprint fails the upgrade with a 400 naming it; nothing opens', async () => {
    await api.updateParticipant((await t.app.stores.graph.createParticipant('default', {})).id, { name: 'Silent Sam' });
    for (const [query, says] of [
      ['agent=Nobody%20Here', /querystring\/agent: no participant with id, external_id or name "Nobody Here"/],
      ['agent=Agent%20Kim,Nobody%20Here', /"Nobody Here"/],
      ['agent=Agent%20Kim&agent=Silent%20Sam', /"Silent Sam" \(p_\w+\) has no voiceprint/],
      ['agent=%20', /querystring\/agent(\/0)? must not be blank/],
    ] as const) {
      const refused = await refusedUpgrade(`${t.wsUrl}/v1/stream?session_id=bad-agent&external_id=%2B1555&${query}`);
      assert.equal(refused.status, 400, query);
      assert.equal(refused.body.error.code, 'PARLEY_ERR_BAD_REQUEST', query);
      assert.match(refused.body.error.message, says, query);
    }
    assert.equal(await t.app.stores.graph.getSession('default', 'bad-agent'), null, 'no session was opened');
  });

  test("text turns: an agent's utterance does not take the external id; participant.identify defaults to the last speaker who is not an agent", async () => {
    const c = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=typed-1&external_id=%2B15550111&agent=${agent}`);
    await c.next('session.started');
    c.sendJson({ type: 'utterance', speaker: 'Agent Kim', text: 'Good afternoon, how can I help?' });
    await c.nextNew('transcript.final');
    c.sendJson({ type: 'utterance', speaker: 'Rosa Diaz', text: 'I would like to change my delivery address.' });
    const rosa = ((await c.nextNew('transcript.final')).speaker as { id: string }).id;
    assert.equal((await api.participant('+15550111')).id, rosa, 'the first speaker who is not the agent took the id');
    c.sendJson({ type: 'utterance', speaker: 'Agent Kim', text: 'Of course, what is the new address?' });
    await c.nextNew('transcript.final');
    c.sendJson({ type: 'participant.identify', external_id: 'crm-4471' });
    const identified = await c.nextNew('participant.identified');
    assert.equal((identified.participant as { id: string } | null)?.id, rosa, 'the caller, not the agent who spoke last');
    c.close();
    assert.equal((await api.participant(agent)).external_id, null, 'the agent holds no external id');

    // Only the agent has spoken: the id waits for the next speaker.
    const d = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=typed-2&agent=${agent}`);
    await d.next('session.started');
    d.sendJson({ type: 'utterance', speaker: 'Agent Kim', text: 'Hello, you are through to deliveries.' });
    await d.nextNew('transcript.final');
    d.sendJson({ type: 'participant.identify', external_id: 'crm-5000' });
    assert.equal((await d.nextNew('participant.identified')).participant, null);
    d.sendJson({ type: 'utterance', speaker: 'Ben Okafor', text: 'Hi, I missed a delivery yesterday.' });
    const ben = ((await d.nextNew('transcript.final')).speaker as { id: string }).id;
    d.close();
    assert.equal((await api.participant('crm-5000')).id, ben);
    assert.equal((await api.participant(agent)).external_id, null);
  });

  // /v1/twilio hears only the caller (the inbound track): the agent's turns come over HTTP while the call is live.
  test('/v1/twilio: customParameters.start_time dates a replayed call; the agent adds turns over HTTP during it, a 409 after stop', async () => {
    const start = '2026-03-07T18:00:00.000Z';
    const fixture = twilioFixture();
    const live = await liveCall(t, { params: { external_id: '+15550199', start_time: start }, audio: fixture.audio });
    const post = async (text: string) => t.app.inject({
      method: 'POST', url: `/v1/sessions/${live.call.callSid}/utterances`,
      payload: { utterances: [{ speaker: 'Agent Kim', text, time: '2026-03-07T18:00:04.000Z' }] },
    });
    const during = await post('Your parcel left the depot this morning.');
    assert.equal(during.statusCode, 201, during.body);
    live.ws.send(JSON.stringify(live.stop));
    await live.sse.until(() => live.sse.ended, 120_000, 'session.ended');
    live.sse.close();
    const late = await post('Anything else I can help with?');
    assert.equal(late.statusCode, 409, late.body);
    assert.equal(late.json().error.code, 'PARLEY_ERR_SESSION_ENDED');
    const said = (await api.transcript(live.call.callSid)).utterances;
    const voice = said.filter((u) => u.speaker.id !== agent);
    assert.ok(voice.length >= 1, 'the caller was heard');
    const callMs = (fixture.audio.length / 8000) * 1000;
    for (const u of voice) {
      const into = Date.parse(u.time) - Date.parse(start);
      assert.ok(into >= 0 && into <= callMs, `${u.time}: within the call that began at ${start}`);
    }
    assert.ok(said.some((u) => u.speaker.id === agent && u.text === 'Your parcel left the depot this morning.'), 'the agent\'s turn is the agent\'s');
  });

  // The trial: a text utterance the agent posted during the call got an earlier time than the caller's voice turn
  // spoken before it, since the voice turn was timed when it was stored (after the end of speech and ASR).
  test('without start_time a voice turn is timed when its audio arrived, so a text sent while it was spoken comes after it', async () => {
    const c = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=order-1`, {}, { pacing: 'realtime', frameMs: 100, speed: 1 });
    await c.next('session.started');
    c.sendAudio(encodeS16le(fliteSpeech('Hello, I am calling about the order I placed last week.', CALLER_VOICE)));
    await c.drained();
    c.sendJson({ type: 'utterance', speaker: 'Agent Kim', text: 'Let me look that order up for you.' });
    await c.speak(new Float32Array(0), 1.5);
    await c.next('transcript.final', (e) => e.text !== 'Let me look that order up for you.', 120_000);
    c.sendJson({ type: 'session.end' });
    await c.next('session.ended', () => true, 120_000);
    c.close();
    const said = (await api.transcript('order-1')).utterances;
    const typed = said.find((u) => u.text === 'Let me look that order up for you.');
    const spoken = said.find((u) => u !== typed);
    assert.ok(typed && spoken, 'both stored');
    assert.ok(Date.parse(spoken.time) < Date.parse(typed.time), `the voice turn (${spoken.time}) was spoken before the text (${typed.time})`);
    const interactions = (await api.interactions({ session_id: 'order-1' })).map((u) => u.id);
    assert.deepEqual(interactions, [typed.id, spoken.id], 'newest first by time: the text, then the voice turn');
  });
});
