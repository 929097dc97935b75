/**
 * Deferred founding of new ids (issue #17 item 2, far-field; `pipelines/speaker/deferred-founding.ts`): a turn of
 * under `minSeconds` voiced speech that the decision gives to a new voice is pending (given for now to the best
 * existing id) and pooled with the next pending turns; an id is founded only from a pool of `minSeconds` that the
 * decision still finds new, its earlier turns moved to it. Against the current default ("off": the calibrated
 * decision, the cosine end-of-session merge at mergeTau, no absorption, as bench/speaker-absorb.ts's "off") and one id
 * per session, in the same runs.
 *
 *   npm run bench:speaker-defer -- [--min-seconds 4,6,8,12 --min-pool-cosine none,0,0.3,0.5 --min-stay none --cache FILE]
 *        (choice: TRAINING speakers, out of fold, seeds 1–10, as bench/speaker-absorb.ts)
 *   npm run bench:speaker-defer -- --min-seconds none --centroid-cap 10,30,60 --centroid-on-match false,true --cache FILE
 *   npm run bench:speaker-defer -- --heldout --min-seconds S --min-pool-cosine C        (held-out, once)
 *
 * Adoption rule, fixed and committed before the training grid was run:
 * - eligible: in each of the six training scenarios (clean / phone / far-field × meeting / round-robin) the 95 %
 *   paired interval of Δ across-session utterance accuracy and of Δ within-session utterance accuracy reaches 0 or
 *   above (no loss beyond its interval); the pooled Δ within-session utterance accuracy over the three meeting
 *   scenarios has its lower end above 0; and wrong joins do not rise: summed over all scenarios, the end-of-session
 *   merges of two different speakers and the pairs of ids of different speakers that ended as one id are each at most
 *   the "off" count + 2, and of the turns moved by a pooled founding at least 80 % were the founding turn's speaker.
 * - objective: the mean Δ within-session utterance accuracy over the three meeting scenarios.
 * - chosen: the eligible setting of highest objective; within 0.1 point the lower minSeconds (the less deferral), then
 *   the higher minPoolCosine (the stricter pool). None eligible: nothing is adopted and no held-out run is made.
 * - grid 2, added after reading grid 1 (no setting eligible; the best, 4 s / no pool cosine, raised far-field meetings
 *   +3.2 points within sessions but lost clean round-robin within sessions beyond its interval and moved 25 % of its
 *   turns wrongly): the same rule over `minStayRate` 0.5, 0.6, 0.7 (deferral only in sessions that mostly stay with the
 *   voice just heard, as speech17's absorption), minSeconds 3 / 4 / 6, minPoolCosine none / 0.
 * - grid 3, the brief's alternative, added after reading grid 2 (no setting eligible either): prototypes updated as a
 *   centroid weighted by voiced seconds (`SpeakerTrackerOptions.centroid`, `--centroid-cap 10,30,60 --centroid-on-match
 *   false,true`, no deferral), under the same rule, objective and wrong-join limits; ties to the larger capSeconds,
 *   then onMatch false (the smaller change).
 * - server default: on only when no held-out scenario has Δ across or Δ within utterance accuracy with its interval
 *   wholly below zero AND wrong joins do not rise materially on held-out speakers: summed over the scenarios, wrong
 *   merges and different-speaker pairs joined are each at most 1.1 × the "off" count + 2, and at least 80 % of the
 *   turns moved by pooled foundings were the founding turn's speaker.
 * Held-out: LIBRI_HELDOUT and SpeechBrain speakers, stats-lda-v2 as shipped, bench/speaker-meeting.ts's audio and
 * seeds, with one id per session beside it.
 */
import { argString, requireDataOrSkip } from './lib/cli.js';
import type { RunFigures } from './lib/speaker-meeting-runs.js';
import { ci, mean, pc, runVariantGrid } from './lib/speaker-variant-grid.js';
import { sessionScenarios } from './lib/speaker-revise-data.js';
import { hasSharedSpeech } from '../pipelines/speaker/eval-corpus.js';
import type { DeferredFounding } from '../pipelines/speaker/deferred-founding.js';
import type { CentroidUpdate } from '../pipelines/speaker/speaker-tracker.js';
import type { RunOptions } from './lib/speaker-sessions.js';

