import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { encodeS16le } from '../../pipelines/audio/pcm-codecs.js';
import { encodeWav } from '../../pipelines/audio/wav.js';
import { fixtureSamples, loadAudioFixtures } from '../../pipelines/audio/fixtures.js';
import { drainConsolidation } from '../../pipelines/memory/after-consolidation.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { TestWsClient } from '../helpers/ws-client.js';
import { ParleyClient } from '../../clients/typescript/src/index.js';

/** 16 → 32 kHz by linear interpolation (no new content), so the server has to resample it back. */
function upsample2(samples: Float32Array): Float32Array {
  return Float32Array.from({ length: samples.length * 2 }, (_, i) => {
    const a = samples[i >> 1] ?? 0;
    return i % 2 === 0 ? a : (a + (samples[(i >> 1) + 1] ?? a)) / 2;
  });
}

describe('retrieval on the audio path and voice askers (real VAD, ASR, speaker embedder)', () => {
  let t: TestApp;
  before(async () => {
    // Behaviour, not speed: the backlog bound is lifted so a busy machine sheds none of the speech.
    t = await startTestApp({ PARLEY_AUDIO_MAX_QUEUED_MS: '600000' });
    const c = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=mem`);
    await c.next('session.started');
    for (const text of ['My sister wants me to call her tomorrow morning.', 'I drink coffee every morning at the cafe.']) {
      c.sendJson({ type: 'utterance', speaker: 'Ana', text });
      await c.nextNew('transcript.final');
    }
    await drainConsolidation(t.app.stores.queue, 30_000);
    c.close();
  });
  after(async () => {
    await t.close();
  });

  test('fixture speech streamed as frames gets speculative contexts and a confirmed one per turn with ready_at_ms', async () => {
    const fixture = loadAudioFixtures().find((f) => f.file === 'awb.wav');
    assert.ok(fixture);
    const pcm = encodeS16le(fixtureSamples(fixture));
    const c = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=voice-1&sample_rate=16000&encoding=pcm_s16le`);
    await c.next('session.started');
    const frame = 3200; // 100 ms of 16-bit 16 kHz audio
    let sent = 0;
    const sendUntil = async (end: number): Promise<void> => {
      while (sent < end) {
        const next = Math.min(sent + frame, end);
        c.sendRaw(pcm.subarray(sent, next));
        sent = next;
        await new Promise((r) => setTimeout(r, 100)); // real time
      }
    };
    const turns: string[] = [];
    for (const u of fixture.utterances) {
      // Audio held back at the end of each utterance's speech: the server has heard no silence after it,
      // so the turn stays open however slow the machine is, and its partial's search must come back
      // as a speculative context before the turn can end.
      await sendUntil(Math.min(pcm.length, Math.ceil((u.end_ms * 32) / frame) * frame)); // whole frames: 32 bytes a ms
      const started = await c.next('vad.speech_started', (e) => !turns.includes(e.turn_id as string), 30_000);
      const turn = started.turn_id as string;
      turns.push(turn);
      await c.next('transcript.partial', (e) => e.turn_id === turn, 30_000);
      const speculative = await c.next('memory.context', (e) => e.turn_id === turn && e.speculative === true, 30_000);
      assert.ok(Array.isArray(speculative.items), `turn ${turn}`);
    }
    await sendUntil(pcm.length);
    c.sendRaw(Buffer.alloc(frame * 10)); // a second of silence ends the last turn
    for (const turn of turns) {
      await c.next('vad.speech_stopped', (e) => e.turn_id === turn, 30_000);
      const confirmed = await c.next('memory.context', (e) => e.turn_id === turn && e.speculative === false, 30_000);
      assert.equal(typeof confirmed.ready_at_ms, 'number', `turn ${turn}`);
      assert.ok(Array.isArray(confirmed.items), `turn ${turn}`);
    }
    // Ended in full, every final stored (a final may ask for its turn's context too): a second confirmed context would be here.
    c.sendJson({ type: 'session.end' });
    await c.next('session.ended', () => true, 60_000);
    // Shedding under load (other suites share the 2 cores) is allowed and tested in the worker-pool
    // tests; any other error is not.
    assert.deepEqual(c.events.filter((e) => e.type === 'error' && e.code !== 'PARLEY_ERR_OVERLOADED'), [], 'no error but shedding');
    for (const turn of turns) {
      const confirmedPerTurn = c.events.filter((e) => e.type === 'memory.context' && e.speculative === false && e.turn_id === turn);
      assert.equal(confirmedPerTurn.length, 1, `exactly one confirmed context for turn ${turn}`);
    }
    c.close();
  });

  test('POST /v1/query with audio identifies the asker from voiceprints and never updates them', async () => {
    const fixture = loadAudioFixtures().find((f) => f.file === 'rms.wav');
    assert.ok(fixture);
    const samples = fixtureSamples(fixture);
    const embedder = t.app.models.speakerEmbedder;
    const ana = (await t.app.stores.graph.findParticipantsByName('default', 'Ana'))[0];
    assert.ok(ana);
    const print = await t.app.stores.voiceprints.upsert('default', {
      participantId: ana.id, modelId: embedder.modelId, vector: await embedder.embed(samples), updateCount: 1,
    });
    // A 32 kHz WAV of the same voice: exercises resampling to 16 kHz.
    const audio = encodeWav(upsample2(samples), 32000).toString('base64');
    const body = await new ParleyClient({ baseUrl: t.httpUrl }).query({ question: 'who should I call tomorrow?', audio });
    assert.equal(body.asker?.id, ana.id);
    assert.ok(body.evidence.some((e) => /sister/.test(e.text)));
    const after = await t.app.stores.voiceprints.get('default', print.id);
    assert.deepEqual(after?.vector, print.vector, 'query audio never updates a prototype');
    assert.equal(after?.updateCount, 1);
  });
});
