/**
 * Score fusion of stats-lda-v2 and moonshine-l1-v2 for the speaker decisions (issue #17 item 2, audit "next steps" 2,
 * helper fuse): the fused print [√w·a/|a|, √(1−w)·b/|b|] (bench/lib/speaker-fusion.ts; its cosine is w·cos_a +
 * (1−w)·cos_b), calibrated on the TRAINING speakers as the others are, against the shipped default (stats-lda-v2, its
 * calibrated decision, mergeTau, centroid prototypes 10 s / every match) and one id per session, on the same pieces
 * (both embed every piece; one either refuses is dropped for every arm, so the runs pair).
 *
 *   npm run bench:speaker-fuse -- --weight 0.3,0.5,0.7 --cache FILE     (choice: training speakers, out of fold, seeds 1–10)
 *   npm run bench:speaker-fuse -- --heldout --weight W --cache FILE     (held-out, once; FILE: the training cache, for the calibration)
 *   `--decisions FILE`: the fitted decisions by weight, read from FILE when it holds the weight, else fitted and written there
 *   `--kind-merge SPECS`: grid 4, the fused prints in the end-of-session merge of meeting-like sessions (below)
 *   `--kind-merge-arms W:TAU,…`: grid 5, the same merge with its arms as weight and fixed threshold pairs (below)
 *
 * Calibration of each weight, on the training speakers' out-of-fold prints only: the score calibration of
 * scripts/calibrate-speaker-decision.ts (the same pairs, `calibrationPairs`), its prior grid (logPriorNew −3…3 ×
 * logPriorPrevious 0…3 × logPriorSession 0…2 × minFoundSeconds 0/1.5/2.5, objective mean across-session utterance
 * accuracy of the meeting generator, clean / phone / far-field, seeds 1–5), and the thresholds (tauMatch, tauUpdate,
 * mergeTau, asker) a priori as the weighted sum of the two embedders' shipped ones (`fusedThresholds`), not swept.
 * Centroid prototypes as shipped (10 s / every match).
 *
 * Adoption rule, fixed and committed before the grid was run (speech18's grid-3 rule):
 * - eligible: pooled meetings Δ within-session utterance accuracy against the shipped default with its 95 % paired
 *   interval above 0; no training scenario (clean / phone / far-field × meeting / round-robin) with Δ across or Δ within
 *   utterance accuracy below 0 beyond its interval; wrong joins summed over the scenarios (merges of two different
 *   speakers, different-speaker id pairs ended as one) each at most the shipped default's + 2.
 * - objective: mean Δ within-session utterance accuracy over the three meeting scenarios; ties to the larger w.
 * - held-out once, only for the best eligible w, with the same-run baselines (one id per session, the shipped default).
 *   It passes when no held-out scenario has Δ across or Δ within utterance accuracy against the shipped default wholly
 *   below 0, wrong joins are each at most 1.1 × the shipped default's + 2, and far-field meetings' Δ within utterance
 *   accuracy against the shipped default has its interval above 0. Passing makes it an opt-in embedder setting; the
 *   server default changes only if every scenario's Δ within utterance accuracy has its interval above 0.
 * Grid 2 (helper fuse, after grid 1, whose result is below), fixed and committed before it was run:
 *   npm run bench:speaker-fuse -- --weight 0.5 --prior-objective all --cache FILE --decisions FILE2
 * - the fused decision's priors chosen on the mean across-session utterance accuracy of the meeting AND the round-robin
 *   sessions of the three conditions (seeds 1–5 each), instead of meetings alone; w 0.5 only (grid 1's best objective;
 *   the deadline allows one weight). Everything else, the eligibility, the held-out gate and the wiring rule, as above.
 * Result (2026-12-07, helper fuse): no weight eligible (w 0.5: pooled meetings +3.9 [+2.4, +5.5], but clean and phone
 * round-robin −10.8 and −5.3 within beyond their intervals), so no held-out run and nothing wired; docs/BENCHMARKS.md
 * "Score fusion of stats-lda-v2 and moonshine-l1-v2". Grid 2: not eligible either (pooled meetings +1.2 [−0.3, +2.6];
 * far-field meetings −1.4 [−4.0, +1.3]), no held-out run.
 * Grid 3, the session-kind-aware arms (helper kindfuse, after grids 1 and 2), fixed and committed before it was run:
 *   npm run bench:speaker-fuse -- --weight 0.5,0.7 --kind-switch 0.3,0.5,0.7 --cache FILE --decisions FILE2
 * - design (bench/lib/speaker-kind-switch.ts): each session is run by the shipped default (stats-lda-v2 alone, the fused
 *   print at w = 1) and by the fused print at w (its decision fitted as in grid 1, priors on meetings), each with its own
 *   voiceprint store across the run's sessions; at the end of each session the default tracker's stay rate (stays /
 *   transitions, as `absorptionFor`'s `minStayRate` reads it: an online sign, no label) picks the session's attributions:
 *   the fused run's when it is at least the cut (meeting-like, a dominant voice), the default's otherwise (round-robin-
 *   like). Ids stay apart by run, so a speaker attributed by different runs in two sessions counts as two ids (the across
 *   figures pay for a mixed run). Why at the end of the session and not at each decision: the production tracker takes
 *   one set of thresholds, one decision and one prototype space per session, and a prototype averaged at one weight is
 *   not the same print at another (a centroid of w 0.5 prints read at w 1 has its first half shrunk by about √0.5), so a
 *   per-decision switch would need a tracker change (production code) before any measurement; the end-of-session pick
 *   needs none and is what a server keeping both stores could do (its live labels those of the default until the end).
 * - arms (6): w 0.5 / 0.7 × stay-rate cut 0.3 / 0.5 / 0.7 (0.5: the cut chosen for absorption, stats-lda-v2-absorb.json;
 *   0.3 and 0.7 either side; fixed before any stay rate of these runs was looked at). Seeds 1–10, training speakers out
 *   of fold, the same pieces and baselines as grid 1 (the cache rebuilt by the same code).
 * - eligibility, the objective (mean Δ within utt over the three meeting scenarios; ties to the larger w, then the larger
 *   cut), the held-out gate (once, best eligible arm only, with `--heldout --weight W --kind-switch CUT`) exactly as above;
 *   wrong joins are the picked sessions' (per-session tallies summed). Whatever the held-out says, nothing is wired in this
 *   task (the lead decides).
 * Result of grid 3 (2026-12-07, helper kindfuse): eligible w 0.5 cut 0.7 (pooled meetings +3.1 [+1.8, +4.2]; the fused run
 * taken in 173 of 180 meeting sessions and none of 90 round-robin ones) and w 0.7 cut 0.7 (+2.5 [+1.6, +3.4]); cuts 0.3
 * and 0.5 not (phone round-robin sessions read meeting-like: Δ across −3.3 to −6.7 beyond their intervals). Held-out
 * once for w 0.5 cut 0.7: pooled meetings +5.1 [+3.1, +7.1], far-field meetings within +7.5 [+5.6, +10.1], no scenario
 * wholly below 0, no wrong joins: it passes the gate (by the rule an opt-in setting, not the default: round-robin Δ is
 * 0). Nothing wired; docs/BENCHMARKS.md "Session-kind-aware score fusion".
 * Grid 4, fused prints only in the end-of-session merge of meeting-like sessions (helper kindmerge, after grid 3), fixed
 * and committed before it was run:
 *   npm run bench:speaker-fuse -- --weight 0.5,0.7 --kind-merge prior,prior-0.05,calibrated --cache FILE
 * - design (bench/lib/speaker-kind-merge.ts, `RunOptions.kindMerge`): ONE tracker, the shipped default (stats-lda-v2
 *   alone, its calibrated decision, centroid prototypes, its one voiceprint store), runs every session live, exactly as
 *   the "off" arm; at the end of a session whose tracker's stay rate is at least the cut 0.7 (meeting-like; grid 3's
 *   eligible cut, not chosen again), the end-of-session merge clusters the session's ids (each id pooling the
 *   utterances the tracker attributed to it) on the FUSED prints at weight w (cosine w·cos_stats + (1−w)·cos_l1) at
 *   the fused merge threshold instead of the default merge on stats-lda-v2 prints at its mergeTau 0.9; every other
 *   session (round-robin-like) keeps today's merge, so its attributions are the default's until its store differs.
 *   The merges join ids in the one store as today's merges do. No production change: a server taking it would keep
 *   each turn's moonshine-l1-v2 print for the session (both embedders per turn) and call `clusterSessionIds` on them.
 * - arms (6): w 0.5 / 0.7 × fused merge threshold `prior` (the a priori weighted sum of the two shipped mergeTau,
 *   `fusedThresholds`: 0.9375 at w 0.5, 0.9225 at w 0.7), `prior-0.05` (that − 0.05) and `calibrated`: over the
 *   training speakers out of fold, seeds 1–5, all six scenarios, with this design at cut 0.7, the thresholds 0.300,
 *   0.325, …, 0.975 swept; safe are those joining at most 1 % of the different-speaker eligible id pairs of the
 *   sessions the fused merge ran in (scripts/calibrate-speaker.ts's rule); the calibrated one is the safe threshold
 *   with the best mean within-session utterance accuracy over the six scenarios, ties to the higher; none safe: 0.975.
 *   Seeds 1–10 for the grid, training speakers out of fold, the same pieces, baselines (one id per session, the
 *   shipped default) and cache as grids 1–3.
 * - eligibility as grids 1–3: pooled meetings Δ within utt against the shipped default with its 95 % paired interval
 *   above 0; no training scenario with Δ across or Δ within utt below 0 beyond its interval; wrong joins summed over
 *   the scenarios (merges of two different speakers, different-speaker id pairs ended as one) each at most the
 *   default's + 2. Objective: mean Δ within utt over the three meeting scenarios; ties to the larger w, then the higher
 *   threshold.
 * - held-out once, only for the best eligible arm (`--heldout --weight W --kind-merge SPEC --cache FILE`; a
 *   `calibrated` threshold calibrated again on the training cache, the same code), with the same-run baselines; the
 *   gate as above: no held-out scenario with Δ across or Δ within utt wholly below 0, wrong joins each at most 1.1 × the
 *   default's + 2, far-field meetings Δ within utt with its interval above 0.
 * - wiring rule, fixed before the run: passing makes it an opt-in setting only; it would be the default only if every
 *   held-out scenario's Δ within utt has its interval above 0 OR is exactly 0 by construction (round-robin-like
 *   sessions, where the fused merge never ran and the store did not change), AND no scenario's Δ across utt has its
 *   interval wholly below 0. Whatever the held-out says, nothing is wired in this task (the lead decides).
 * Result of grid 4 (2026-12-07, helper kindmerge): no arm eligible; all six gave the default's figures exactly (pooled
 * meetings +0.0 [+0.0, +0.0]): the fused merge ran in 173 of 180 meeting sessions and no round-robin one but joined
 * nothing at 0.8725–0.975 (calibrated 0.975 at both weights: the within accuracy flat over the sweep, ties to the higher;
 * the training same-speaker id pairs' fused linkage is at most 0.73). No held-out run, nothing wired; docs/BENCHMARKS.md
 * "Fused prints only in the end-of-session merge".
 * Grid 5, the same end-of-session merge at thresholds that can fire (helper kindmerge2, after grid 4), fixed and
 * committed before it was run (and before the control's thresholds below were computed):
 *   npm run bench:speaker-fuse -- --kind-merge-arms 0.5:0.60,0.5:0.65,0.5:0.70,1:T,1:T+0.05,1:T+0.1 --cache FILE
 * - design exactly grid 4's (one tracker, the shipped default, its one store; at the end of a session with stay rate at
 *   least 0.7 the merge clusters the session's ids by average linkage on the merge prints at the arm's threshold; every
 *   other session keeps today's merge). `--kind-merge-arms W:TAU,…` lists the arms (weight and fixed threshold) as pairs,
 *   instead of grid 4's weight × spec cross product.
 * - arms (6): the fused print at w 0.5 with thresholds 0.60 / 0.65 / 0.70 (fixed by the lead from grid 4's diagnostic:
 *   training different-speaker pairs' fused linkage at most 0.62, same-speaker pairs up to 0.73); and as a control the
 *   stats-lda-v2 print alone (w = 1: the merge print is the tracker's own print, so the arm is "merge lower" on today's
 *   prints, average linkage) in the same meeting-like sessions at T, T + 0.05, T + 0.10, where T is the maximum, rounded
 *   up to 3 decimals, of the average linkage on stats-lda-v2 prints (w = 1) of the different-speaker id pairs left by
 *   the shipped default in the meeting-like sessions (stay rate ≥ 0.7) of the three training meeting scenarios pooled,
 *   seeds 1–10, training speakers out of fold, the same cache (each id labelled by its majority speaker, as grid 4's
 *   diagnostic); computed by /tmp/kindmerge2/diag.mjs after this rule's commit and before the grid, only the
 *   different-speaker distribution printed, and T committed here before the grid. Question: does fusion add anything
 *   over simply merging lower on today's prints? T computed (19:11 UTC): 253 different-speaker pairs, max 0.48980
 *   (clean / phone / far-field meetings 0.4007 / 0.4237 / 0.4898), so T = 0.490 and the control arms 1:0.49, 1:0.54,
 *   1:0.59:
 *   npm run bench:speaker-fuse -- --kind-merge-arms 0.5:0.60,0.5:0.65,0.5:0.70,1:0.49,1:0.54,1:0.59 --cache FILE
 * - eligibility, objective (mean Δ within utt over the three meeting scenarios; ties to the larger w, then the higher
 *   threshold), held-out gate (once, the best eligible arm only, `--heldout --kind-merge-arms W:TAU --cache FILE`, with
 *   the same-run baselines) and wiring rule exactly as grid 4's (above). Nothing is wired in this task.
 * Result of grid 5 (2026-12-07, helper kindmerge2): no arm eligible (best pooled meetings +0.1 [+0.0, +0.2], stats-lda-v2
 * alone at 0.49; fused 0.60 +0.1 [−0.0, +0.4] with the only wrong join; 0.65 / 0.70 joined nothing); the merge joined at
 * most 3 id pairs in 180 meeting sessions; fusion added nothing over merging lower on stats-lda-v2 prints. No held-out
 * run, nothing wired; docs/BENCHMARKS.md "The end-of-session merge of meeting-like sessions at thresholds that can fire".
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { argString } from './lib/cli.js';
import { ci, mean, pc, runVariantGrid } from './lib/speaker-variant-grid.js';
import { figures, type RunFigures } from './lib/speaker-meeting-runs.js';
import { switchByKind } from './lib/speaker-kind-switch.js';
import { parseKindMergeArms } from './lib/speaker-kind-merge.js';
import { meetingLike } from '../pipelines/speaker/small-id-absorption.js';
import { runSessions } from './lib/speaker-sessions.js';
import { heldOutSpeech, scenarios, type ConditionSpeech } from './lib/speaker-revise-data.js';
import { skipWithoutSharedSpeech } from './lib/shared-speech.js';
import { joins, joinText, sumJoins } from './lib/speaker-joins.js';
import { outOfFoldEmbedders } from './lib/speaker-folds.js';
import { loadSpeakerFeatures } from './lib/speaker-feature-kinds.js';
import { trainingConditions } from './lib/speaker-training.js';
import { meetingSessions } from './lib/speaker-meeting.js';
import { arrangeSessions, shufflePerSpeaker } from './lib/speaker-scores.js';
import { scoreRuns } from './lib/speaker-meeting-runs.js';
import { fitPairsCalibration } from './lib/speaker-calibration-pairs.js';
import { firstPrint, fusedThresholds, fusedVector, JointSpeakerEmbedder, mapScenarios, withMergePrints } from './lib/speaker-fusion.js';
import type { EvalUtterance, RunOptions } from './lib/speaker-sessions.js';
import type { Scenario } from './lib/speaker-revise-data.js';
import type { SpeakerEmbedder } from '../pipelines/speaker/speaker-embedder.js';
import { chosenCentroid } from '../pipelines/speaker/centroid-update.js';
import { decisionFor, type SpeakerDecisionParams } from '../pipelines/speaker/speaker-decision.js';
import { SHORT_TURN_MS, thresholdsFor } from '../pipelines/speaker/speaker-thresholds.js';
import { StatsLdaSpeakerEmbedder } from '../pipelines/speaker/stats-lda-speaker-embedder.js';
import { MoonshineL1SpeakerEmbedder } from '../pipelines/speaker/moonshine-l1-speaker-embedder.js';
import { modelsDir } from '../pipelines/models/repo-root.js';

skipWithoutSharedSpeech('speaker-fuse');
const heldOut = process.argv.includes('--heldout');
const RUNS = Number(process.env.PARLEY_SPEAKER_RUNS ?? 10);
const seeds = Array.from({ length: RUNS }, (_, i) => i + 1);
/** `--kind-merge-arms W:TAU,…`: grid 5's arms as weight and fixed merge threshold pairs (see the header). */
const kindArmsText = argString('kind-merge-arms', '');
const kindArms = kindArmsText ? parseKindMergeArms(kindArmsText) : null;
const weights = kindArms ? [...new Set(kindArms.map((a) => a.w))] : argString('weight', '0.3,0.5,0.7').split(',').map(Number);
const cache = argString('cache', '') || null;
/** `--kind-switch CUTS`: the session-kind-aware arms, one per weight × stay-rate cut (see the header). */
const cuts = (argString('kind-switch', '') || null)?.split(',').map(Number) ?? null;
/** `--kind-merge SPECS` (`prior`, `prior-0.05`, `calibrated`): fused prints in the merge of meeting-like sessions (grid 4). */
const mergeSpecs = (argString('kind-merge', '') || null)?.split(',') ?? null;
const KIND_CUT = 0.7;
const A = 'stats-lda-v2';
const B = 'moonshine-l1-v2';

