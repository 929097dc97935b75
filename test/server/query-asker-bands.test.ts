import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { encodeWav } from '../../pipelines/audio/wav.js';
import { fixtureSamples, loadAudioFixtures } from '../../pipelines/audio/fixtures.js';
import { SPEAKER_SAMPLE_RATE } from '../../pipelines/speaker/speaker-embedder.js';
import { BAND_OFFSETS, cosineOffset, narrowbandModelId } from '../../pipelines/speaker/voice-bands.js';
import { decodeQueryAudio } from '../../server/routes/query.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

/** A unit vector at cosine `c` to the unit vector `e` (turned towards the first axis `e` leans least on). */
function atCosine(e: Float32Array, c: number): Float32Array {
  const k = e.reduce((best, x, i) => (Math.abs(x) < Math.abs(e[best]!) ? i : best), 0);
  const u = Float32Array.from(e, (x, i) => (i === k ? 1 : 0) - e[k]! * x);
  const n = Math.hypot(...u);
  return Float32Array.from(e, (x, i) => c * x + Math.sqrt(1 - c * c) * (u[i]! / n));
}

// A voice sample recorded at 8 kHz is a phone voice: against a voiceprint heard wideband it pays the band rule's
// cross-band offset, as a phone turn on a stream does (before, the asker rule compared every band alike).
describe('POST /v1/query: a phone asker against a voice heard wideband', () => {
  const apps: Record<'calibrated' | 'none', TestApp | null> = { calibrated: null, none: null };
  let audio8k = '';
  before(async () => {
    const fixture = loadAudioFixtures().find((f) => f.file === 'rms.wav');
    assert.ok(fixture);
    const wide = fixtureSamples(fixture);
    audio8k = encodeWav(wide.filter((_, i) => i % 2 === 0), 8000).toString('base64');
    for (const mode of ['calibrated', 'none'] as const) {
      const t = await startTestApp({ PARLEY_SPEAKER_BAND_OFFSETS: mode }, false);
      apps[mode] = t;
      const posted = await t.app.inject({ method: 'POST', url: '/v1/sessions/bands/utterances', payload: { utterances: [{ speaker: 'Ana', text: 'I walk my dog.' }] } });
      assert.equal(posted.statusCode, 201);
      const ana = (await t.app.stores.graph.findParticipantsByName('default', 'Ana'))[0]!.id;
      // Ana's wideband voiceprint sits just above askerLow from the phone sample, by half the offset's worth in cosine.
      const { samples } = await decodeQueryAudio(audio8k);
      const { speakerEmbedder: embedder, speakerThresholds: th, speakerDecision: decision } = t.app.models;
      assert.ok(decision, 'the calibrated decision is on by default');
      const worth = cosineOffset(decision.calibration, BAND_OFFSETS.crossBand, samples.length / SPEAKER_SAMPLE_RATE);
      const vector = atCosine(await embedder.embed(samples), th.askerLow + worth / 2);
      await t.app.stores.voiceprints.upsert('default', { participantId: ana, modelId: embedder.modelId, vector, updateCount: 1 });
    }
  });
  after(async () => { await apps.calibrated?.close(); await apps.none?.close(); });

  const askerOf = async (t: TestApp | null, audio: string): Promise<{ id: string; score: number; confidence: string } | null> => {
    const res = await t!.app.inject({ method: 'POST', url: '/v1/query', payload: { question: 'What do I do?', audio } });
    assert.equal(res.statusCode, 200);
    return (res.json() as { asker: { id: string; score: number; confidence: string } | null }).asker;
  };

  test('with the calibrated offsets the phone sample is no known asker; with PARLEY_SPEAKER_BAND_OFFSETS=none it is Ana', async () => {
    assert.equal(await askerOf(apps.calibrated, audio8k), null);
    const ana = (await apps.none!.app.stores.graph.findParticipantsByName('default', 'Ana'))[0]!.id;
    assert.equal((await askerOf(apps.none, audio8k))?.id, ana);
  });

  test('a phone voiceprint is of the phone sample\'s band: it pays the narrowband offset, not the cross-band one', async () => {
    const t = apps.calibrated!;
    const ana = (await t.app.stores.graph.findParticipantsByName('default', 'Ana'))[0]!.id;
    const { speakerEmbedder: embedder, speakerThresholds: th, speakerDecision: decision } = t.app.models;
    const { samples } = await decodeQueryAudio(audio8k);
    const seconds = samples.length / SPEAKER_SAMPLE_RATE;
    const c = th.askerLow + cosineOffset(decision!.calibration, BAND_OFFSETS.narrowband, seconds) + 0.01;
    await t.app.stores.voiceprints.upsert('default', { participantId: ana, modelId: narrowbandModelId(embedder.modelId), vector: atCosine(await embedder.embed(samples), c), updateCount: 1 });
    const asker = await askerOf(t, audio8k);
    assert.equal(asker?.id, ana);
    assert.equal(asker?.confidence, 'low');
    assert.ok(Math.abs(asker!.score - c) < 1e-4, 'the score is the plain cosine');
  });

  test('a phone voice close to its own phone voiceprint is a high-confidence asker: the offset never puts high out of reach', async () => {
    const t = apps.calibrated!;
    const ana = (await t.app.stores.graph.findParticipantsByName('default', 'Ana'))[0]!.id;
    const { speakerEmbedder: embedder, speakerThresholds: th } = t.app.models;
    const { samples } = await decodeQueryAudio(audio8k);
    const c = Math.min(0.999, th.askerHigh + 0.02);
    await t.app.stores.voiceprints.upsert('default', { participantId: ana, modelId: narrowbandModelId(embedder.modelId), vector: atCosine(await embedder.embed(samples), c), updateCount: 1 });
    const asker = await askerOf(t, audio8k);
    assert.deepEqual([asker?.id, asker?.confidence], [ana, 'high']);
  });
});
