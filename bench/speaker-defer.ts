/**
 * Centroid prototype updates (issue #17 item 2, far-field; `SpeakerTrackerOptions.centroid`, `centroid-update.ts`): a
 * matched turn moves its prototype by max(alpha, s / (S + s)), S the voiced seconds behind it capped at `capSeconds`.
 * Against "off" (the calibrated decision, the cosine end-of-session merge at mergeTau, no absorption, the EMA, as
 * bench/speaker-absorb.ts's "off") and one id per session, in the same runs. The bench first measured deferred founding
 * of new ids (grids 1 and 2, none eligible); that code was removed (helper speech19) and its history is in
 * docs/BENCHMARKS.md ("Far-field attribution above one id per session: deferred founding (not adopted) and centroid
 * prototypes (adopted)").
 *
 *   npm run bench:speaker-defer -- --centroid-cap 10,30,60 --centroid-on-match false,true --cache FILE
 *        (choice: TRAINING speakers, out of fold, seeds 1–10, as bench/speaker-absorb.ts)
 *   npm run bench:speaker-defer -- --heldout --centroid-cap 10 --centroid-on-match true        (held-out, once)
 *
 * Adoption rule (grid 3), fixed and committed before the grid was run:
 * - eligible: in each of the six training scenarios (clean / phone / far-field × meeting / round-robin) the 95 %
 *   paired interval of Δ across-session utterance accuracy and of Δ within-session utterance accuracy reaches 0 or
 *   above (no loss beyond its interval); the pooled Δ within-session utterance accuracy over the three meeting
 *   scenarios has its lower end above 0; and wrong joins do not rise: summed over all scenarios, the end-of-session
 *   merges of two different speakers and the pairs of ids of different speakers that ended as one id are each at most
 *   the "off" count + 2.
 * - objective: the mean Δ within-session utterance accuracy over the three meeting scenarios; ties to the larger
 *   capSeconds, then onMatch false (the smaller change).
 * - server default: on only when no held-out scenario has Δ across or Δ within utterance accuracy with its interval
 *   wholly below zero AND wrong joins do not rise materially on held-out speakers: summed over the scenarios, wrong
 *   merges and different-speaker pairs joined are each at most 1.1 × the "off" count + 2.
 * Held-out: LIBRI_HELDOUT and SpeechBrain speakers, stats-lda-v2 as shipped, bench/speaker-meeting.ts's audio and
 * seeds, with one id per session beside it.
 *
 * Grid 3 for moonshine-l1-v2 (helper l1centroid, issue #17 audit "next steps" 1), fixed and committed before it was run:
 *   npm run bench:speaker-defer -- --features moonshine-l1 --centroid-cap 10,30,60 --centroid-on-match false,true --cache FILE
 * - choice: the training speakers out of fold, seeds 1–10, "off" = moonshine-l1-v2 with its own calibrated decision and
 *   mergeTau, the EMA (no centroid); eligibility and objective exactly grid 3's rule above (no scenario losing Δ across
 *   or Δ within utterance accuracy beyond its interval, pooled meetings Δ within with its lower end above 0, wrong joins
 *   at most "off" + 2; ties to the larger cap, then onMatch false). No eligible setting: no held-out run, nothing wired.
 * - held-out, once, only for an eligible choice (`--heldout --embedder moonshine-l1`): on the same held-out sessions,
 *   moonshine-l1-v2 + the choice against moonshine-l1-v2 "off", one id per session and the shipped default (stats-lda-v2
 *   + its centroid file). Wired (pipelines/speaker/params/moonshine-l1-v2-centroid.json, read by `chosenCentroid` as
 *   stats-lda-v2's) only when, against moonshine-l1-v2 "off", grid 3's server-default condition holds AND against the
 *   shipped default far-field meeting Δ within utterance accuracy has its interval above 0 with no scenario losing Δ
 *   across or Δ within utterance accuracy beyond its interval. The server's default embedder changes only if every
 *   scenario's Δ against the shipped default has its interval above 0 (it is not changed otherwise).
 * Result (2026-12-07): no setting eligible (best: 10 s / every match, pooled meetings +1.0 [−0.0, +2.0]), so no held-out
 * run and no moonshine-l1-v2 centroid file (the `--embedder` held-out option was written, then reverted unrun);
 * docs/BENCHMARKS.md "Centroid prototypes for moonshine-l1-v2".
 *
 * `--claim COST:MARGIN:MINSECONDS,…` (helper speech21): claims of stored ids (`SpeakerTrackerOptions.storedClaim`) on
 * top of today's centroid, against today's centroid as "off"; the within-session check of bench/speaker-drift.ts's
 * claim rule (iv): no scenario with Δ within-session utterance accuracy wholly below 0. The grid's own "eligible" (the
 * centroid's rule) does not apply to it. `--pooled-claim MINSECONDS:MARGIN,…` (with `--claim C:M:S` as its online gate, or
 * `--claim none`): end-of-session claims from pooled speech, the same check.
 */