/** The training speakers' joint prints, out of fold (each speaker by both embedders of its fold); cached in `cache`. */
async function trainingJoint(): Promise<{ dimA: number; speech: Map<string, ConditionSpeech> }> {
  if (cache && existsSync(cache)) {
    const { dimA, entries } = JSON.parse(readFileSync(cache, 'utf8')) as { dimA: number; entries: [string, ConditionSpeech][] };
    const u = (x: EvalUtterance): EvalUtterance => ({ ...x, vector: Float32Array.from(x.vector as unknown as number[]) });
    return { dimA, speech: new Map(entries.map(([k, c]) => [k, { chunks: c.chunks.map((m) => ({ ...m, whole: u(m.whole), fragments: m.fragments.map(u) })), whole: c.whole.map(u) }])) };
  }
  const fa = await loadSpeakerFeatures('stats');
  const fb = await loadSpeakerFeatures('moonshine-l1');
  const oa = await outOfFoldEmbedders(fa.loadParams(), fa);
  const ob = await outOfFoldEmbedders(fb.loadParams(), fb);
  const joint = new Map<string, SpeakerEmbedder>([...oa.embedderOf].map(([spk, e]) => [spk, new JointSpeakerEmbedder(e, ob.embedderOf.get(spk)!)]));
  const dimA = oa.embedderOf.values().next().value!.dimension;
  const speech = await trainingConditions(oa.train, joint);
  if (cache) writeFileSync(cache, JSON.stringify({ dimA, entries: [...speech.entries()] }, (_k, v: unknown) => (v instanceof Float32Array ? [...v] : v)));
  return { dimA, speech };
}

