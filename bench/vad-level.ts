/**
 * Level control (AGC) before Silero v5 on quieter and harder rooms (issue #17 item 1): the previous
 * conditions (clean, far-field at −20 dB, phone) and new ones nobody had looked at (bench/lib/room-conditions.ts).
 * The grid below and the selection rule were fixed before any run. `--dev` scores every grid point on the
 * first five speakers (sorted ids) and applies the rule; without it, only "no AGC" against the production
 * setting (`resolveLevelControlOptions()`'s defaults, set from the development run) on the last five.
 * VAD CPU time includes the level control, which runs window by window as in SpeechPipeline.
 * `--cpu`: only the level control's own CPU time per second of audio (7 passes over the last five speakers' clean audio).
 * Run: npm run bench:vad-level   (or node dist/bench/vad-level.js [--dev | --cpu])
 */
import path from 'node:path';
import { LevelControl, resolveLevelControlOptions, type LevelControlOptions } from '../pipelines/audio/level-control.js';
import { SILERO_WINDOW_SAMPLES, SileroVadModel } from '../pipelines/audio/silero-vad-model.js';
import { resolveVadOptions } from '../pipelines/audio/vad-options.js';
import { librispeechDirOrSkip, librispeechSpeakers, speakerMixture, type Mixture } from './lib/room-audio.js';
import { LEVEL_CONDITIONS, degradeLevel } from './lib/room-conditions.js';
import { frames, pct, sum, turns, vadRowCells, type Turns } from './lib/vad-scoring.js';

interface Variant { name: string; agc: LevelControlOptions | null }
const NONE: Variant = { name: 'no AGC (previous)', agc: null };
const label = (o: LevelControlOptions): string =>
  `AGC ${o.targetDbfs} dBFS, ≤ +${o.maxGainDb} dB, release ${o.releaseS} s, gate ${o.noiseCapDbfs === null ? 'none' : `${o.noiseCapDbfs} dBFS`}`;

/** The development grid: target × max gain × noise gate at 6 s release, and a 2 s release at −20 dBFS. */
export const AGC_GRID: LevelControlOptions[] = [
  ...[-20, -26].flatMap((targetDbfs) => [30, 40].flatMap((maxGainDb) => [null, -50].map((noiseCapDbfs) =>
    ({ targetDbfs, maxGainDb, releaseS: 6, noiseCapDbfs })))),
  ...[30, 40].flatMap((maxGainDb) => [null, -50].map((noiseCapDbfs) => ({ targetDbfs: -20, maxGainDb, releaseS: 2, noiseCapDbfs }))),
];

/**
 * Selection rule (fixed before the first run). Score = turn coverage − non-speech in turns, pooled over
 * every condition except clean. A variant is eligible when, on clean speech, its frame false alarms and its
 * non-speech in turns are each at most 1 point above no AGC. The best eligible variant is taken, or a gated
 * one within 0.005 of it (a gate bounds the gain on streams without speech, which no mixture here has). AGC
 * is adopted only if that variant's score is at least 0.01 above no AGC's.
 */
const GUARD_POINTS = 1;
const GATE_PREFERENCE = 0.005;
const MIN_GAIN = 0.01;

const cpuOf = new Map<string, { ms: number; s: number }>();

async function probabilities(model: SileroVadModel, x: Float32Array, v: Variant): Promise<number[]> {
  const st = model.createState();
  const agc = v.agc ? new LevelControl(v.agc) : null;
  const out: number[] = [];
  // CPU time of this process (user + system), not wall time: other work on a shared host does not inflate it.
  const t0 = process.cpuUsage();
  for (let i = 0; i + SILERO_WINDOW_SAMPLES <= x.length; i += SILERO_WINDOW_SAMPLES) {
    const win = x.subarray(i, i + SILERO_WINDOW_SAMPLES);
    if (agc) agc.process(win, st.window);
    else st.window.set(win);
    out.push(await model.predict(st));
  }
  const d = process.cpuUsage(t0);
  const c = cpuOf.get(v.name) ?? { ms: 0, s: 0 };
  cpuOf.set(v.name, { ms: c.ms + (d.user + d.system) / 1000, s: c.s + x.length / 16000 });
  return out;
}

type Data = { cond: string; spk: string; m: Mixture; probs: Map<string, number[]> }[];

function scoreOf(ts: Turns[]): number { return sum(ts, 'covered') / sum(ts, 'speech') - sum(ts, 'faIn') / sum(ts, 'nonSpeech'); }

