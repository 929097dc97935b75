/**
 * Scoring of VAD output against a mixture's reference labels (bench/lib/room-audio.ts): frame-level
 * recall and false alarms at a threshold, and what the end-of-turn segmenter makes of the probabilities.
 */
import { SILERO_WINDOW_SAMPLES } from '../../pipelines/audio/silero-vad-model.js';
import { TurnSegmenter } from '../../pipelines/audio/turn-segmenter.js';
import { resolveVadOptions, type VadOptions } from '../../pipelines/audio/vad-options.js';
import type { Mixture } from './room-audio.js';

const WIN_MS = SILERO_WINDOW_SAMPLES / 16;
/** Windows next to a reference speech edge are scored neither as hit nor as false alarm (32 ms each side). */
const COLLAR = 1;
/** Audio after the speech end kept in a turn's span by SpeechPipeline (its TAIL_MS). */
const TAIL_MS = 150;

/** Frame counts: speech windows and those above threshold, non-speech windows and those above threshold. */
export interface Scored { hit: number; speech: number; fa: number; nonSpeech: number }
/** Turn counts: speech windows inside a turn, non-speech windows inside one, turn lengths (ms), reference runs and those no turn touched. */
export interface Turns { covered: number; speech: number; faIn: number; nonSpeech: number; lengths: number[]; utterances: number; missed: number }

function scoreable(m: Mixture, k: number): boolean {
  for (let d = -COLLAR; d <= COLLAR; d++) if (d !== 0 && m.speech[k + d] !== undefined && m.speech[k + d] !== m.speech[k]) return false;
  return true;
}

/** Frame-level counts at `threshold`. */
export function frames(m: Mixture, probs: number[], threshold: number): Scored {
  const s: Scored = { hit: 0, speech: 0, fa: 0, nonSpeech: 0 };
  probs.forEach((p, k) => {
    if (!scoreable(m, k)) return;
    if (m.speech[k]) { s.speech++; if (p >= threshold) s.hit++; } else { s.nonSpeech++; if (p >= threshold) s.fa++; }
  });
  return s;
}

/** Run the end-of-turn segmenter; a window is "in a turn" from the padded onset to the speech end + tail. */
export function turns(m: Mixture, probs: number[], opts: VadOptions): Turns {
  const o = resolveVadOptions(opts);
  const seg = new TurnSegmenter(o);
  const spans: [number, number][] = [];
  let onset = 0;
  probs.forEach((p, k) => {
    const ev = seg.push(p, k * WIN_MS, (k + 1) * WIN_MS);
    if (ev?.type === 'start') onset = ev.onsetMs;
    if (ev?.type === 'stop') spans.push([onset, ev.speechEndMs]);
  });
  const end = seg.commit(probs.length * WIN_MS);
  if (end?.type === 'stop') spans.push([onset, end.speechEndMs]);
  const inTurn = new Array<boolean>(probs.length).fill(false);
  for (const [a, b] of spans) {
    for (let k = Math.max(0, Math.floor((a - o.prePaddingMs) / WIN_MS)); k < Math.min(probs.length, Math.ceil((b + TAIL_MS) / WIN_MS)); k++) inTurn[k] = true;
  }
  const t: Turns = { covered: 0, speech: 0, faIn: 0, nonSpeech: 0, lengths: spans.map(([a, b]) => b - a), utterances: 0, missed: 0 };
  let inUtt = false, uttHit = false;
  m.speech.forEach((s, k) => {
    if (s && !inUtt) { inUtt = true; uttHit = false; t.utterances++; }
    if (!s && inUtt) { inUtt = false; if (!uttHit) t.missed++; }
    if (s && inTurn[k]) uttHit = true;
    if (!scoreable(m, k)) return;
    if (s) { t.speech++; if (inTurn[k]) t.covered++; } else { t.nonSpeech++; if (inTurn[k]) t.faIn++; }
  });
  if (inUtt && !uttHit) t.missed++;
  return t;
}

/** `a / b` as a percentage with one decimal, `-` when b is 0. */
export const pct = (a: number, b: number): string => (b === 0 ? '-' : ((100 * a) / b).toFixed(1));
/** Median (upper middle) of `xs`, NaN when empty. */
export function median(xs: number[]): number { const s = [...xs].sort((a, b) => a - b); return s.length ? (s[Math.floor(s.length / 2)] ?? NaN) : NaN; }
/** "min–max" of `xs` with one decimal. */
export function range(xs: number[]): string { return `${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)}`; }
/** Sum of field `k` over `xs`. */
export const sum = <T>(xs: T[], k: keyof T): number => xs.reduce((a, x) => a + (x[k] as number), 0);

/**
 * The table cells both VAD benches print for one variant over the speakers' mixtures: frame recall and false
 * alarm at `threshold` (with their min–max over speakers when `frameRanges`), turn coverage and non-speech in
 * turns (min–max), reference runs without a turn, turns, median turn length in seconds. Starts with "| ".
 */
export function vadRowCells(rows: { m: Mixture; probs: number[] }[], opts: VadOptions, frameRanges: boolean, threshold = 0.5): string {
  const f = rows.map((d) => frames(d.m, d.probs, threshold));
  const t = rows.map((d) => turns(d.m, d.probs, opts));
  const spread = (xs: number[]) => (frameRanges ? ` (${range(xs)})` : '');
  return `| ${pct(sum(f, 'hit'), sum(f, 'speech'))}${spread(f.map((x) => (100 * x.hit) / x.speech))} `
    + `| ${pct(sum(f, 'fa'), sum(f, 'nonSpeech'))}${spread(f.map((x) => (100 * x.fa) / x.nonSpeech))} `
    + `| ${pct(sum(t, 'covered'), sum(t, 'speech'))} (${range(t.map((x) => (100 * x.covered) / x.speech))}) `
    + `| ${pct(sum(t, 'faIn'), sum(t, 'nonSpeech'))} (${range(t.map((x) => (100 * x.faIn) / x.nonSpeech))}) `
    + `| ${sum(t, 'missed')}/${sum(t, 'utterances')} | ${t.reduce((a, x) => a + x.lengths.length, 0)} | ${(median(t.flatMap((x) => x.lengths)) / 1000).toFixed(2)} |`;
}