/** The fused decision at weight `w`, fitted on the training speakers (as scripts/calibrate-speaker-decision.ts). */
async function fusedDecision(train: Map<string, ConditionSpeech>, dimA: number, w: number, base: RunOptions): Promise<SpeakerDecisionParams> {
  const file = argString('decisions', '') || null;
  const known = (file && existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {}) as Record<string, SpeakerDecisionParams>;
  if (known[String(w)]) {
    console.log(`w ${w}: fused decision ${JSON.stringify(known[String(w)])} (read from ${file})`);
    return known[String(w)]!;
  }
  const d = await fitFusedDecision(train, dimA, w, base);
  if (file) writeFileSync(file, JSON.stringify({ ...known, [String(w)]: d }, null, 1) + '\n');
  return d;
}

async function fitFusedDecision(train: Map<string, ConditionSpeech>, dimA: number, w: number, base: RunOptions): Promise<SpeakerDecisionParams> {
  const f = (v: Float32Array): Float32Array => fusedVector(v, dimA, w);
  const fused = [...train.values()].map(({ chunks }) => chunks.map((c) => ({ ...c, whole: { ...c.whole, vector: f(c.whole.vector) }, fragments: c.fragments.map((x) => ({ ...x, vector: f(x.vector) })) })));
  const calibration = fitPairsCalibration(fused);
  const meetings = fused.map((chunks) => [1, 2, 3, 4, 5].map((s) => meetingSessions(chunks, s)));
  if (argString('prior-objective', 'meetings') === 'all') {
    for (const { whole } of train.values()) meetings.push([1, 2, 3, 4, 5].map((s) => arrangeSessions(shufflePerSpeaker(whole.map((u) => ({ ...u, vector: f(u.vector) })), s), 4)));
  }
  let best: { d: SpeakerDecisionParams; acc: number } | null = null;
  for (const logPriorNew of [-3, -2, -1, 0, 1, 2, 3])
    for (const logPriorPrevious of [0, 1, 2, 3])
      for (const logPriorSession of [0, 1, 2])
        for (const minFoundSeconds of [0, 1.5, 2.5]) {
          const d: SpeakerDecisionParams = { modelId: 'fold', calibration, logPriorNew, logPriorPrevious, logPriorSession, minFoundSeconds };
          let acc = 0;
          for (const runs of meetings) acc += mean((await scoreRuns(runs, 'fold', { ...base, decision: d })).map((x) => x.utterance));
          if (!best || acc > best.acc + 1e-9) best = { d, acc };
        }
  console.log(`w ${w}: fused decision ${JSON.stringify(best!.d)} (training ${meetings.length === 3 ? 'meetings' : 'meetings and round-robin'}, mean across utt ${pc(best!.acc / meetings.length)})`);
  return best!.d;
}

