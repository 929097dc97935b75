/**
 * The first turn of each stream on a warm pocketsphinx decoder (issue #17 item 5): streams of different voices
 * at levels 20 dB apart take turns on one recogniser of one decoder, as streams share a worker's pooled
 * decoders. Word error rate and CPU per turn, in the same run, for
 * - `main`: turns given no stream (Parley before the fix: only a decoder's first turn is decoded twice, and
 *   each later stream starts from the mean and noise statistics of the stream the decoder served last);
 * - `streams`: turns given their stream (`AsrTurnOptions.stream`: each stream's own state, its first turn
 *   from the model prior and decoded twice);
 * - `fresh`: each stream's first turn alone on a fresh recogniser, as `streams` (what it gets at best).
 * At 16 kHz and through an 8 kHz G.711 μ-law line (Parley's narrowband settings). Twice, in two orders of
 * streams (the second reversed, so each stream follows another voice and is heard at the other level) and
 * of sentences (the second starts half way through); one unscored warm-up stream precedes each order.
 *
 *   node dist/bench/asr-stream-first-turn.js --dev   development: eval-corpus.ts's training voices × sentences 1–6
 *   node dist/bench/asr-stream-first-turn.js         report: held-out voices, flite kal × sentences 7–12, SpeechBrain
 *   options: --turns N (each stream's first N sentences), --band 16 | --band 8 (one band)
 * Run: npm run bench:asr-stream-first-turn
 */
import { NARROWBAND_OPTIONS } from '../pipelines/asr/narrowband.js';
import { PocketsphinxAsr } from '../pipelines/asr/pocketsphinx-asr.js';
import { wordErrors } from '../pipelines/asr/wer.js';
import { hasTts } from '../pipelines/speaker/eval-corpus.js';
import { firstTurnStreams, type Clip } from './lib/first-turn-clips.js';
import { phoneLine } from './lib/room-audio.js';
import { werCi, type ClipErrors } from './lib/wer-bootstrap.js';

interface Turn extends ClipErrors { first: boolean; cpuMs: number; hyp: string }
type Mode = 'main' | 'streams' | 'fresh';

const CHUNK = 1600;
/** Stream levels by position: every other stream 20 dB down, so each follows a stream at the other level. */
const GAINS = [1, 0.1];
const dev = process.argv.includes('--dev');
const arg = (name: string): string | undefined => process.argv[process.argv.indexOf(name) + 1];
/** `--turns N`: each stream's first N sentences only (the machine may be too busy for all). */
const TURNS = process.argv.includes('--turns') ? Number(arg('--turns')) : Infinity;
/** `--band 16|8`: one band only. */
const BAND = process.argv.includes('--band') ? arg('--band') : undefined;

if (!hasTts()) {
  console.log('asr-stream-first-turn: skipped, flite / festival / sox are not installed');
  process.exit(0);
}

function load(options: Record<string, string>): PocketsphinxAsr {
  return PocketsphinxAsr.load({ kind: 'pocketsphinx', maxDecoders: 1, nameSpotting: false, options });
}

/** The clips as the turns of one stream on `asr`; `stream`: the key its turns are given (none: main's behaviour). */
async function runStream(asr: PocketsphinxAsr, clips: readonly Clip[], stream: object | undefined): Promise<Turn[]> {
  const turns: Turn[] = [];
  for (const [k, c] of clips.entries()) {
    const from = process.cpuUsage();
    const turn = asr.startTurn(stream ? { stream } : {});
    for (let i = 0; i < c.samples.length; i += CHUNK) turn.accept(c.samples.subarray(i, i + CHUNK));
    const { text } = await turn.finish();
    const d = process.cpuUsage(from);
    turns.push({ ...wordErrors(c.text, text), first: k === 0, cpuMs: (d.user + d.system) / 1000, hyp: text });
  }
  return turns;
}

