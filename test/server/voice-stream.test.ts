import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { wordErrorRate } from '../../pipelines/asr/wer.js';
import { fixtureSamples, loadAudioFixtures, type AudioFixture } from '../../pipelines/audio/fixtures.js';
import { encodeS16le } from '../../pipelines/audio/pcm-codecs.js';
import { appForSuite, FRAGMENT_THEN_MERGE_ENV, startVoiceTestApp, type TestApp } from '../helpers/app.js';
import { TestWsClient, type ServerEvent } from '../helpers/ws-client.js';

/** Real-time pacing of the SDK, in 100 ms pcm_s16le frames, `speed` × real time. */
const paced = (speed = 1) => ({ pacing: 'realtime' as const, frameMs: 100, speed });

/**
 * A whole session: connect, stream the fixture at real time, `session.end`, wait for `session.ended`; no audio
 * was shed or refused (an `error` event would say so).
 */
async function speakWholeSession(t: TestApp, sessionId: string, fixture: AudioFixture): Promise<TestWsClient> {
  const c = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=${sessionId}`, {}, paced());
  await c.next('session.started');
  await c.speak(fixtureSamples(fixture));
  c.sendJson({ type: 'session.end' });
  await c.next('session.ended', () => true, 60_000);
  assert.deepEqual(c.events.filter((e) => e.type === 'error'), [], 'no audio was shed or refused');
  return c;
}

describe('voice over WebSocket: VAD, streaming ASR, speaker re-identification', () => {
  let t: TestApp;
  let fixtures: AudioFixture[];
  before(async () => {
    t = await startVoiceTestApp();
    fixtures = loadAudioFixtures();
  });
  after(() => t.close());

  test('turns, partials before finals, transcripts close to the text, one voice one speaker, another voice another', async () => {
    // The default attributes turns with the embedder's calibrated decision (PARLEY_SPEAKER_DECISION=calibrated).
    assert.equal(t.app.models.speakerDecision?.modelId, 'stats-lda-v2');
    const awb = fixtures.find((f) => f.file === 'awb.wav')!;
    const slt = fixtures.find((f) => f.file === 'slt.wav')!;
    const c = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=voice-1&sample_rate=16000&encoding=pcm_s16le`, {}, paced());
    await c.next('session.started');
    await c.speak(fixtureSamples(awb));
    const finalsOf = (): ServerEvent[] => c.events.filter((e) => e.type === 'transcript.final');
    for (let i = 0; i < 600 && finalsOf().length < awb.utterances.length; i++) await new Promise((r) => setTimeout(r, 100));
    await c.speak(fixtureSamples(slt));
    const expected = awb.utterances.length + slt.utterances.length;
    for (let i = 0; i < 600 && finalsOf().length < expected; i++) await new Promise((r) => setTimeout(r, 100));

    const finals = finalsOf();
    assert.deepEqual(c.events.filter((e) => e.type === 'error'), [], 'no audio was shed or refused');
    assert.equal(finals.length, expected, `one final per spoken utterance; got ${finals.map((f) => f.text).join(' | ')}`);
    const started = c.events.filter((e) => e.type === 'vad.speech_started');
    const stopped = c.events.filter((e) => e.type === 'vad.speech_stopped');
    assert.equal(started.length, expected);
    assert.equal(stopped.length, expected);

    const refs = [...awb.utterances, ...slt.utterances].map((u) => u.text);
    const wer = wordErrorRate(refs.map((reference, i) => ({ reference, hypothesis: String(finals[i]!.text) })));
    assert.ok(wer < 0.4, `word error rate ${wer}: ${finals.map((f) => f.text).join(" | ")}`);

    let withPartial = 0;
    for (const f of finals) {
      const turn = f.turn_id;
      const partials = c.events.filter((e) => e.type === 'transcript.partial' && e.turn_id === turn);
      assert.ok(partials.every((p) => p.seq < f.seq), 'no partial after its final');
      const stop = stopped.find((e) => e.turn_id === turn)!;
      assert.ok(stop.seq < f.seq, 'speech_stopped comes before the final');
      if (partials.length > 0) withPartial++;
    }
    assert.ok(withPartial >= 3, `partials arrived for ${withPartial} turns`);

    // Turn boundaries land near the true speech spans (session clock = audio position).
    const awbStart = started[0]!.audio_start_ms as number;
    assert.ok(Math.abs(awbStart - awb.utterances[0]!.start_ms) < 400, `speech started at ${awbStart}`);

    const speakerOf = (f: ServerEvent): { id: string; is_new: boolean; confidence: number } =>
      f.speaker as { id: string; is_new: boolean; confidence: number };
    const awbSpeakers = new Set(finals.slice(0, 3).map((f) => speakerOf(f).id));
    const sltSpeakers = new Set(finals.slice(3).map((f) => speakerOf(f).id));
    assert.equal(awbSpeakers.size, 1, 'one voice, one speaker id');
    assert.equal(sltSpeakers.size, 1, 'one voice, one speaker id');
    assert.notDeepEqual([...awbSpeakers], [...sltSpeakers], 'another voice, another speaker id');
    assert.equal(speakerOf(finals[0]!).is_new, true);
    assert.equal(speakerOf(finals[1]!).is_new, false);
    assert.deepEqual(finals[3]!.addressees, [{ id: speakerOf(finals[0]!).id, name: null }], 'a reply in a two-party exchange');

    const stored = await t.app.stores.graph.getTranscript('default', 'voice-1');
    assert.equal(stored.length, expected);
    assert.ok(stored.every((u) => u.audioRef && existsSync(path.join(t.config.dataDir, u.audioRef))), 'audio spans kept');
    assert.equal((await t.app.stores.voiceprints.list('default')).length, 2, 'two voiceprints stored');

    c.sendJson({ type: 'session.end' });
    await c.next('session.ended');
  });

  test('the same voice in a later session gets the same participant id', async () => {
    const awb = fixtures.find((f) => f.file === 'awb.wav')!;
    const before = (await t.app.stores.graph.getTranscript('default', 'voice-1'))[0]!.speakerId;
    const c = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=voice-2`, {}, paced());
    await c.next('session.started');
    await c.speak(fixtureSamples(awb).subarray(0, 16000 * 2.3));
    const final = await c.next('transcript.final');
    assert.equal((final.speaker as { id: string }).id, before);
    assert.equal((final.speaker as { is_new: boolean }).is_new, false);
    c.close();
  });

  test('input.commit ends the turn at once', async () => {
    const slt = fixtures.find((f) => f.file === 'slt.wav')!;
    const c = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=voice-3`, {}, paced(2));
    await c.next('session.started');
    const samples = fixtureSamples(slt);
    const speechStart = Math.round((slt.utterances[0]!.start_ms / 1000) * 16000);
    const cut = samples.subarray(0, speechStart + 16000); // one second into the first utterance
    c.sendAudio(encodeS16le(cut));
    await c.drained();
    c.sendJson({ type: 'input.commit' });
    const stopped = await c.next('vad.speech_stopped');
    assert.equal(stopped.reason, 'commit');
    await c.next('transcript.final');
    c.close();
  });
  test('a caller hanging up mid-sentence: session.end delivers the last final before session.ended', async () => {
    const slt = fixtures.find((f) => f.file === 'slt.wav')!;
    const c = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=voice-hangup`, {}, paced(5));
    await c.next('session.started');
    const samples = fixtureSamples(slt);
    const speechStart = Math.round((slt.utterances[0]!.start_ms / 1000) * 16000);
    const cut = samples.subarray(0, speechStart + 24000); // 1.5 s into the first utterance, no silence after
    c.sendAudio(encodeS16le(cut));
    await c.drained();
    await c.next('vad.speech_started', () => true, 30_000);
    c.sendJson({ type: 'session.end' });
    const ended = await c.next('session.ended', () => true, 60_000);
    const finals = c.events.filter((e) => e.type === 'transcript.final');
    const stored = await t.app.stores.graph.getTranscript('default', 'voice-hangup');
    assert.equal(stored.length, 1, 'the cut turn is stored');
    assert.equal(finals.length, 1, 'and the client heard of it');
    assert.equal(finals[0]!.utterance_id, stored[0]!.id);
    assert.ok(finals[0]!.seq < ended.seq, 'before session.ended');
  });
});

describe('end-of-session speaker merge', () => {
  // One voice fragments into an id per utterance online; the end-of-session merge joins the fragments again.
  const t = appForSuite(() => startVoiceTestApp(FRAGMENT_THEN_MERGE_ENV));

  test('fragmented ids of one voice are merged at session end, relabelling everything, with speaker.merged', async () => {
    assert.equal(t.app.models.speakerDecision, null);
    const awb = loadAudioFixtures().find((f) => f.file === 'awb.wav')!;
    const c = await speakWholeSession(t, 'merge-1', awb);
    const finals = c.events.filter((e) => e.type === 'transcript.final');
    assert.equal(finals.length, 3);
    const online = new Set(finals.map((f) => (f.speaker as { id: string }).id));
    assert.equal(online.size, 3, 'the strict online threshold fragmented the voice');
    const merged = c.events.filter((e) => e.type === 'speaker.merged');
    assert.equal(merged.length, 2);
    const survivor = merged[0]!.into as string;
    assert.ok(merged.every((m) => m.into === survivor && online.has(m.from as string)));
    const stored = await t.app.stores.graph.getTranscript('default', 'merge-1');
    assert.ok(stored.every((u) => u.speakerId === survivor), 'every utterance relabelled');
    assert.equal((await t.app.stores.graph.listParticipants('default')).length, 1, 'the fragments are gone');
    const prints = await t.app.stores.voiceprints.list('default');
    assert.ok(prints.every((p) => p.participantId === survivor), 'voiceprints follow the merge');
  });
});

describe('voice without consent', () => {
  const t = appForSuite(() => startVoiceTestApp({ PARLEY_VOICEPRINTS: 'none' }));

  test('identity stays within the session and nothing voice-derived is stored', async () => {
    const awb = loadAudioFixtures().find((f) => f.file === 'awb.wav')!;
    const c = await speakWholeSession(t, 'no-consent', awb);
    const finals = c.events.filter((e) => e.type === 'transcript.final');
    assert.equal(finals.length, 3);
    assert.equal(new Set(finals.map((f) => (f.speaker as { id: string }).id)).size, 1, 'one voice, one id within the session');
    assert.deepEqual(await t.app.stores.voiceprints.list('default'), [], 'no voiceprint stored');
    const stored = await t.app.stores.graph.getTranscript('default', 'no-consent');
    assert.ok(stored.every((u) => u.audioRef === null), 'no audio span kept');
    assert.ok((await t.app.stores.graph.listParticipants('default')).every((p) => p.voiceprintCount === 0));
  });
});

describe('the v4 Silero export (PARLEY_VAD_MODEL=silero-v4)', () => {
  const t = appForSuite(() => startVoiceTestApp({ PARLEY_VAD_MODEL: 'silero-v4' }));

  test('finds the same turns in streamed speech', async () => {
    const awb = loadAudioFixtures().find((f) => f.file === 'awb.wav')!;
    const c = await speakWholeSession(t, 'v4-1', awb);
    assert.equal(c.events.filter((e) => e.type === 'transcript.final').length, awb.utterances.length);
  });
});