const train = await trainingJoint();
let dimA = train.dimA;
let speech = train.speech;
let costs: JointSpeakerEmbedder['costs'] | null = null;
if (heldOut) {
  const joint = new JointSpeakerEmbedder(new StatsLdaSpeakerEmbedder(), await MoonshineL1SpeakerEmbedder.create(modelsDir()));
  dimA = joint.a.dimension;
  speech = await heldOutSpeech(joint);
  costs = joint.costs;
}
const scen = scenarios(speech, seeds, heldOut ? 100 : 0);
const ta = thresholdsFor(A);
const off: RunOptions = { thresholds: ta, mergeTau: ta.mergeTau, shortSeconds: SHORT_TURN_MS / 1000, decision: decisionFor(A), centroid: chosenCentroid(A) ?? { capSeconds: 10, onMatch: true } };
type Arm = { w: number; minStayRate?: number; merge?: string; linkageTau?: number };
const arms: { w: number; options: RunOptions }[] = [];
for (const w of mergeSpecs || kindArms ? [] : weights) {
  const t = fusedThresholds(ta, thresholdsFor(B), w);
  const base: RunOptions = { thresholds: t, mergeTau: t.mergeTau, shortSeconds: SHORT_TURN_MS / 1000 };
  arms.push({ w, options: { ...base, decision: await fusedDecision(train.speech, train.dimA, w, base), centroid: off.centroid } });
}
const modelId = heldOut ? A : 'fold';
const baseScen = mapScenarios(scen, (v) => firstPrint(v, dimA));
const fusedScen = new Map(weights.map((w) => [w, mapScenarios(scen, (v) => fusedVector(v, dimA, w))]));
const mergeScen = new Map(mergeSpecs || kindArms ? weights.map((w) => [w, withMergePrints(scen, dimA, w)]) : []);

