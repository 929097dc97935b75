/**
 * Silero VAD on real speech in rooms and on phone lines (bench/lib/room-audio.ts): frame-level recall and
 * false alarms, and turn-level coverage, for the previous behaviour (bare 512-sample windows, previous
 * end-of-turn settings) against the current one (64-sample context, settings below), in the same run.
 * Speakers are split by sorted id: segmenter settings were chosen on the first five (`--dev` prints the
 * grid used for that) and figures are reported on the last five only.
 * Run: npm run bench:vad   (or node dist/bench/vad-real.js [--dev]). Level control on harder rooms: bench/vad-level.ts.
 */
import { SILERO_WINDOW_SAMPLES, SileroVadModel, type SileroFeed } from '../pipelines/audio/silero-vad-model.js';
import { resolveVadOptions, type VadOptions } from '../pipelines/audio/vad-options.js';
import { CONDITIONS, degrade, librispeechDirOrSkip, librispeechSpeakers, speakerMixture, type Mixture } from './lib/room-audio.js';
import { pct, turns, vadRowCells } from './lib/vad-scoring.js';

/** The end-of-turn settings Parley used before issue #17. */
const PREVIOUS: VadOptions = { positiveThreshold: 0.5, negativeThreshold: 0.35, minSpeechMs: 200, prePaddingMs: 300, endSilenceMs: 500 };

/**
 * Causal level control before the VAD: a peak-following RMS envelope (6 s release) brought to -20 dBFS, at most +30 dB.
 * The version measured in the 2026-12-01 section of docs/BENCHMARKS.md; production runs pipelines/audio/level-control.ts.
 */
function agc(x: Float32Array): Float32Array {
  const y = new Float32Array(x.length);
  let env = 1e-3;
  for (let i = 0; i < x.length; i += SILERO_WINDOW_SAMPLES) {
    let s = 0;
    for (let j = i; j < i + SILERO_WINDOW_SAMPLES && j < x.length; j++) s += (x[j] ?? 0) ** 2;
    const rms = Math.sqrt(s / SILERO_WINDOW_SAMPLES);
    env = Math.max(rms, env * 0.9947);
    const g = Math.min(31.6, 0.1 / Math.max(env, 1e-6));
    for (let j = i; j < i + SILERO_WINDOW_SAMPLES && j < x.length; j++) y[j] = (x[j] ?? 0) * g;
  }
  return y;
}

interface Variant { name: string; feed: SileroFeed; agc: boolean }
const VARIANTS: Variant[] = [
  { name: 'previous: bare windows', feed: 'bare', agc: false },
  { name: 'context (64 samples)', feed: 'context', agc: false },
  { name: 'context + AGC', feed: 'context', agc: true },
];

async function probabilities(models: Record<SileroFeed, SileroVadModel>, x: Float32Array, v: Variant, cpu: { ms: number; s: number }): Promise<number[]> {
  const m = models[v.feed];
  const st = m.createState();
  const input = v.agc ? agc(x) : x;
  const out: number[] = [];
  // CPU time of this process (user + system), not wall time: other work on a shared host does not inflate it.
  const t0 = process.cpuUsage();
  for (let i = 0; i + SILERO_WINDOW_SAMPLES <= input.length; i += SILERO_WINDOW_SAMPLES) {
    st.window.set(input.subarray(i, i + SILERO_WINDOW_SAMPLES));
    out.push(await m.predict(st));
  }
  const d = process.cpuUsage(t0);
  cpu.ms += (d.user + d.system) / 1000;
  cpu.s += x.length / 16000;
  return out;
}

type Data = { cond: string; spk: string; m: Mixture; probs: Map<string, number[]> }[];

/** The grid searched on the development speakers (onset threshold, minimum speech), offset = onset − 0.15. */
export const GRID: VadOptions[] = [0.4, 0.5, 0.6, 0.7].flatMap((t) => [96, 250].map((ms) =>
  ({ positiveThreshold: t, negativeThreshold: Math.max(0, t - 0.15), minSpeechMs: ms, prePaddingMs: 300, endSilenceMs: 500 })));

