/**
 * Recognition on real speech at 16 kHz and on 8 kHz G.711 μ-law phone lines: word error rate and CPU per
 * stream for Parley's pocketsphinx settings against pocketsphinx's own defaults (in process) and the
 * pocketsphinx_continuous command line, all in the same run.
 * Real speech with transcripts here is only ../shared/data/speech/speechbrain (2 clips, 15 words): its
 * WER moves by 6.7 points per word, so it can show a gross failure, not choose between close settings.
 * The flite fixtures (test/fixtures/audio, synthetic) are reported beside it for a larger count.
 * Phone version: band-limited 300–3400 Hz, 8 kHz, μ-law, decoded and resampled to 16 kHz by Parley's
 * stream decoder (the en-us model's feature settings need 16 kHz input: `-samprate 8000` is refused).
 * `--gain`: only Parley's settings, with the VAD's gain control off, on the VAD's input only, and on the
 * recogniser's input too (`VadOptions.gainControl`), on these sets and on far-field versions of them
 * (sox `reverb 60 50 100 100 20 lowpass 4000 gain -30`, pink noise at 20 dB SNR).
 * `--heldout`: the 16 kHz server path with today's defaults beside pocketsphinx's own defaults, on the first-turn
 * benches' report set (held-out TTS voices and flite kal × sentences 7–12, the SpeechBrain clips), with 95 % bootstrap
 * intervals over clips and the paired difference (see `heldoutRows`).
 * Run: npm run bench:asr-real   (or node dist/bench/asr-real.js [--gain | --heldout])
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { POCKETSPHINX_LIBRARY_OPTIONS, PocketsphinxAsr } from '../pipelines/asr/pocketsphinx-asr.js';
import type { StreamingAsr } from '../pipelines/asr/streaming-asr.js';
import { wordErrors } from '../pipelines/asr/wer.js';
import { fixtureSamples, loadAudioFixtures } from '../pipelines/audio/fixtures.js';
import { SileroVadModel, type SileroFeed } from '../pipelines/audio/silero-vad-model.js';
import { SpeechPipeline } from '../pipelines/audio/speech-pipeline.js';
import { encodeWav, readWav } from '../pipelines/audio/wav.js';
import { repoRoot } from '../pipelines/models/repo-root.js';
import { hasTts } from '../pipelines/speaker/eval-corpus.js';
import type { GainControlMode } from '../pipelines/audio/vad-options.js';
import { phoneLine, pinkNoise, sox } from './lib/room-audio.js';
import { requireDataOrSkip } from './lib/cli.js';
import { firstTurnStreams } from './lib/first-turn-clips.js';
import { werCi, type ClipErrors } from './lib/wer-bootstrap.js';

interface Clip { name: string; samples: Float32Array; text: string }
interface Result { errors: number; words: number; cpuMs: number; audioS: number; perClip: string[]; clips: ClipErrors[]; cpuPerClip: number[] }

const CHUNK = 1600; // 100 ms, as a client streams

function speechbrain(): Clip[] {
  const dir = path.resolve(process.env['PARLEY_SHARED_DATA'] ?? path.join(repoRoot(), '../shared/data'), 'speech/speechbrain');
  if (!existsSync(path.join(dir, 'transcripts.jsonl'))) {
    requireDataOrSkip(`${dir}/transcripts.jsonl`);
    process.stderr.write(`skipping the real-speech set: ${dir}/transcripts.jsonl not found (set PARLEY_SHARED_DATA)\n`);
    return [];
  }
  return readFileSync(path.join(dir, 'transcripts.jsonl'), 'utf8').split('\n').filter(Boolean).map((line) => {
    const row = JSON.parse(line) as { file: string; text: string };
    return { name: row.file, samples: readWav(path.join(dir, row.file)).samples, text: row.text };
  });
}

function fixtures(): Clip[] {
  return loadAudioFixtures().map((f) => ({ name: f.file, samples: fixtureSamples(f), text: f.utterances.map((u) => u.text).join(' ') }));
}

async function phone(set: Clip[]): Promise<Clip[]> {
  return Promise.all(set.map(async (c) => ({ ...c, samples: await phoneLine(sox(c.samples, ['highpass', '300', 'lowpass', '3400'])) })));
}

/** A room 30 dB down with pink noise at 20 dB SNR over the whole clip (the far-field sets of `--gain`). */
function farField(set: Clip[]): Clip[] {
  return set.map((c, n) => {
    const y = Float32Array.from(sox(c.samples, ['reverb', '60', '50', '100', '100', '20', 'lowpass', '4000', 'gain', '-30']));
    const noise = pinkNoise(y.length, 100 + n);
    const ratio = y.reduce((a, v) => a + v * v, 0) / noise.reduce((a, v) => a + v * v, 0);
    const g = Math.sqrt(ratio / 100);
    return { ...c, samples: y.map((v, i) => v + g * (noise[i] ?? 0)) };
  });
}

