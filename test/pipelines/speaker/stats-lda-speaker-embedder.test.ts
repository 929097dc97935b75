import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ParleyError } from '../../../graph/core/errors.js';
import { hasSharedSpeech, LIBRI_HELDOUT, loadLibriSpeech, loadSpeechBrain } from '../../../pipelines/speaker/eval-corpus.js';
import { mean, pairScores } from '../../../pipelines/speaker/eval-metrics.js';
import { thresholdsFor } from '../../../pipelines/speaker/speaker-thresholds.js';
import { StatsLdaSpeakerEmbedder } from '../../../pipelines/speaker/stats-lda-speaker-embedder.js';

describe('StatsLdaSpeakerEmbedder (weight-free, shipped params)', () => {
  const e = new StatsLdaSpeakerEmbedder();

  test('params record training speakers disjoint from the held-out ones, and calibrated thresholds', () => {
    const { speakers, heldOut } = e.params.training;
    assert.ok(speakers.length >= 10);
    assert.deepEqual(speakers.filter((s) => heldOut.includes(s)), []);
    const t = thresholdsFor(e.modelId);
    assert.ok(t.tauUpdate > t.tauMatch && t.askerHigh >= t.askerLow && t.mergeTau > t.tauMatch);
  });

  test('silence and too-short audio are PARLEY_ERR_BAD_AUDIO', async () => {
    for (const audio of [new Float32Array(2000), new Float32Array(16000)])
      await assert.rejects(e.embed(audio), (err: unknown) => err instanceof ParleyError && err.code === 'PARLEY_ERR_BAD_AUDIO');
  });

  test('held-out real speakers: same-speaker pairs score higher than different-speaker pairs', { skip: hasSharedSpeech() ? false : 'skipped: ../shared/data/speech is absent (set PARLEY_SHARED_DATA)' }, async () => {
    const utts = [...loadLibriSpeech(LIBRI_HELDOUT), ...loadSpeechBrain()];
    const items = await Promise.all(utts.map(async (u) => ({ speaker: u.speaker, vector: await e.embed(u.audio) })));
    assert.ok(items.every((i) => i.vector.length === e.dimension && Math.abs(Math.hypot(...i.vector) - 1) < 1e-4));
    const { same, diff } = pairScores(items);
    assert.ok(mean(same) > mean(diff) + 0.3, `same ${mean(same)} vs diff ${mean(diff)}`);
    // Per speaker too: each held-out speaker is closer to itself than to the others on average.
    for (const spk of new Set(items.map((i) => i.speaker))) {
      const mine = pairScores(items.filter((i) => i.speaker === spk)).same;
      const cross = items.filter((i) => i.speaker === spk).flatMap((a) => items.filter((b) => b.speaker !== spk).map((b) => pairScores([a, { ...b, speaker: a.speaker + '#' }]).diff[0]!));
      assert.ok(mean(mine) > mean(cross), `${spk}: same ${mean(mine)} vs other ${mean(cross)}`);
    }
  });
});