function devReport(data: Data): void {
  console.log('Development speakers: turn coverage − non-speech in turns, pooled over degraded conditions (higher is better)');
  console.log('| variant | onset | offset | min speech ms | coverage % | non-speech in turns % | score |');
  console.log('|---|---|---|---|---|---|---|');
  for (const v of VARIANTS) {
    for (const g of v.feed === 'bare' ? [PREVIOUS] : GRID) {
      let cov = 0, sp = 0, fa = 0, ns = 0;
      for (const d of data) {
        if (d.cond === 'clean') continue;
        const t = turns(d.m, d.probs.get(v.name) ?? [], g);
        cov += t.covered; sp += t.speech; fa += t.faIn; ns += t.nonSpeech;
      }
      console.log(`| ${v.name} | ${g.positiveThreshold} | ${g.negativeThreshold?.toFixed(2)} | ${g.minSpeechMs} | ${pct(cov, sp)} | ${pct(fa, ns)} | ${(cov / sp - fa / ns).toFixed(3)} |`);
    }
  }
}

function testReport(data: Data, current: VadOptions): void {
  console.log('Held-out speakers: frame level at threshold 0.5 (pooled; min–max over speakers), and turns');
  console.log('| condition | variant | settings | frame recall % | frame false alarm % | turn coverage % (min–max) | non-speech in turns % (min–max) | reference speech runs without a turn | turns | median turn s |');
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  for (const c of CONDITIONS) {
    const rows = data.filter((d) => d.cond === c.name);
    for (const v of VARIANTS) {
      const same = JSON.stringify(resolveVadOptions(PREVIOUS)) === JSON.stringify(resolveVadOptions(current));
      const settings: [string, VadOptions][] = v.feed === 'bare' ? [['previous', PREVIOUS]]
        : same ? [['previous = current', current]] : [['previous', PREVIOUS], ['current', current]];
      for (const [label, opts] of settings) {
        const cells = vadRowCells(rows.map((d) => ({ m: d.m, probs: d.probs.get(v.name) ?? [] })), opts, false);
        console.log(`| ${c.name} | ${v.name} | ${label} ${cells}`);
      }
    }
  }
}

async function main(): Promise<void> {
  const dir = librispeechDirOrSkip();
  if (!dir) return;
  const dev = process.argv.includes('--dev');
  const all = librispeechSpeakers(dir);
  const speakers = dev ? all.slice(0, 5) : all.slice(5);
  const models = { bare: await SileroVadModel.load(undefined, 'bare'), context: await SileroVadModel.load(undefined, 'context') };
  const cpu = new Map(VARIANTS.map((v) => [v.name, { ms: 0, s: 0 }]));
  const data: Data = [];
  for (const spk of speakers) {
    const m = speakerMixture(dir, spk, Number(spk));
    for (const c of CONDITIONS) {
      const x = await degrade(m, c, Number(spk) + 7);
      const probs = new Map<string, number[]>();
      for (const v of VARIANTS) probs.set(v.name, await probabilities(models, x, v, cpu.get(v.name) ?? { ms: 0, s: 0 }));
      data.push({ cond: c.name, spk, m, probs });
    }
  }
  await models.bare.close();
  await models.context.close();
  console.log(`speakers: ${speakers.join(', ')} (${dev ? 'development' : 'held out'}); audio per condition ${(data.filter((d) => d.cond === 'clean').reduce((a, d) => a + d.m.clean.length, 0) / 16000).toFixed(0)} s`);
  if (dev) devReport(data);
  else testReport(data, resolveVadOptions());
  console.log('| variant | VAD CPU ms (user + system) per s of audio |');
  console.log('|---|---|');
  for (const [name, c] of cpu) console.log(`| ${name} | ${(c.ms / c.s).toFixed(2)} |`);
}

await main();