/** The fused merge threshold of a grid-4 arm (see the header); `calibrated` on the training speakers, seeds 1–5. */
async function kindMergeTau(w: number, spec: string): Promise<number> {
  const prior = fusedThresholds(ta, thresholdsFor(B), w).mergeTau;
  if (spec === 'prior') return prior;
  if (spec === 'prior-0.05') return Number((prior - 0.05).toFixed(4));
  if (spec !== 'calibrated') throw new Error(`--kind-merge: prior, prior-0.05 or calibrated, not ${spec}`);
  const cal = withMergePrints(scenarios(train.speech, [1, 2, 3, 4, 5], 0), train.dimA, w);
  let best: { tau: number; acc: number } | null = null;
  for (let i = 0; i <= 27; i++) {
    const tau = Number((0.3 + 0.025 * i).toFixed(3));
    let pairs = 0, joined = 0, acc = 0;
    for (const s of cal) {
      const figs: number[] = [];
      for (const sessions of s.runs) {
        const r = await runSessions(sessions, 'fold', { ...off, kindMerge: { minStayRate: KIND_CUT, linkageTau: tau } });
        for (const e of r.sessions) if (meetingLike(e.stays, e.transitions, KIND_CUT)) { pairs += e.merges.differentPairs; joined += e.merges.differentPairsJoined; }
        figs.push(figures(r.attributions).withinUtterance);
      }
      acc += mean(figs) / cal.length;
    }
    const safe = joined <= 0.01 * pairs;
    console.log(`  w ${w} fused merge ${tau.toFixed(3)}: different-speaker pairs joined ${joined}/${pairs}${safe ? '' : ' (over 1 %)'}, mean within utt ${pc(acc)}`);
    if (safe && (!best || acc >= best.acc - 1e-9)) best = { tau, acc };
  }
  console.log(`w ${w}: calibrated fused merge threshold ${best?.tau ?? 0.975}`);
  return best?.tau ?? 0.975;
}