/** The streams one after another on one shared recogniser (`main`, `streams`) or each on its own (`fresh`). */
async function runOrder(order: readonly [string, Clip[]][], warmUp: readonly Clip[], mode: Mode, options: Record<string, string>): Promise<Turn[][]> {
  const shared = mode === 'fresh' ? undefined : load(options);
  try {
    if (shared) await runStream(shared, warmUp, mode === 'streams' ? {} : undefined);
    const out: Turn[][] = [];
    for (const [, clips] of order) {
      const asr = shared ?? load(options);
      try {
        out.push(await runStream(asr, shared ? clips : clips.slice(0, 1), mode === 'main' ? undefined : {}));
      } finally {
        if (!shared) await asr.close();
      }
    }
    return out;
  } finally {
    await shared?.close();
  }
}

function wer(t: readonly ClipErrors[]): string {
  const ci = werCi(t);
  return `${(100 * ci.mean).toFixed(1)} % [${(100 * ci.lo).toFixed(1)}, ${(100 * ci.hi).toFixed(1)}]`;
}

function points(a: readonly ClipErrors[], b: readonly ClipErrors[]): string {
  const d = werCi(a, b);
  return `${(100 * d.mean).toFixed(1)} [${(100 * d.lo).toFixed(1)}, ${(100 * d.hi).toFixed(1)}]`;
}

function cpu(t: readonly Turn[]): string {
  return `${(t.reduce((a, x) => a + x.cpuMs, 0) / Math.max(1, t.length)).toFixed(0)} ms`;
}

const gain = (x: Float32Array, g: number): Float32Array => (g === 1 ? x : x.map((v) => v * g));
const sets = firstTurnStreams(dev).map(([name, clips]) => [name, clips.slice(0, TURNS)] as [string, Clip[]]);
const bands = ([['16 kHz', {}], ['8 kHz μ-law', { ...NARROWBAND_OPTIONS }]] as const).filter(([b]) => !BAND || b.startsWith(BAND));
for (const [band, options] of bands) {
  const results: Record<Mode, Turn[]> = { main: [], streams: [], fresh: [] };
  for (const reversed of [false, true]) {
    const named = reversed ? [...sets].reverse() : sets;
    const order: [string, Clip[]][] = await Promise.all(named.map(async ([name, clips0], pos) => {
      const half = Math.ceil(clips0.length / 2);
      const rotated = reversed ? [...clips0.slice(half), ...clips0.slice(0, half)] : clips0;
      const g = GAINS[pos % GAINS.length]!;
      const clips = await Promise.all(rotated.map(async (c) => {
        const x = gain(c.samples, g);
        return { ...c, samples: band === '16 kHz' ? x : await phoneLine(x) };
      }));
      return [`${name}×${g}`, clips] as [string, Clip[]];
    }));
    // Warm-up: the last stream's first two turns (with an even number of streams, at the level the first lacks).
    const [lastName, lastClips] = order[order.length - 1]!;
    const warmUp = lastClips.slice(0, 2);
    for (const mode of ['main', 'streams', 'fresh'] as const) {
      const turns = await runOrder(order, warmUp, mode, options);
      turns.forEach((t, i) => {
        results[mode].push(...t);
        console.log(`  ${band} ${order[i]![0]} (after ${i === 0 ? lastName : order[i - 1]![0]}) ${mode}: first "${t[0]?.hyp}" (${t[0]?.errors}/${t[0]?.words})`);
      });
    }
  }
  const first = (m: Mode): Turn[] => results[m].filter((t) => t.first);
  const later = (m: Mode): Turn[] => results[m].filter((t) => !t.first);
  console.log(`\n${band}, ${dev ? 'development' : 'report'} set (${sets.map(([n]) => n).join(', ')})`);
  console.log(`  first turns (${first('main').length}): main ${wer(first('main'))}, streams ${wer(first('streams'))}, fresh ${wer(first('fresh'))}; `
    + `main − streams ${points(first('main'), first('streams'))} points, streams − fresh ${points(first('streams'), first('fresh'))}`);
  console.log(`  later turns (${later('main').length}): main ${wer(later('main'))}, streams ${wer(later('streams'))}; `
    + `main − streams ${points(later('main'), later('streams'))} points`);
  console.log(`  CPU per first turn: main ${cpu(first('main'))}, streams ${cpu(first('streams'))}, fresh ${cpu(first('fresh'))}; `
    + `per later turn: main ${cpu(later('main'))}, streams ${cpu(later('streams'))}\n`);
}