/** CPU time (user + system) of this process since `from`, in ms: unlike wall time, not inflated by other work on the host. */
function cpuMs(from: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(from);
  return (d.user + d.system) / 1000;
}

function add(r: Result, c: Clip, hyp: string, ms: number): void {
  const e = wordErrors(c.text, hyp);
  r.clips.push(e);
  r.cpuPerClip.push(ms);
  r.errors += e.errors;
  r.words += e.words;
  r.cpuMs += ms;
  r.audioS += c.samples.length / 16000;
  r.perClip.push(`${e.errors}/${e.words}`);
}
const empty = (): Result => ({ errors: 0, words: 0, cpuMs: 0, audioS: 0, perClip: [], clips: [], cpuPerClip: [] });

/** Whole clip straight into one recogniser turn, in 100 ms chunks. */
async function asrOnly(asr: StreamingAsr, set: Clip[]): Promise<Result> {
  const r = empty();
  for (const c of set) {
    const t0 = process.cpuUsage();
    const turn = asr.startTurn();
    for (let i = 0; i < c.samples.length; i += CHUNK) turn.accept(c.samples.subarray(i, i + CHUNK));
    const f = await turn.finish();
    add(r, c, f.text, cpuMs(t0));
  }
  return r;
}

/** Parley's path: Silero end of turn, then the recogniser per turn. */
async function pipeline(vad: SileroVadModel, asr: StreamingAsr, set: Clip[], gainControl: GainControlMode = 'off'): Promise<Result> {
  const r = empty();
  for (const c of set) {
    const finals: string[] = [];
    const t0 = process.cpuUsage();
    const p = new SpeechPipeline(vad, asr, (e) => { if (e.type === 'final') finals.push(e.text); }, { vad: { gainControl } });
    for (let i = 0; i < c.samples.length; i += CHUNK) await p.process(c.samples.subarray(i, i + CHUNK), i);
    p.commit();
    await new Promise((res) => setImmediate(res));
    add(r, c, finals.join(' '), cpuMs(t0));
  }
  return r;
}

