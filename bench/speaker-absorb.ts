/**
 * Small new ids in the end-of-session merge (issue #17 item 2, far-field): the cosine clustering with
 * `absorb` (pipelines/speaker/session-clustering.ts: a group new in the session holding less than
 * `maxSeconds` of voiced speech joins another at linkage `minLinkage`) against it without ("off": the
 * calibrated decision, cosine merge at mergeTau, as bench/speaker-meeting.ts's "main" rows), in the same runs.
 *
 *   npm run bench:speaker-absorb -- [--max-seconds 2,4,8,16 --min-linkage -1,0,0.3,0.5,0.7 --min-stay none,0.5 --cache FILE]
 *        (choice: TRAINING speakers, out of fold, seeds 1–10, as bench/speaker-revise.ts)
 *   npm run bench:speaker-absorb -- --heldout --max-seconds 8 --min-linkage 0.5        (held-out, once)
 *
 * Adoption rule, fixed before the training grid was read:
 * - eligible: in each of the six training scenarios (clean / phone / far-field × meeting / round-robin) the 95 %
 *   paired interval of Δ across-session utterance accuracy and of Δ within-session utterance accuracy reaches
 *   0 or above (no loss beyond its interval), and the pooled Δ within-session utterance accuracy over the three
 *   meeting scenarios has its lower end above 0;
 * - objective: the mean Δ within-session utterance accuracy over the three meeting scenarios;
 * - chosen: the eligible setting of highest objective; within 0.1 point the higher minLinkage, then the lower
 *   maxSeconds (the more conservative). None eligible: nothing is adopted and no held-out run is made.
 * - grid 2, added after reading grid 1 (where every setting that raised far-field meetings lost far-field
 *   round-robin within sessions beyond its interval): the same rule over `minStayRate` none, 0.5, 0.6, 0.7, 0.8
 *   (absorption only in sessions that mostly stay with the voice just heard), maxSeconds 8 / 16, minLinkage 0 / 0.3 / 0.5.
 * - server default: on only when no held-out scenario has Δ across or Δ within utterance accuracy with its
 *   interval wholly below zero.
 * Held-out: LIBRI_HELDOUT and SpeechBrain speakers, stats-lda-v2 as shipped, bench/speaker-meeting.ts's audio and
 * seeds, with one id per session beside it.
 */
import { argString } from './lib/cli.js';
import { runVariantGrid } from './lib/speaker-variant-grid.js';
import { sessionScenarios } from './lib/speaker-revise-data.js';
import { skipWithoutSharedSpeech } from './lib/shared-speech.js';
import type { SmallIdAbsorption } from '../pipelines/speaker/session-clustering.js';

skipWithoutSharedSpeech('speaker-absorb');
const heldOut = process.argv.includes('--heldout');
const RUNS = Number(process.env.PARLEY_SPEAKER_RUNS ?? 10);
const seeds = Array.from({ length: RUNS }, (_, i) => i + 1);
const list = (name: string, fallback: string): number[] => argString(name, fallback).split(',').map(Number);

const { modelId, off, scen } = await sessionScenarios(heldOut, seeds, argString('cache', '') || null);

const variants: SmallIdAbsorption[] = [];
const stayList = argString('min-stay', 'none').split(',').map((x) => (x === 'none' ? null : Number(x)));
for (const maxSeconds of list('max-seconds', heldOut ? '' : '2,4,8,16'))
  for (const minLinkage of list('min-linkage', heldOut ? '' : '-1,0,0.3,0.5,0.7'))
    for (const minStayRate of stayList) variants.push({ maxSeconds, minLinkage, minStayRate });

await runVariantGrid({
  modelId, scen, off, heldOut, runs: RUNS, variants, optionsOf: (v) => ({ ...off, absorb: v }),
  extraScenario: (on) => {
    const m = on.reduce((t, x) => ({ right: t.right + x.merges.correctMerges, wrong: t.wrong + x.merges.wrongMerges }), { right: 0, wrong: 0 });
    return `merges ${m.right} same / ${m.wrong} different speakers`;
  },
});
