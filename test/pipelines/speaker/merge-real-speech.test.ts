import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { hasSharedSpeech, LIBRI_HELDOUT, LIBRI_TRAIN, loadLibriSpeech } from '../../../pipelines/speaker/eval-corpus.js';
import { planMerges, sessionMergeCandidates } from '../../../pipelines/speaker/merge.js';
import { thresholdsFor } from '../../../pipelines/speaker/speaker-thresholds.js';
import { SpeakerTracker } from '../../../pipelines/speaker/speaker-tracker.js';
import { StatsLdaSpeakerEmbedder } from '../../../pipelines/speaker/stats-lda-speaker-embedder.js';

const skip = hasSharedSpeech() ? false : 'shared speech data absent (../shared/data/speech)';

/**
 * The production end-of-session merge (session means, the shipped mergeTau) on real LibriSpeech
 * recordings, through a real tracker whose online threshold is forced so high that every utterance
 * becomes its own id: the merge must join the fragments of one person and never join two people.
 */
describe('end-of-session merge on real recordings (shipped embedder and mergeTau)', { skip }, () => {
  const e = new StatsLdaSpeakerEmbedder();
  const t = thresholdsFor(e.modelId);

  async function fragmentedSession(utts: { speaker: string; audio: Float32Array }[]): Promise<{ merges: { from: string; into: string }[]; owner: Map<string, string> }> {
    let n = 0;
    const tracker = await SpeakerTracker.open({
      tenant: 't', modelId: e.modelId, thresholds: { tauMatch: 0.999, tauUpdate: 0.9999, alpha: 0.1 },
      storeVoiceprints: false, createParticipant: async () => `id${++n}`,
    });
    const owner = new Map<string, string>();
    for (const u of utts) owner.set((await tracker.assign(e.embedSync(u.audio))).participantId, u.speaker);
    const merges = planMerges(sessionMergeCandidates(tracker.prototypes(), tracker.sessionStats()), { mergeTau: t.mergeTau, minUtterances: 1 });
    return { merges, owner };
  }

  test('never merges two different held-out speakers (every pair of the 4, first utterances)', async () => {
    const bySpeaker = LIBRI_HELDOUT.map((s) => loadLibriSpeech([s]).slice(0, 3));
    for (let i = 0; i < bySpeaker.length; i++)
      for (let j = i + 1; j < bySpeaker.length; j++) {
        const { merges, owner } = await fragmentedSession([...bySpeaker[i]!, ...bySpeaker[j]!]);
        const wrong = merges.filter((m) => owner.get(m.from) !== owner.get(m.into));
        assert.deepEqual(wrong, [], `${LIBRI_HELDOUT[i]} vs ${LIBRI_HELDOUT[j]}`);
      }
  });

  test('merges fragments of one person: a training speaker whose voice the projection separates', async () => {
    // One voice the shipped projection was fitted on (in-sample: the merge mechanics on real audio,
    // not a claim about unseen voices; bench/speaker-eval.ts measures those).
    const utts = loadLibriSpeech([LIBRI_TRAIN[0]!]).slice(0, 6);
    const { merges, owner } = await fragmentedSession(utts);
    assert.ok(owner.size >= 2, 'the forced threshold fragmented the voice');
    assert.ok(merges.length > 0, 'the merge fired');
    assert.ok(merges.every((m) => owner.get(m.from) === owner.get(m.into)));
  });
});
