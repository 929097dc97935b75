/**
 * A stream's turns beside another stream on shared pooled decoders, against the same stream alone (issue #17
 * item 5). Two streams (two speakers, levels 20 dB apart) speak at once on one recogniser of two decoders and
 * finish in alternating order, so each stream's later turns land on the decoder the other stream used last.
 * Each stream is also decoded alone on a recogniser of its own. Per turn: whether the words beside the other
 * stream are exactly those alone, whether the stream state it leaves (cepstral-mean sums, frame count, mean,
 * noise statistics) is bit-identical to alone, and the words that differ (edit distance of the two
 * hypotheses); with reference transcripts, the WER beside and alone. CPU per turn of the shared run.
 * With `--baseline DIR` (another build's `dist/`) the same for that build in the same process, paired per turn.
 *
 * Sets (speakers in pairs; no parameter is chosen on either):
 *   --dev        LibriSpeech test-other speakers 1688, 1998, 2033, 2414 (from `PARLEY_SHARED_DATA`)
 *   default      held out: LibriSpeech test-other speakers 2609, 3005, 3080, 3331, 367, 533
 *   --tts        with references: eval-corpus held-out voices and flite kal × sentences 7–12, SpeechBrain
 *                (with --dev: the training voices × sentences 1–6); pairs in turn
 *   options: --turns N (each stream's first N utterances, default 6), --band 16 | 8 (8: an 8 kHz μ-law line
 *   with Parley's narrowband options; default 16), --baseline DIR
 *
 *   npm run build && node dist/bench/asr-stream-beside.js [--dev] [--tts] [--baseline /tmp/base/dist]
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { readWav } from '../pipelines/audio/wav.js';
import { NARROWBAND_OPTIONS } from '../pipelines/asr/narrowband.js';
import { PocketsphinxAsr } from '../pipelines/asr/pocketsphinx-asr.js';
import type { StreamState } from '../pipelines/asr/pocketsphinx-stream-state.js';
import type { AsrTurnStream } from '../pipelines/asr/streaming-asr.js';
import { wordErrors } from '../pipelines/asr/wer.js';
import { repoRoot } from '../pipelines/models/repo-root.js';
import { hasTts } from '../pipelines/speaker/eval-corpus.js';
import { bootstrapDelta, bootstrapMean, pct } from './lib/bootstrap.js';
import { firstTurnStreams, type Clip } from './lib/first-turn-clips.js';
import { phoneLine } from './lib/room-audio.js';
import { werCi, type ClipErrors } from './lib/wer-bootstrap.js';

type Asr = Pick<PocketsphinxAsr, 'startTurn' | 'close' | 'streamState'>;
type Load = (options: Record<string, string>, maxDecoders: number) => Asr;
/** One scored turn: beside the other stream against alone. */
interface Scored { sameWords: number; sameState: number; diffWords: number; later: boolean; beside?: ClipErrors; alone?: ClipErrors }

const CHUNK = 1600;
const arg = (name: string): string | undefined => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);
const dev = process.argv.includes('--dev');
const tts = process.argv.includes('--tts');
const TURNS = Number(arg('--turns') ?? 6);
const BAND = arg('--band') ?? '16';
const baselineDir = arg('--baseline');
const LIBRI_DEV = ['1688', '1998', '2033', '2414'];
const LIBRI_HELDOUT = ['2609', '3005', '3080', '3331', '367', '533'];

function libriStreams(speakers: readonly string[]): [string, Clip[]][] {
  const dir = path.resolve(process.env['PARLEY_SHARED_DATA'] ?? path.join(repoRoot(), '../shared/data'), 'speech/librispeech-test-other-10');
  if (!existsSync(dir)) {
    console.log(`asr-stream-beside: skipped, ${dir} is absent (set PARLEY_SHARED_DATA)`);
    process.exit(0);
  }
  return speakers.map((s) => [s, readdirSync(path.join(dir, s)).filter((f) => f.endsWith('.wav')).sort()
    .map((f) => ({ text: '', samples: readWav(path.join(dir, s, f)).samples }))]);
}

function loader(mod: { PocketsphinxAsr: typeof PocketsphinxAsr }): Load {
  return (options, maxDecoders) => mod.PocketsphinxAsr.load({ kind: 'pocketsphinx', maxDecoders, nameSpotting: false, options });
}

function feed(turn: AsrTurnStream, x: Float32Array, from: number): void {
  turn.accept(x.subarray(from, from + CHUNK));
}

