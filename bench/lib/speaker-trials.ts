/**
 * Verification trials for comparing speaker embedders on the same windows: every pair of windows from
 * two different utterances is a trial (same or different speaker); EER and a normalised minimum
 * detection cost, with a paired bootstrap over utterances (an utterance drawn k times weighs its pairs k-fold).
 */
import { errorRates, type SortedTrials } from '../../pipelines/speaker/eval-metrics.js';
import { cosine } from '../../pipelines/speaker/speaker-embedder.js';
import { seededRandom } from './seeded-random.js';

/** A window of one utterance, embedded by every system under comparison (same order). */
export interface TrialWindow {
  speaker: string;
  /** Index of the source utterance (the bootstrap unit). */
  utterance: number;
  vectors: Float32Array[];
}

/** The trials of one system, sorted by score, with their pair's utterances. */
interface ScoredTrials extends SortedTrials {
  a: Uint32Array;
  b: Uint32Array;
}

/** Score of a trial for one system (default: cosine of the two windows' vectors). */
export type TrialScore = (x: TrialWindow, y: TrialWindow, system: number) => number;
const cosineScore: TrialScore = (x, y, system) => cosine(x.vectors[system]!, y.vectors[system]!);

function scoreTrials(windows: TrialWindow[], system: number, score: TrialScore): ScoredTrials {
  const rows: { s: number; same: boolean; a: number; b: number }[] = [];
  for (let i = 0; i < windows.length; i++)
    for (let j = i + 1; j < windows.length; j++) {
      const x = windows[i]!;
      const y = windows[j]!;
      if (x.utterance === y.utterance) continue;
      rows.push({ s: score(x, y, system), same: x.speaker === y.speaker, a: x.utterance, b: y.utterance });
    }
  rows.sort((p, q) => p.s - q.s);
  return {
    score: Float64Array.from(rows, (r) => r.s),
    target: Uint8Array.from(rows, (r) => (r.same ? 1 : 0)),
    a: Uint32Array.from(rows, (r) => r.a),
    b: Uint32Array.from(rows, (r) => r.b),
  };
}

/** EER and normalised minDCF of weighted trials (weight per utterance; a pair weighs the product). */
function metrics(t: ScoredTrials, weight: Float64Array | null): { eer: number; minDcf: number } {
  const pairs = weight ? Float64Array.from(t.a, (a, k) => weight[a]! * weight[t.b[k]!]!) : null;
  const { eer, minDcf } = errorRates(t, pairs);
  return { eer, minDcf };
}

/** A figure with its 95 % bootstrap interval. */
export interface Interval {
  value: number;
  lo: number;
  hi: number;
}

/** Per system: EER and minDCF, mean same/different cosine; per system after the first: EER minus the first's. */
export interface TrialReport {
  trials: { same: number; diff: number };
  systems: { eer: Interval; minDcf: Interval; meanSame: number; meanDiff: number; eerDelta: Interval | null }[];
}

/** Compare systems on the same windows with `rounds` bootstrap resamples of the utterances (seeded); `score` scores a trial. */
export function compareOnTrials(windows: TrialWindow[], systems: number, rounds = 500, seed = 1, score: TrialScore = cosineScore): TrialReport {
  const scored = Array.from({ length: systems }, (_, s) => scoreTrials(windows, s, score));
  const utterances = Math.max(...windows.map((w) => w.utterance)) + 1;
  const used = [...new Set(windows.map((w) => w.utterance))];
  const full = scored.map((t) => metrics(t, null));
  const next = seededRandom(seed);
  const draws = scored.map(() => ({ eer: [] as number[], minDcf: [] as number[], delta: [] as number[] }));
  for (let r = 0; r < rounds; r++) {
    const weight = new Float64Array(utterances);
    for (let i = 0; i < used.length; i++) weight[used[Math.floor(next() * used.length)]!]! += 1;
    const m = scored.map((t) => metrics(t, weight));
    m.forEach((x, s) => {
      draws[s]!.eer.push(x.eer);
      draws[s]!.minDcf.push(x.minDcf);
      draws[s]!.delta.push(x.eer - m[0]!.eer);
    });
  }
  const t0 = scored[0]!;
  let same = 0;
  for (const v of t0.target) same += v;
  return {
    trials: { same, diff: t0.target.length - same },
    systems: scored.map((t, s) => {
      let sumSame = 0;
      let sumDiff = 0;
      for (let k = 0; k < t.score.length; k++) (t.target[k] ? (sumSame += t.score[k]!) : (sumDiff += t.score[k]!));
      return {
        eer: interval(full[s]!.eer, draws[s]!.eer),
        minDcf: interval(full[s]!.minDcf, draws[s]!.minDcf),
        meanSame: sumSame / Math.max(1, same),
        meanDiff: sumDiff / Math.max(1, t.target.length - same),
        eerDelta: s === 0 ? null : interval(full[s]!.eer - full[0]!.eer, draws[s]!.delta),
      };
    }),
  };
}

function interval(value: number, draws: number[]): Interval {
  const xs = draws.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (xs.length === 0) return { value, lo: Number.NaN, hi: Number.NaN };
  return { value, lo: xs[Math.floor(0.025 * xs.length)]!, hi: xs[Math.min(xs.length - 1, Math.ceil(0.975 * xs.length) - 1)]! };
}