function devReport(data: Data, variants: Variant[]): void {
  const opts = resolveVadOptions();
  const degraded = LEVEL_CONDITIONS.filter((c) => c.name !== 'clean');
  console.log('Development speakers: per condition turn coverage % / non-speech in turns %; score pooled over degraded conditions');
  console.log(`| variant | ${degraded.map((c) => c.name).join(' | ')} | clean frame FA % | clean non-speech in turns % | score | score min–max over speakers |`);
  console.log(`|---|${degraded.map(() => '---').join('|')}|---|---|---|---|`);
  const rows = variants.map((v) => {
    const probs = (d: Data[number]): number[] => d.probs.get(v.name) ?? [];
    const t = (d: Data[number]): Turns => turns(d.m, probs(d), opts);
    const deg = data.filter((d) => d.cond !== 'clean');
    const clean = data.filter((d) => d.cond === 'clean');
    const cf = clean.map((d) => frames(d.m, probs(d), 0.5));
    const ct = clean.map(t);
    const score = scoreOf(deg.map(t));
    const perSpk = [...new Set(data.map((d) => d.spk))].map((s) => 100 * scoreOf(deg.filter((d) => d.spk === s).map(t)));
    const cells = degraded.map((c) => { const ts = data.filter((d) => d.cond === c.name).map(t); return `${pct(sum(ts, 'covered'), sum(ts, 'speech'))} / ${pct(sum(ts, 'faIn'), sum(ts, 'nonSpeech'))}`; });
    const cleanFa = (100 * sum(cf, 'fa')) / sum(cf, 'nonSpeech');
    const cleanIn = (100 * sum(ct, 'faIn')) / sum(ct, 'nonSpeech');
    console.log(`| ${v.name} | ${cells.join(' | ')} | ${cleanFa.toFixed(1)} | ${cleanIn.toFixed(1)} | ${score.toFixed(3)} | ${(Math.min(...perSpk) / 100).toFixed(3)}–${(Math.max(...perSpk) / 100).toFixed(3)} |`);
    return { v, score, cleanFa, cleanIn };
  });
  const [base, ...agcs] = rows;
  if (!base) return;
  const eligible = agcs.filter((r) => r.cleanFa <= base.cleanFa + GUARD_POINTS && r.cleanIn <= base.cleanIn + GUARD_POINTS);
  const best = eligible.reduce<(typeof rows)[number] | undefined>((b, r) => (!b || r.score > b.score ? r : b), undefined);
  if (!best) { console.log('Selection: no AGC variant passes the clean-speech guard; AGC not adopted.'); return; }
  const gated = eligible.filter((r) => r.v.agc?.noiseCapDbfs !== null && r.score >= best.score - GATE_PREFERENCE)
    .reduce<(typeof rows)[number] | undefined>((b, r) => (!b || r.score > b.score ? r : b), undefined);
  const pick = gated ?? best;
  const adopt = pick.score >= base.score + MIN_GAIN;
  console.log(`Selection: ${pick.v.name} (score ${pick.score.toFixed(3)} vs no AGC ${base.score.toFixed(3)}): ${adopt ? 'ADOPT' : 'not adopted (gain below 0.01)'}`);
}

function testReport(data: Data, variants: Variant[]): void {
  const opts = resolveVadOptions();
  console.log('Held-out speakers: frame level at threshold 0.5 and turns (pooled; min–max over the five speakers)');
  console.log('| condition | variant | frame recall % (min–max) | frame false alarm % (min–max) | turn coverage % (min–max) | non-speech in turns % (min–max) | reference speech runs without a turn | turns | median turn s |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const c of LEVEL_CONDITIONS) {
    const rows = data.filter((d) => d.cond === c.name);
    for (const v of variants) {
      const cells = vadRowCells(rows.map((d) => ({ m: d.m, probs: d.probs.get(v.name) ?? [] })), opts, true);
      console.log(`| ${c.name} | ${v.name} ${cells}`);
    }
  }
}

async function main(): Promise<void> {
  const dir = librispeechDirOrSkip();
  if (!dir) return;
  if (process.argv.includes('--cpu')) return levelCpu(dir);
  const babbleDir = path.join(dir, '..', 'speechbrain');
  const dev = process.argv.includes('--dev');
  const all = librispeechSpeakers(dir);
  const speakers = dev ? all.slice(0, 5) : all.slice(5);
  const chosen = resolveLevelControlOptions();
  const variants = [NONE, ...(dev ? AGC_GRID : [chosen]).map((o) => ({ name: label(o), agc: o }))];
  const model = await SileroVadModel.load(undefined, 'context');
  const data: Data = [];
  for (const spk of speakers) {
    const m = speakerMixture(dir, spk, Number(spk));
    for (const c of LEVEL_CONDITIONS) {
      const x = await degradeLevel(m, c, Number(spk) + 7, babbleDir);
      const probs = new Map<string, number[]>();
      for (const v of variants) probs.set(v.name, await probabilities(model, x, v));
      data.push({ cond: c.name, spk, m, probs });
    }
    console.error(`speaker ${spk} done`);
  }
  await model.close();
  console.log(`speakers: ${speakers.join(', ')} (${dev ? 'development' : 'held out'}); audio per condition ${(data.filter((d) => d.cond === 'clean').reduce((a, d) => a + d.m.clean.length, 0) / 16000).toFixed(0)} s`);
  if (dev) devReport(data, variants);
  else testReport(data, variants);
  console.log('| variant | VAD CPU ms (user + system) per s of audio, level control included |');
  console.log('|---|---|');
  for (const [name, c] of cpuOf) console.log(`| ${name} | ${(c.ms / c.s).toFixed(2)} |`);
}

/** The level control alone, window by window as SpeechPipeline runs it: CPU ms per second of audio, per pass. */
function levelCpu(dir: string): void {
  const xs = librispeechSpeakers(dir).slice(5).map((s) => speakerMixture(dir, s, Number(s)).clean);
  const out = new Float32Array(SILERO_WINDOW_SAMPLES);
  const passes: string[] = [];
  for (let r = 0; r < 7; r++) {
    let ms = 0, s = 0;
    for (const x of xs) {
      const agc = new LevelControl();
      const t0 = process.cpuUsage();
      for (let i = 0; i + SILERO_WINDOW_SAMPLES <= x.length; i += SILERO_WINDOW_SAMPLES) agc.process(x.subarray(i, i + SILERO_WINDOW_SAMPLES), out);
      const d = process.cpuUsage(t0);
      ms += (d.user + d.system) / 1000;
      s += x.length / 16000;
    }
    passes.push((ms / s).toFixed(3));
  }
  console.log(`level control alone, CPU ms (user + system) per s of audio, 7 passes: ${passes.join(' ')}`);
}

await main();
