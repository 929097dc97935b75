/**
 * trial12 F12: by default (`PARLEY_MEMORY_MIN_ASR_CONFIDENCE=auto`) a far-field turn pocketsphinx misheard in a 16 kHz
 * room gives memory nothing (no keyword entry either: review D M1), while a phone-line (8 kHz) turn heard at the same
 * confidence is remembered as any other.
 * The server's own voice path from the recogniser's final on: the final event as the inference worker emits it (what
 * pocketsphinx would score is not what this tests), a scripted speaker embedder (a double of the real ones), the
 * server's ingest, SQLite stores and consolidation jobs.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { AudioSessionEvent } from '../../pipelines/audio/audio-events.js';
import { ArrivalClock } from '../../server/ws/arrival-clock.js';
import { LiveSession } from '../../server/ws/live-session.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { SCRIPTED_DECISION, SCRIPTED_RULES, ScriptedEmbedder } from '../helpers/scripted-speakers.js';
import { waitFor } from '../helpers/topology.js';

/** One voice turn heard by `t` in its own session (and tenant) from a stream at `sampleRate`, stored and consolidated. */
async function hear(t: TestApp, tenant: string, sampleRate: 8000 | 16000, text: string, confidence: number, asr = 'pocketsphinx') {
  const models = Object.assign(Object.create(t.app.models) as object, {
    speakerEmbedder: new ScriptedEmbedder([[1, 0, 0]]), speakerDecision: SCRIPTED_DECISION, speakerSessionRules: SCRIPTED_RULES,
    speakerCentroid: null, speakerPooledClaim: null,
  });
  const { graph, memory } = t.app.stores;
  await graph.openSession(tenant, 's1', new Date().toISOString());
  const live = new LiveSession(tenant, 's1', 0, { ...t.app.liveSessionDeps, models } as never, t.app.log, `ls_${tenant}`);
  live.format = { encoding: sampleRate === 8000 ? 'mulaw' : 'pcm_s16le', sampleRate, channels: 1 };
  const voice = live.voice as unknown as { onEvent(e: AudioSessionEvent, offsetMs: number, arrivals: ArrivalClock): void };
  const arrivals = new ArrivalClock(() => 0);
  voice.onEvent({ type: 'speech_started', turnId: 1, audioStartMs: 0 }, 0, arrivals);
  voice.onEvent({ type: 'final', turnId: 1, text, startMs: 0, endMs: 2000, confidence, audio: new Float32Array(32_000), audioOffsetMs: 0, asr }, 0, arrivals);
  const [u] = await waitFor('the turn stored', async () => {
    const turns = await graph.getTranscript(tenant, 's1');
    return turns.length > 0 ? turns : undefined;
  });
  await waitFor('the turn consolidated', async () => ((await memory.processedFacts(tenant, u!.id)) === null ? undefined : true));
  const searched = await t.app.stores.lexical.search(tenant, 'Zanzibar Quorra', 10, { layer: 'interaction' });
  return { utterance: u!, facts: await memory.listFacts(tenant, {}), searchable: searched.some((h) => h.id === u!.id) };
}

describe('doubtful speech by default: per turn, by what heard it (trial12 F12)', () => {
  let t: TestApp;
  before(async () => {
    // Both turns through pocketsphinx: only the stream's rate tells them apart.
    t = await startTestApp({ PARLEY_ASR_PHONE: 'pocketsphinx' }, false);
  });
  after(() => t.close());

  test('a wideband room turn at 0.11 gives memory nothing; a phone turn at 0.11 is remembered', async () => {
    const text = 'I live in Zanzibar and my sister is called Quorra';
    const room = await hear(t, 'room', 16000, text, 0.11);
    assert.deepEqual(room.utterance.heardBy, { asr: 'pocketsphinx', sampleRate: 16000 });
    assert.equal(room.utterance.text, text, 'kept in the transcript');
    assert.deepEqual(room.facts, [], 'doubtful room speech: no facts');
    assert.equal(room.searchable, false, 'doubtful room speech: no keyword entry (review D M1)');

    const phone = await hear(t, 'phone', 8000, text, 0.11);
    assert.deepEqual(phone.utterance.heardBy, { asr: 'pocketsphinx', sampleRate: 8000 });
    assert.ok(phone.facts.length > 0, 'a phone turn at the same confidence gives memory its facts');
    assert.equal(phone.searchable, true, 'and is found by keyword');
  });

  // storefix 3: the label was worked out per turn from the config and the models folder as it read then
  // (`recogniserOf`, now gone), while the worker's recogniser was chosen when the pool started; a Moonshine model installed or
  // removed in between labelled turns by a recogniser that never heard them. The worker's final names its decoder.
  test('heardBy names the recogniser that decoded the turn, as the worker\'s final says, not what the config names', async () => {
    const phone = await hear(t, 'phone-moonshine', 8000, 'I live in Zanzibar', 0.8, 'moonshine');
    assert.deepEqual(phone.utterance.heardBy, { asr: 'moonshine', sampleRate: 8000 });
    const room = await hear(t, 'room-other', 16000, 'I live in Zanzibar', 0.8, 'sherpa-onnx');
    assert.deepEqual(room.utterance.heardBy, { asr: 'sherpa-onnx', sampleRate: 16000 });
  });
});

describe('doubtful speech under an explicit cut (review D M1)', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ PARLEY_ASR_PHONE: 'pocketsphinx', PARLEY_MEMORY_MIN_ASR_CONFIDENCE: '0.35' }, false);
  });
  after(() => t.close());

  test('the server\'s own setting gates keyword entries too: a phone turn at 0.11 is neither remembered nor searchable', async () => {
    const phone = await hear(t, 'phone', 8000, 'I live in Zanzibar and my sister is called Quorra', 0.11);
    assert.deepEqual(phone.facts, []);
    assert.equal(phone.searchable, false);
  });
});