if (!hasSharedSpeech()) {
  requireDataOrSkip('the shared speech data (../shared/data/speech)');
  console.log('speaker-defer: skipped, ../shared/data/speech is absent (set PARLEY_SHARED_DATA)');
  process.exit(0);
}
const heldOut = process.argv.includes('--heldout');
const RUNS = Number(process.env.PARLEY_SPEAKER_RUNS ?? 10);
const seeds = Array.from({ length: RUNS }, (_, i) => i + 1);
/** A comma-separated list of numbers ('' or 'none': no value). */
const list = (name: string, fallback: string): number[] => argString(name, fallback).split(',').filter((x) => x !== '' && x !== 'none').map(Number);

const { modelId, off, scen } = await sessionScenarios(heldOut, seeds, argString('cache', '') || null);

const variants: (DeferredFounding | { centroid: CentroidUpdate })[] = [];
const nullable = (name: string, fallback: string): (number | null)[] => argString(name, fallback).split(',').map((x) => (x === 'none' ? null : Number(x)));
const poolList = nullable('min-pool-cosine', heldOut ? '' : 'none,0,0.3,0.5');
const stayList = nullable('min-stay', 'none');
for (const minSeconds of list('min-seconds', heldOut ? '' : '4,6,8,12'))
  for (const minPoolCosine of poolList)
    for (const minStayRate of stayList) variants.push({ minSeconds, minPoolCosine, ...(minStayRate === null ? {} : { minStayRate }) });
for (const capSeconds of list('centroid-cap', ''))
  for (const onMatch of argString('centroid-on-match', 'false').split(',').map((x) => x === 'true')) variants.push({ centroid: { capSeconds, onMatch } });
const optionsOf = (v: (typeof variants)[number]): RunOptions => ('centroid' in v ? { ...off, centroid: v.centroid } : { ...off, defer: v });

type Joins = { right: number; wrong: number; pairs: number; moved: number; movedWrong: number };
/** Wrong joins of a scenario's runs: merges of two speakers, different-speaker id pairs ended as one, turns moved wrongly. */
const joins = (f: RunFigures[]): Joins => f.reduce((t, x) => ({
  right: t.right + x.merges.correctMerges, wrong: t.wrong + x.merges.wrongMerges, pairs: t.pairs + x.merges.differentPairsJoined,
  moved: t.moved + x.revisions.moved, movedWrong: t.movedWrong + x.revisions.moved - x.revisions.right,
}), { right: 0, wrong: 0, pairs: 0, moved: 0, movedWrong: 0 });
const joinText = (j: ReturnType<typeof joins>): string => `merges ${j.right} same / ${j.wrong} different speakers, different-speaker pairs joined ${j.pairs}, turns moved ${j.moved} (${j.movedWrong} of another speaker)`;

const sum = (js: Joins[]): Joins => js.reduce((a, b) => ({ right: a.right + b.right, wrong: a.wrong + b.wrong, pairs: a.pairs + b.pairs, moved: a.moved + b.moved, movedWrong: a.movedWrong + b.movedWrong }));

await runVariantGrid({
  modelId, scen, off, heldOut, runs: RUNS, variants, optionsOf,
  extraOff: (f) => joinText(joins(f)),
  extraScenario: (on, offRuns, d) => `${joinText(joins(on))}; utterances under another speaker's id ${pc(mean(offRuns.map((x) => x.foreign)))} → ${pc(mean(on.map((x) => x.foreign)))} %, Δ ${ci(d((x) => x.foreign))}`,
  extraRule: (on, offAll) => {
    const j = sum(on.map(joins));
    const offJoins = sum(offAll.map(joins));
    const eligible = !(j.wrong > offJoins.wrong + 2 || j.pairs > offJoins.pairs + 2 || (j.moved > 0 && (j.moved - j.movedWrong) / j.moved < 0.8));
    return { eligible, text: `  all scenarios: ${joinText(j)}; off: ${joinText(offJoins)}` };
  },
});