import { argString } from './lib/cli.js';
import { ci, mean, pc, runVariantGrid } from './lib/speaker-variant-grid.js';
import { sessionScenarios } from './lib/speaker-revise-data.js';
import { skipWithoutSharedSpeech } from './lib/shared-speech.js';
import type { CentroidUpdate, StoredClaim } from '../pipelines/speaker/speaker-tracker.js';
import { chosenCentroid } from '../pipelines/speaker/centroid-update.js';
import { parseClaims, parsePooled } from './lib/stored-claim-arms.js';
import { joins, joinText, sumJoins } from './lib/speaker-joins.js';
import type { PooledClaim } from '../pipelines/speaker/stored-claim.js';
import type { RunOptions } from './lib/speaker-sessions.js';

skipWithoutSharedSpeech('speaker-defer');
const heldOut = process.argv.includes('--heldout');
const RUNS = Number(process.env.PARLEY_SPEAKER_RUNS ?? 10);
const seeds = Array.from({ length: RUNS }, (_, i) => i + 1);
/** A comma-separated list of numbers ('' or 'none': no value). */
const list = (name: string, fallback: string): number[] => argString(name, fallback).split(',').filter((x) => x !== '' && x !== 'none').map(Number);

const { modelId, off: before, scen } = await sessionScenarios(heldOut, seeds, argString('cache', '') || null);
const claims = argString('claim', '');
const pooledList = argString('pooled-claim', '');
const today: CentroidUpdate = (heldOut ? chosenCentroid(modelId) : null) ?? { capSeconds: 10, onMatch: true };
const off: RunOptions = claims || pooledList ? { ...before, centroid: today } : before;

type Variant = CentroidUpdate | StoredClaim | { pooledClaim: PooledClaim; storedClaim: StoredClaim | null };
const variants: Variant[] = [];
if (pooledList) {
  const gate = claims && claims !== 'none' ? parseClaims(claims)[0]! : null;
  variants.push(...parsePooled(pooledList).map((pooledClaim) => ({ pooledClaim, storedClaim: gate })));
} else if (claims) variants.push(...parseClaims(claims));
else {
  for (const capSeconds of list('centroid-cap', heldOut ? '' : '10,30,60'))
    for (const onMatch of argString('centroid-on-match', 'false').split(',').map((x) => x === 'true')) variants.push({ capSeconds, onMatch });
}
const optionsOf = (v: Variant): RunOptions => ('pooledClaim' in v ? { ...off, ...v } : 'cost' in v ? { ...off, storedClaim: v } : { ...off, centroid: v });

await runVariantGrid({
  modelId, scen, off, heldOut, runs: RUNS, variants, optionsOf,
  extraOff: (f) => joinText(joins(f)),
  extraScenario: (on, offRuns, d) => `${joinText(joins(on))}; utterances under another speaker's id ${pc(mean(offRuns.map((x) => x.foreign)))} → ${pc(mean(on.map((x) => x.foreign)))} %, Δ ${ci(d((x) => x.foreign))}`,
  extraRule: (on, offAll) => {
    const j = sumJoins(on.map(joins));
    const offJoins = sumJoins(offAll.map(joins));
    const eligible = !(j.wrong > offJoins.wrong + 2 || j.pairs > offJoins.pairs + 2);
    return { eligible, text: `  all scenarios: ${joinText(j)}; off: ${joinText(offJoins)}` };
  },
});