/** pocketsphinx_continuous with its own defaults and segmentation, on a 16 kHz WAV of the same samples. */
function cli(set: Clip[]): Result {
  const r = empty();
  const dir = mkdtempSync(path.join(tmpdir(), 'parley-asr-'));
  try {
    for (const c of set) {
      const f = path.join(dir, 'clip.wav');
      writeFileSync(f, encodeWav(c.samples, 16000));
      // bash's `times` prints the CPU time of its finished children (user then system) on its last line.
      const out = execFileSync('bash', ['-c', 'pocketsphinx_continuous -infile "$1" -logfn /dev/null; times', '-', f], { encoding: 'utf8' });
      const lines = out.trim().split('\n');
      const t = (lines.pop() ?? '').match(/(\d+)m([\d.]+)s\s+(\d+)m([\d.]+)s/);
      const ms = t ? (Number(t[1]) * 60 + Number(t[2]) + Number(t[3]) * 60 + Number(t[4])) * 1000 : NaN;
      add(r, c, lines.slice(0, -1).join(' ').replace(/\s+/g, ' '), ms);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return r;
}

async function main(): Promise<void> {
  const sb = speechbrain();
  const fx = fixtures();
  if (process.argv.includes('--gain')) return gainRows(sb, fx);
  if (process.argv.includes('--heldout')) return heldoutRows(fx);
  const sets: [string, Clip[]][] = [
    ['real (speechbrain), 16 kHz', sb], ['real (speechbrain), 8 kHz μ-law', await phone(sb)],
    ['synthetic (flite fixtures), 16 kHz', fx], ['synthetic (flite fixtures), 8 kHz μ-law', await phone(fx)],
  ];
  const vads: Record<SileroFeed, SileroVadModel> = { context: await SileroVadModel.load(), bare: await SileroVadModel.load(undefined, 'bare') };
  const settings: [string, Record<string, string> | undefined][] = [
    ['Parley (-ds 2 -maxhmmpf 3000)', undefined],
    ['baseline: pocketsphinx defaults (-ds 1 -maxhmmpf 30000)', POCKETSPHINX_LIBRARY_OPTIONS],
  ];
  console.log('| set | recogniser | path | word errors / words | WER % | per clip | CPU ms per s of audio (user + system) |');
  console.log('|---|---|---|---|---|---|---|');
  const row = (set: string, who: string, how: string, r: Result): void => console.log(
    `| ${set} | ${who} | ${how} | ${r.errors}/${r.words} | ${((100 * r.errors) / Math.max(1, r.words)).toFixed(1)} | ${r.perClip.join(' ')} | ${(r.cpuMs / r.audioS).toFixed(0)} |`);
  for (const [setName, clips] of sets) {
    if (clips.length === 0) continue;
    for (const [name, options] of settings) {
      // A fresh recogniser per row, warmed on one fixture: pocketsphinx's cepstral mean adapts across turns.
      const asr = PocketsphinxAsr.load({ kind: 'pocketsphinx', ...(options ? { options } : {}) });
      await asrOnly(asr, fx.slice(0, 1));
      row(setName, name, 'whole clip, no VAD', await asrOnly(asr, clips));
      row(setName, name, 'VAD (context, no gain control) + ASR', await pipeline(vads.context, asr, clips));
      if (!options) row(setName, name, 'VAD (previous: bare windows) + ASR', await pipeline(vads.bare, asr, clips));
      await asr.close();
    }
    row(setName, 'baseline: pocketsphinx_continuous CLI, its defaults', 'its own segmentation', cli(clips));
  }
  await vads.context.close();
  await vads.bare.close();
}

await main();

/** `--gain`: the recogniser with and without the VAD's gained audio, same run. */
async function gainRows(sb: Clip[], fx: Clip[]): Promise<void> {
  const sets: [string, Clip[]][] = [
    ['real (speechbrain), 16 kHz', sb], ['real (speechbrain), far-field −30 dB', farField(sb)], ['real (speechbrain), 8 kHz μ-law', await phone(sb)],
    ['synthetic (flite fixtures), 16 kHz', fx], ['synthetic (flite fixtures), far-field −30 dB', farField(fx)], ['synthetic (flite fixtures), 8 kHz μ-law', await phone(fx)],
  ];
  const vad = await SileroVadModel.load();
  console.log('| set | path | word errors / words | WER % | per clip | CPU ms per s of audio (user + system) |');
  console.log('|---|---|---|---|---|---|');
  for (const [setName, clips] of sets) {
    if (clips.length === 0) continue;
    for (const mode of ['off', 'vad', 'vad+asr'] as const) {
      const asr = PocketsphinxAsr.load({ kind: 'pocketsphinx' });
      await asrOnly(asr, fx.slice(0, 1));
      const r = await pipeline(vad, asr, clips, mode);
      console.log(`| ${setName} | VAD + ASR, gain control ${mode} | ${r.errors}/${r.words} | ${((100 * r.errors) / Math.max(1, r.words)).toFixed(1)} | ${r.perClip.join(' ')} | ${(r.cpuMs / r.audioS).toFixed(0)} |`);
      await asr.close();
    }
  }
  await vad.close();
}

/**
 * `--heldout`: each report stream (a voice reading its sentences; the SpeechBrain clips as one stream) through the
 * server's 16 kHz path as it ships: one recogniser loaded as `asrBackend` loads it (Parley's decoder options, 4
 * decoders, name spotting on, first-turn priming), a `SpeechPipeline` per stream with the default VAD options
 * (context, gain control `vad`) and its own recogniser state, each sentence followed by a commit so its finals are
 * scored against it. No names are given (these sentences name nobody), so the spotting pass never runs. Baselines,
 * same run and clips: pocketsphinx's library defaults (whole clip, no VAD, no priming, spotting or stream state), on a
 * fresh decoder per stream (the library's own behaviour for one stream: its cepstral mean carries from turn to turn) and
 * on one decoder for all streams warmed on a fixture (as the 2026-12-02 rows), and pocketsphinx_continuous with its own
 * defaults, one process per clip.
 */
async function heldoutRows(fx: Clip[]): Promise<void> {
  if (!hasTts()) {
    console.log('asr-real --heldout: skipped, flite / festival / sox are not installed');
    return;
  }
  const streams = firstTurnStreams(false).map(([id, cs]) => [id, cs.map((c, i) => ({ ...c, name: `${id}#${i}` }))] as const);
  const all = streams.flatMap(([, cs]) => cs);
  const vad = await SileroVadModel.load();
  const server = PocketsphinxAsr.load({ kind: 'pocketsphinx', maxDecoders: 4, nameSpotting: { maxNames: 100 } });
  const today = empty();
  for (const [, clips] of streams) {
    const finals: string[] = [];
    let stopped = 0;
    const p = new SpeechPipeline(vad, server, (e) => {
      if (e.type === 'speech_stopped') stopped++;
      if (e.type === 'final') finals.push(e.text);
    });
    let at = 0;
    for (const c of clips) {
      const t0 = process.cpuUsage();
      const before = finals.length;
      for (let i = 0; i < c.samples.length; i += CHUNK) await p.process(c.samples.subarray(i, i + CHUNK), at + i);
      at += c.samples.length;
      p.commit();
      for (let n = 0; finals.length < stopped && n < 1000; n++) await new Promise((res) => setImmediate(res));
      add(today, c, finals.slice(before).join(' '), cpuMs(t0));
    }
    p.close();
  }
  await server.close();
  await vad.close();
  const loadLibrary = (): PocketsphinxAsr =>
    PocketsphinxAsr.load({ kind: 'pocketsphinx', options: POCKETSPHINX_LIBRARY_OPTIONS, maxDecoders: 1, nameSpotting: false, primeFirstTurn: false });
  const perStream = empty();
  for (const [, clips] of streams) {
    const asr = loadLibrary();
    const r = await asrOnly(asr, clips);
    for (const k of ['clips', 'cpuPerClip', 'perClip'] as const) (perStream[k] as unknown[]).push(...r[k]);
    await asr.close();
  }
  const library = loadLibrary();
  await asrOnly(library, fx.slice(0, 1));
  const lib = await asrOnly(library, all);
  await library.close();
  const rows: [string, Result][] = [
    ['Parley today: VAD (context, AGC `vad`) + pocketsphinx -ds 2 -maxhmmpf 3000, spotting, priming, per-stream state', today],
    ['baseline: pocketsphinx library defaults (-ds 1 -maxhmmpf 30000), whole clip, no VAD, fresh decoder per stream', perStream],
    ['baseline: the same, one decoder for all streams warmed on a fixture (as 2026-12-02)', lib],
    ['baseline: pocketsphinx_continuous CLI, its defaults and segmentation', cli(all)],
  ];
  const pct = (ci: { mean: number; lo: number; hi: number }): string =>
    `${(100 * ci.mean).toFixed(1)} [${(100 * ci.lo).toFixed(1)}, ${(100 * ci.hi).toFixed(1)}]`;
  const subsets: [string, (name: string) => boolean][] = [
    ['TTS held-out (slt, ked, flite kal × 7–12)', (n) => !n.startsWith('speechbrain')],
    ['TTS slt, ked × 7–12 (the 2026-12-02 set)', (n) => !n.startsWith('speechbrain') && !n.startsWith('flite-kal')], ['SpeechBrain real', (n) => n.startsWith('speechbrain')],
    ['all', () => true],
  ];
  console.log('| set | recogniser | word errors / words | WER % [95 % CI over clips] | today − this, points [95 % CI] | CPU ms per s of audio |');
  console.log('|---|---|---|---|---|---|');
  for (const [setName, keep] of subsets) {
    const idx = all.map((c, i) => (keep(c.name) ? i : -1)).filter((i) => i >= 0);
    if (idx.length === 0) continue; // the SpeechBrain clips are absent without the shared data
    const pick = (r: Result): ClipErrors[] => idx.map((i) => r.clips[i]!);
    for (const [who, r] of rows) {
      const e = pick(r);
      const cpu = idx.reduce((a, i) => a + (r.cpuPerClip[i] ?? 0), 0) / idx.reduce((a, i) => a + all[i]!.samples.length / 16000, 0);
      console.log(`| ${setName} | ${who} | ${e.reduce((a, x) => a + x.errors, 0)}/${e.reduce((a, x) => a + x.words, 0)} | ${pct(werCi(e))} | ${r === today ? '–' : pct(werCi(pick(today), e))} | ${cpu.toFixed(0)} |`);
    }
  }
  for (const [who, r] of rows) console.log(`per clip, ${who}: ${all.map((c, i) => `${c.name} ${r.perClip[i]}`).join(', ')}`);
}