const variants: Arm[] = [];
if (kindArms) variants.push(...kindArms.map((a) => ({ w: a.w, merge: 'fixed', linkageTau: a.linkageTau })));
else if (mergeSpecs) for (const w of weights) for (const merge of mergeSpecs) variants.push({ w, merge, linkageTau: await kindMergeTau(w, merge) });
else variants.push(...(cuts ? weights.flatMap((w) => cuts.map((minStayRate) => ({ w, minStayRate }))) : weights.map((w) => ({ w }))));
const kindOptions = (v: Arm): RunOptions => ({ ...off, kindMerge: { minStayRate: KIND_CUT, linkageTau: v.linkageTau! } });

/** A grid-4 arm's runs of scenario `k`, telling in how many sessions the fused merge ran. */
async function kindMerged(v: Arm, k: number): Promise<RunFigures[]> {
  const s = mergeScen.get(v.w)![k]!;
  let merged = 0, sessions = 0;
  const out: RunFigures[] = [];
  for (const run of s.runs) {
    const r = await runSessions(run, modelId, kindOptions(v));
    merged += r.sessions.filter((e) => meetingLike(e.stays, e.transitions, KIND_CUT)).length;
    sessions += r.sessions.length;
    out.push(figures(r.attributions, r.merges, r.revisions));
  }
  console.log(`  [w ${v.w}, fused merge ${v.merge} ${v.linkageTau}] ${s.name}: fused merge ran in ${merged} of ${sessions} sessions`);
  return out;
}

