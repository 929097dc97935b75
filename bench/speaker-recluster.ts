/**
 * Utterance-level re-clustering at the end of a session (issue #17 item 2; `pipelines/speaker/utterance-reclustering.ts`):
 * after the end-of-session id merge, every utterance of the session is clustered afresh with the calibrated merge rule
 * (stats-lda-v2-session.json: LLR > logCostRatio − logPriorOddsSame = 3 nats, plus `--extra-llr`) and the clusters are
 * mapped back onto ids (moves; a cluster no id takes becomes a new id when it holds `minSplitSeconds`). Against today's
 * default ("off": the calibrated decision, the cosine end-of-session merge at mergeTau, no absorption, the shipped
 * centroid prototypes cap 10 s on every match) and one id per session, in the same runs.
 *
 *   npm run bench:speaker-recluster -- --cache FILE        (choice: TRAINING speakers, out of fold, seeds 1–10)
 *   npm run bench:speaker-recluster -- --heldout --min-split 16 --extra-llr -3 --linkage centroid   (held-out, once: grid 2 choice)
 *
 * Adoption rule, fixed and committed before any run of this bench:
 * - grid (training speakers only): minSplitSeconds 8, 16 × extra LLR 0, 2 (a stricter stated cost ratio, e^2) × linkage
 *   average (as the id merge) / centroid (cosine of the clusters' mean directions, what the calibration scored).
 * - eligible: in each of the six training scenarios (clean / phone / far-field × meeting / round-robin) the 95 % paired
 *   interval of Δ across-session and of Δ within-session utterance accuracy reaches 0 or above; the pooled Δ
 *   within-session utterance accuracy over the three meeting scenarios has its lower end above 0; and wrong joins do not
 *   rise: no scenario's Δ foreign share (utterances under an id whose majority speaker is someone else) has its interval
 *   wholly above 0, and summed over all scenarios the re-clustering's moves to an id of another speaker are fewer than
 *   its moves to the right speaker's id.
 * - objective: the mean Δ within-session utterance accuracy over the three meeting scenarios; within 0.1 point the
 *   larger extra LLR, then the larger minSplitSeconds (the more conservative), then average linkage. None eligible: nothing is adopted, the
 *   held-out run is still made once (for the record) with the setting of highest objective.
 * - server default: only if a setting is eligible AND held out no scenario has Δ across or Δ within utterance accuracy
 *   with its interval wholly below 0 and none has Δ foreign wholly above 0.
 * - grid 2, added after reading grid 1 (where no setting moved a single meeting utterance: at 3 nats no two utterances
 *   joined, and the only moves were unjoined whole round-robin utterances of ≥ 8 s "split" off as new ids, now refused:
 *   a split needs a cluster of two units or more): the same rule over extra LLR −3, −1.5, 0 (threshold 0, 1.5, 3 nats:
 *   the stated cost of a wrong utterance move over a missed one e^0, e^1.5, e^3, an utterance move costing less than a
 *   whole-id merge) × minSplitSeconds 8, 16 × linkage average / centroid.
 * Held-out: LIBRI_HELDOUT and SpeechBrain speakers, stats-lda-v2 as shipped, bench/speaker-meeting.ts's audio and
 * seeds, with one id per session and today's default beside it.
 */
import { bootstrapDelta } from './lib/bootstrap.js';
import { argString } from './lib/cli.js';
import type { RunFigures } from './lib/speaker-meeting-runs.js';
import { ci, mean, pc, runVariantGrid } from './lib/speaker-variant-grid.js';
import { sessionScenarios } from './lib/speaker-revise-data.js';
import { skipWithoutSharedSpeech } from './lib/shared-speech.js';
import { chosenCentroid } from '../pipelines/speaker/centroid-update.js';
import { calibratedMerge, sessionRulesFor } from '../pipelines/speaker/session-rules.js';
import type { RunOptions } from './lib/speaker-sessions.js';

skipWithoutSharedSpeech('speaker-recluster');
const heldOut = process.argv.includes('--heldout');
const RUNS = Number(process.env.PARLEY_SPEAKER_RUNS ?? 10);
const seeds = Array.from({ length: RUNS }, (_, i) => i + 1);
const list = (name: string, fallback: string): number[] => argString(name, fallback).split(',').filter((x) => x !== '' && x !== 'none').map(Number);

const { modelId, off: previous, scen } = await sessionScenarios(heldOut, seeds, argString('cache', '') || null);
// Both the held-out embedder and the training folds are stats-lda-v2: its shipped centroid and session rules.
const centroid = chosenCentroid('stats-lda-v2');
const rules = sessionRulesFor('stats-lda-v2');
if (!centroid || !rules) throw new Error('stats-lda-v2 has no shipped centroid update or session rules');
const off: RunOptions = { ...previous, centroid };
const base = calibratedMerge(rules.merge);

type Variant = { minSplitSeconds: number; extraLlr: number; linkage: 'average' | 'centroid' };
const variants: Variant[] = [];
const linkages = argString('linkage', heldOut ? '' : 'average,centroid').split(',').filter((x): x is Variant['linkage'] => x === 'average' || x === 'centroid');
for (const minSplitSeconds of list('min-split', heldOut ? '' : '8,16'))
  for (const extraLlr of list('extra-llr', heldOut ? '' : '-3,-1.5,0'))
    for (const linkage of linkages) variants.push({ minSplitSeconds, extraLlr, linkage });
const optionsOf = (v: Variant): RunOptions => ({
  ...off, recluster: { calibrated: { ...base, threshold: base.threshold + v.extraLlr }, minSplitSeconds: v.minSplitSeconds, linkage: v.linkage },
});

const moved = (f: RunFigures[]): { right: number; wrong: number; splits: number } => f.reduce((t, x) => ({
  right: t.right + x.merges.movedRight, wrong: t.wrong + x.merges.moved - x.merges.movedRight, splits: t.splits + x.merges.splits,
}), { right: 0, wrong: 0, splits: 0 });

await runVariantGrid({
  modelId, scen, off, heldOut, runs: RUNS, variants, optionsOf,
  extraOff: (f) => `foreign ${pc(mean(f.map((x) => x.foreign)))} %`,
  extraScenario: (on, offRuns, d) => {
    const m = moved(on);
    const df = d((x) => x.foreign);
    return `moved ${m.right} right / ${m.wrong} wrong, splits ${m.splits}; foreign ${pc(mean(offRuns.map((x) => x.foreign)))} → ${pc(mean(on.map((x) => x.foreign)))} %, Δ ${ci(df)}${df.lo > 0 ? ' (RISES)' : ''}`;
  },
  extraRule: (on, offAll) => {
    const m = on.map(moved).reduce((a, b) => ({ right: a.right + b.right, wrong: a.wrong + b.wrong, splits: a.splits + b.splits }));
    const foreignRises = on.some((f, k) => bootstrapDelta(f.map((x) => x.foreign), offAll[k]!.map((x) => x.foreign)).lo > 0);
    return { eligible: m.wrong < m.right && !foreignRises, text: `  all scenarios: moved ${m.right} right / ${m.wrong} wrong, splits ${m.splits}; a foreign share rises beyond its interval: ${foreignRises}` };
  },
});