function sameState(a: StreamState | undefined, b: StreamState | undefined): boolean {
  if (!a || !b) return a === b;
  const eq = (x: ArrayLike<number>, y: ArrayLike<number>): boolean => x.length === y.length && Array.from(x).every((v, i) => Object.is(v, y[i]));
  return a.frames === b.frames && a.noiseUnset === b.noiseUnset && eq(a.mean, b.mean) && eq(a.sum, b.sum) && eq(a.noise, b.noise);
}

/** A stream's turns alone on its own recogniser: hypotheses and states. */
async function alone(load: Load, options: Record<string, string>, clips: readonly Clip[]): Promise<{ hyp: string; state?: StreamState }[]> {
  const asr = load(options, 1);
  const s = {};
  const out: { hyp: string; state?: StreamState }[] = [];
  try {
    for (const c of clips) {
      const t = asr.startTurn({ stream: s });
      for (let i = 0; i < c.samples.length; i += CHUNK) feed(t, c.samples, i);
      const hyp = (await t.finish()).text;
      const state = asr.streamState(s);
      out.push({ hyp, ...(state ? { state } : {}) });
    }
  } finally {
    await asr.close();
  }
  return out;
}

/** Two streams speaking at once on one recogniser of two decoders, finishing in alternating order. */
async function beside(load: Load, options: Record<string, string>, a: readonly Clip[], b: readonly Clip[]):
  Promise<{ out: [{ hyp: string; state?: StreamState }[], { hyp: string; state?: StreamState }[]]; cpuMs: number }> {
  const asr = load(options, 2);
  const sa = {};
  const sb = {};
  const out: [{ hyp: string; state?: StreamState }[], { hyp: string; state?: StreamState }[]] = [[], []];
  const from = process.cpuUsage();
  try {
    for (let k = 0; k < Math.min(a.length, b.length); k++) {
      const ta = asr.startTurn({ stream: sa });
      const tb = asr.startTurn({ stream: sb });
      const xa = a[k]!.samples;
      const xb = b[k]!.samples;
      for (let i = 0; i < Math.max(xa.length, xb.length); i += CHUNK) {
        if (i < xa.length) feed(ta, xa, i);
        if (i < xb.length) feed(tb, xb, i);
      }
      const order: [AsrTurnStream, object, 0 | 1][] = k % 2 === 0 ? [[ta, sa, 0], [tb, sb, 1]] : [[tb, sb, 1], [ta, sa, 0]];
      for (const [t, s, j] of order) {
        const hyp = (await t.finish()).text;
        const state = asr.streamState(s);
        out[j].push({ hyp, ...(state ? { state } : {}) });
      }
    }
  } finally {
    await asr.close();
  }
  const d = process.cpuUsage(from);
  return { out, cpuMs: (d.user + d.system) / 1000 };
}

async function run(load: Load, options: Record<string, string>, pairs: readonly [Clip[], Clip[]][]): Promise<{ turns: Scored[]; cpuPerTurn: number }> {
  const turns: Scored[] = [];
  let cpu = 0;
  let n = 0;
  for (const [a, b] of pairs) {
    const solo = [await alone(load, options, a), await alone(load, options, b)];
    const both = await beside(load, options, a, b);
    cpu += both.cpuMs;
    [a, b].forEach((clips, j) => clips.forEach((c, k) => {
      const x = both.out[j]![k]!;
      const y = solo[j]![k]!;
      n++;
      turns.push({
        sameWords: x.hyp === y.hyp ? 1 : 0, sameState: sameState(x.state, y.state) ? 1 : 0,
        diffWords: wordErrors(y.hyp, x.hyp).errors, later: k > 0,
        ...(c.text ? { beside: wordErrors(c.text, x.hyp), alone: wordErrors(c.text, y.hyp) } : {}),
      });
    }));
  }
  return { turns, cpuPerTurn: cpu / Math.max(1, n) };
}