/** Each scenario's runs by one setting, memoised (the kind arms of one weight share them); `ms`: the tracker's time. */
const memo = new Map<string, { runs: Awaited<ReturnType<typeof runSessions>>[]; ms: number }>();
async function runsOf(key: string, s: Scenario, o: RunOptions): Promise<{ runs: Awaited<ReturnType<typeof runSessions>>[]; ms: number }> {
  const known = memo.get(key);
  if (known) return known;
  const t = performance.now();
  const runs: Awaited<ReturnType<typeof runSessions>>[] = [];
  for (const sessions of s.runs) runs.push(await runSessions(sessions, modelId, o));
  const out = { runs, ms: performance.now() - t };
  memo.set(key, out);
  return out;
}

/** A kind arm's runs of scenario `k`: each session from the fused run or the base run, as the base run's stay rate picks. */
async function kindSwitched(v: Arm, k: number): Promise<RunFigures[]> {
  const b = await runsOf(`base ${k}`, baseScen[k]!, off);
  const f = await runsOf(`${v.w} ${k}`, fusedScen.get(v.w)![k]!, arms.find((a) => a.w === v.w)!.options);
  let fusedSessions = 0, sessions = 0;
  const out = b.runs.map((r, i) => {
    const sw = switchByKind(r, f.runs[i]!, v.minStayRate!);
    fusedSessions += sw.fusedSessions;
    sessions += r.sessions.length;
    return figures(sw.attributions, sw.merges);
  });
  const audio = scen[k]!.runs.flat(2).reduce((x, u) => x + u.seconds, 0);
  console.log(`  [w ${v.w}, stay-rate cut ${v.minStayRate}] ${scen[k]!.name}: fused run taken in ${fusedSessions} of ${sessions} sessions; tracker CPU ${(b.ms / audio).toFixed(3)} (base) + ${(f.ms / audio).toFixed(3)} (fused) ms per second of audio`);
  return out;
}

