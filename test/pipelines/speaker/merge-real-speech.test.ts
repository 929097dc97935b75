import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { hasSharedSpeech, LIBRI_HELDOUT, loadLibriSpeech } from '../../../pipelines/speaker/eval-corpus.js';
import { clusterSessionIds, sessionIdsFrom } from '../../../pipelines/speaker/session-clustering.js';
import { calibratedMerge, sessionRulesFor } from '../../../pipelines/speaker/session-rules.js';
import { thresholdsFor } from '../../../pipelines/speaker/speaker-thresholds.js';
import { SpeakerTracker } from '../../../pipelines/speaker/speaker-tracker.js';
import { StatsLdaSpeakerEmbedder } from '../../../pipelines/speaker/stats-lda-speaker-embedder.js';

const skip = hasSharedSpeech() ? false : 'shared speech data absent (../shared/data/speech)';

type Utt = { speaker: string; audio: Float32Array };

/**
 * A session on a real tracker whose online threshold is forced so high that every utterance founds its
 * own id, then the end-of-session clustering with `rule`: the merges, and which speaker owns each id.
 */
async function fragmentedMerges(e: StatsLdaSpeakerEmbedder, utts: Utt[], rule: Parameters<typeof clusterSessionIds>[1]): Promise<{ merges: { from: string; into: string }[]; owner: Map<string, string> }> {
  let n = 0;
  const tracker = await SpeakerTracker.open({
    tenant: 't', modelId: e.modelId, thresholds: { tauMatch: 0.999, tauUpdate: 0.9999, alpha: 0.1 },
    storeVoiceprints: false, createParticipant: async () => `id${++n}`,
  });
  const owner = new Map<string, string>();
  for (const u of utts) owner.set((await tracker.assign(e.embedSync(u.audio), u.audio.length / 16_000)).participantId, u.speaker);
  return { merges: clusterSessionIds(sessionIdsFrom(tracker.prototypes(), tracker.sessionStats()), rule), owner };
}

/** Every pair of held-out speakers, 5 utterances each, in one fragmented session: no merge joins ids of two voices. */
async function assertPairsApart(fragmentedSession: (utts: Utt[]) => ReturnType<typeof fragmentedMerges>): Promise<void> {
  for (let i = 0; i < LIBRI_HELDOUT.length; i++)
    for (let j = i + 1; j < LIBRI_HELDOUT.length; j++) {
      const a = loadLibriSpeech([LIBRI_HELDOUT[i]!]).slice(0, 5);
      const b = loadLibriSpeech([LIBRI_HELDOUT[j]!]).slice(0, 5);
      const { merges, owner } = await fragmentedSession([...a, ...b]);
      const wrong = merges.filter((m) => owner.get(m.from) !== owner.get(m.into));
      assert.deepEqual(wrong, [], `${LIBRI_HELDOUT[i]} vs ${LIBRI_HELDOUT[j]}`);
    }
}

/**
 * The production end-of-session clustering (shipped embedder and mergeTau) on real LibriSpeech recordings
 * of HELD-OUT speakers (never read by the embedder's training or the threshold calibration), through a
 * real tracker whose online threshold is forced so high that every utterance founds its own id.
 */
describe('end-of-session clustering on real recordings of held-out speakers', { skip }, () => {
  const e = new StatsLdaSpeakerEmbedder();
  const t = thresholdsFor(e.modelId);

  const fragmentedSession = (utts: Utt[]) => fragmentedMerges(e, utts, { linkageTau: t.mergeTau });

  test('must merge: the fragments of each held-out speaker are joined (all 10 utterances, one id each)', async () => {
    for (const speaker of LIBRI_HELDOUT) {
      const { merges, owner } = await fragmentedSession(loadLibriSpeech([speaker]));
      assert.equal(owner.size, 10, 'the forced threshold fragmented the voice');
      assert.ok(merges.length > 0, `the merge fired for ${speaker} (mergeTau ${t.mergeTau})`);
    }
  });

  test('must not merge: two held-out speakers are never joined (every pair, 5 utterances each)', () => assertPairsApart(fragmentedSession));
});

/**
 * The calibrated end-of-session merge (shipped session rules: the decision's LLR of the average linkage
 * with pooled seconds, above ln(cost ratio) − ln(prior odds) = 3 nats) on the same held-out recordings.
 * The threshold was chosen on training speakers to join two of them no more often than the cosine rule;
 * at it the merge fires for only one of the four held-out speakers, so "must merge" is a known gap (
 * docs/BENCHMARKS.md "calibrated end-of-session merge"), while "must not merge" holds.
 */
describe('calibrated end-of-session merge on real recordings of held-out speakers', { skip }, () => {
  const e = new StatsLdaSpeakerEmbedder();
  const rules = sessionRulesFor(e.modelId)!;

  const fragmentedSession = (utts: Utt[]) => fragmentedMerges(e, utts, { calibrated: calibratedMerge(rules.merge) });

  // Not asserted: that every held-out speaker's fragments are joined (at 3 nats it fires for 1 of 4; the gap
  // is measured in docs/BENCHMARKS.md). Asserted: on one voice it fires at least once, and only between its ids.
  test('a single held-out voice: the merge fires at least once, between that voice\'s own ids', async () => {
    let fired = 0;
    for (const speaker of LIBRI_HELDOUT) {
      const { merges, owner } = await fragmentedSession(loadLibriSpeech([speaker]));
      assert.equal(owner.size, 10, 'the forced threshold fragmented the voice');
      fired += merges.length;
      for (const m of merges) assert.ok(owner.has(m.from) && owner.has(m.into), `a merge of ${speaker} names ids of the session`);
    }
    assert.ok(fired > 0, 'the calibrated merge fired for no held-out speaker');
  });

  test('must not merge: two held-out speakers are never joined (every pair, 5 utterances each)', () => assertPairsApart(fragmentedSession));
});