if (tts && !hasTts()) {
  console.log('asr-stream-beside: skipped, flite / festival / sox are not installed');
  process.exit(0);
}
const streams = (tts ? firstTurnStreams(dev) : libriStreams(dev ? LIBRI_DEV : LIBRI_HELDOUT)).map(([name, clips]) => [name, clips.slice(0, TURNS)] as [string, Clip[]]);
const options = BAND === '8' ? { ...NARROWBAND_OPTIONS } : {};
const level = async (x: Float32Array, g: number): Promise<Float32Array> => {
  const y = g === 1 ? x : x.map((v) => v * g);
  return BAND === '8' ? phoneLine(y) : y;
};
// Pairs of consecutive streams (with an odd count, the last is paired with the first); the second of each 20 dB down.
const pairs: [Clip[], Clip[]][] = [];
for (let i = 0; i < streams.length; i += 2) {
  const a = streams[i]!;
  const b = streams[i + 1] ?? streams[0]!;
  const scale = (clips: Clip[], g: number): Promise<Clip[]> => Promise.all(clips.map(async (c) => ({ ...c, samples: await level(c.samples, g) })));
  const n = Math.min(a[1].length, b[1].length);
  pairs.push([await scale(a[1].slice(0, n), 1), await scale(b[1].slice(0, n), 0.1)]);
  console.log(`pair: ${a[0]} ×1 beside ${b[0]} ×0.1, ${n} turns each`);
}

const builds: [string, Load][] = [['this build', loader({ PocketsphinxAsr })]];
if (baselineDir) {
  const mod = (await import(pathToFileURL(path.resolve(baselineDir, 'pipelines/asr/pocketsphinx-asr.js')).href)) as { PocketsphinxAsr: typeof PocketsphinxAsr };
  builds.push([`baseline (${baselineDir})`, loader(mod)]);
}
const results: { name: string; turns: Scored[]; cpuPerTurn: number }[] = [];
for (const [name, load] of builds) results.push({ name, ...(await run(load, options, pairs)) });

const share = (t: readonly Scored[], k: 'sameWords' | 'sameState'): string => pct(bootstrapMean(t.map((x) => x[k])));
const words = (t: readonly Scored[]): string => {
  const ci = bootstrapMean(t.map((x) => x.diffWords));
  return `${ci.mean.toFixed(2)} [${ci.lo.toFixed(2)}, ${ci.hi.toFixed(2)}]`;
};
const wer = (c: readonly ClipErrors[]): string => {
  const ci = werCi(c);
  return `${(100 * ci.mean).toFixed(1)} % [${(100 * ci.lo).toFixed(1)}, ${(100 * ci.hi).toFixed(1)}]`;
};
console.log(`\n${tts ? 'TTS / SpeechBrain' : 'LibriSpeech test-other'}, ${dev ? 'development' : 'held-out'} set, ${BAND} kHz, ${pairs.length} pairs`);
for (const r of results) {
  const later = r.turns.filter((t) => t.later);
  console.log(`${r.name}: later turns (${later.length}) same words as alone ${share(later, 'sameWords')}, same state ${share(later, 'sameState')}, `
    + `words differing per turn ${words(later)}; all turns (${r.turns.length}) same words ${share(r.turns, 'sameWords')}, same state ${share(r.turns, 'sameState')}; `
    + `CPU per turn beside ${r.cpuPerTurn.toFixed(0)} ms`);
  const scored = r.turns.filter((t) => t.beside && t.alone);
  if (scored.length > 0) {
    console.log(`  WER beside ${wer(scored.map((t) => t.beside!))}, alone ${wer(scored.map((t) => t.alone!))}, beside − alone `
      + `${(100 * werCi(scored.map((t) => t.beside!), scored.map((t) => t.alone!)).mean).toFixed(1)} points`);
  }
}
if (results.length === 2) {
  const [mine, base] = results as [typeof results[0], typeof results[0]];
  const later = (t: readonly Scored[]): Scored[] => t.filter((x) => x.later);
  const pairedPct = (k: 'sameWords' | 'sameState'): string => pct(bootstrapDelta(later(mine.turns).map((x) => x[k]), later(base.turns).map((x) => x[k])), true);
  const dw = bootstrapDelta(later(mine.turns).map((x) => x.diffWords), later(base.turns).map((x) => x.diffWords));
  console.log(`this build − baseline, later turns: same words ${pairedPct('sameWords')}, same state ${pairedPct('sameState')}, `
    + `words differing per turn ${dw.mean.toFixed(2)} [${dw.lo.toFixed(2)}, ${dw.hi.toFixed(2)}]`);
  const scored = mine.turns.map((t, i) => [t, base.turns[i]!] as const).filter(([m, b]) => m.beside && b.beside);
  if (scored.length > 0) {
    const d = werCi(scored.map(([m]) => m.beside!), scored.map(([, b]) => b.beside!));
    console.log(`  WER beside, this build − baseline ${(100 * d.mean).toFixed(1)} [${(100 * d.lo).toFixed(1)}, ${(100 * d.hi).toFixed(1)}] points`);
  }
}