await runVariantGrid({
  modelId, scen: baseScen, off, heldOut, runs: RUNS, variants,
  optionsOf: (v) => (v.merge ? kindOptions(v) : arms.find((a) => a.w === v.w)!.options),
  scenOf: (v) => (v.merge ? mergeScen.get(v.w)! : v.minStayRate == null ? fusedScen.get(v.w)! : baseScen),
  score: (v, k) => (v.merge ? kindMerged(v, k) : v.minStayRate == null ? null : kindSwitched(v, k)),
  extraOff: (f) => joinText(joins(f)),
  extraScenario: (on, offRuns, d) => `${joinText(joins(on))}; utterances under another speaker's id ${pc(mean(offRuns.map((x) => x.foreign)))} → ${pc(mean(on.map((x) => x.foreign)))} %, Δ ${ci(d((x) => x.foreign))}`,
  extraRule: (on, offAll) => {
    const j = sumJoins(on.map(joins));
    const o = sumJoins(offAll.map(joins));
    const bound = (x: number): number => (heldOut ? 1.1 * x + 2 : x + 2);
    return { eligible: j.wrong <= bound(o.wrong) && j.pairs <= bound(o.pairs), text: `  all scenarios: ${joinText(j)}; shipped default: ${joinText(o)}` };
  },
});
if (costs) for (const [k, c] of costs.entries()) console.log(`CPU of ${k === 0 ? A : B}: ${(c.ms / c.seconds).toFixed(2)} ms per second of audio (${c.seconds.toFixed(0)} s embedded)`);
