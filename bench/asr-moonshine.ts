/**
 * Moonshine (tiny, and base when fetched) against pocketsphinx, in the same run: word error rate with a
 * 95 % bootstrap interval over clips, the paired WER difference against Parley's pocketsphinx, and CPU
 * per second of audio, at 16 kHz and through an 8 kHz G.711 μ-law line (band-limited 300–3400 Hz,
 * decoded and resampled to 16 kHz by Parley's stream decoder, bench/lib/room-audio.ts).
 * Whole clip per turn in 100 ms chunks (the recogniser alone, no VAD); process CPU (user + system,
 * onnxruntime's threads included); `finish()` wall time: how long the final takes after the turn ends
 * (Moonshine decodes the whole turn then; pocketsphinx has decoded as the audio came).
 *
 *   node dist/bench/asr-moonshine.js          report: SpeechBrain clips with transcripts (real), the flite
 *                                             fixtures, TTS held-out voices × sentences 7–12
 *   node dist/bench/asr-moonshine.js --dev    development: TTS training voices × sentences 1–6, the CPU
 *                                             of Moonshine partials and the final's latency behind VAD
 *                                             (both streamed at real time; `--latency-only`: just that,
 *                                             without --dev on the TTS held-out voices)
 *
 * Greedy decoding has no knob; nothing here was tuned on the report sets.
 * Run: npm run bench:asr-moonshine   (needs `npm run models -- fetch moonshine-tiny`; moonshine-base optional)
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { MoonshineAsr } from '../pipelines/asr/moonshine-asr.js';
import { NARROWBAND_OPTIONS } from '../pipelines/asr/narrowband.js';
import { POCKETSPHINX_LIBRARY_OPTIONS, PocketsphinxAsr } from '../pipelines/asr/pocketsphinx-asr.js';
import type { StreamingAsr } from '../pipelines/asr/streaming-asr.js';
import { wordErrors } from '../pipelines/asr/wer.js';
import { fixtureSamples, loadAudioFixtures } from '../pipelines/audio/fixtures.js';
import { readWav } from '../pipelines/audio/wav.js';
import { modelsDir, repoRoot } from '../pipelines/models/repo-root.js';
import { hasTts, synthesise, TTS_HELDOUT_VOICES, TTS_SENTENCES, TTS_TRAIN_VOICES } from '../pipelines/speaker/eval-corpus.js';
import { SileroVadModel } from '../pipelines/audio/silero-vad-model.js';
import { SpeechPipeline } from '../pipelines/audio/speech-pipeline.js';
import { werCi } from './lib/wer-bootstrap.js';
import { phoneLine, sox } from './lib/room-audio.js';
import { requireDataOrSkip } from './lib/cli.js';

interface Clip { name: string; samples: Float32Array; text: string }
interface PerClip { errors: number; words: number }
interface Row { errors: number; words: number; cpuMs: number; audioS: number; clips: PerClip[]; hyps: string[]; finishMs: number[] }

const CHUNK = 1600;
const dev = process.argv.includes('--dev');

const pct = (ci: { mean: number; lo: number; hi: number }, signed = false): string =>
  `${signed && ci.mean >= 0 ? '+' : ''}${(100 * ci.mean).toFixed(1)} [${(100 * ci.lo).toFixed(1)}, ${(100 * ci.hi).toFixed(1)}]`;

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

async function run(asr: StreamingAsr, clips: Clip[], pacedMs = 0): Promise<Row> {
  const row: Row = { errors: 0, words: 0, cpuMs: 0, audioS: 0, clips: [], hyps: [], finishMs: [] };
  for (const c of clips) {
    const t0 = process.cpuUsage();
    const turn = asr.startTurn();
    for (let i = 0; i < c.samples.length; i += CHUNK) {
      turn.accept(c.samples.subarray(i, i + CHUNK));
      if (pacedMs > 0) await sleep(pacedMs);
    }
    const w0 = performance.now();
    const f = await turn.finish();
    row.finishMs.push(performance.now() - w0);
    const d = process.cpuUsage(t0);
    const e = wordErrors(c.text, f.text);
    row.errors += e.errors; row.words += e.words; row.clips.push(e); row.hyps.push(f.text);
    row.cpuMs += (d.user + d.system) / 1000; row.audioS += c.samples.length / 16000;
  }
  return row;
}

function speechbrain(): Clip[] {
  const dir = path.resolve(process.env['PARLEY_SHARED_DATA'] ?? path.join(repoRoot(), '../shared/data'), 'speech/speechbrain');
  if (!existsSync(path.join(dir, 'transcripts.jsonl'))) {
    requireDataOrSkip(`${dir}/transcripts.jsonl`);
    console.log(`(real set skipped: ${dir}/transcripts.jsonl not found; set PARLEY_SHARED_DATA)`);
    return [];
  }
  return readFileSync(path.join(dir, 'transcripts.jsonl'), 'utf8').split('\n').filter(Boolean).map((line) => {
    const r = JSON.parse(line) as { file: string; text: string };
    return { name: r.file, samples: readWav(path.join(dir, r.file)).samples, text: r.text };
  });
}

function tts(voices: typeof TTS_TRAIN_VOICES, from: number, to: number): Clip[] {
  return voices.filter((v) => v.shiftCents === 0).flatMap((v) => TTS_SENTENCES.slice(from, to)
    .map((text, i) => ({ name: `${v.id}#${from + i}`, text, samples: synthesise(v, text, from + i) })));
}

async function main(): Promise<void> {
  const tiny = path.join(modelsDir(), 'moonshine-tiny');
  if (!existsSync(path.join(tiny, 'decoder_model_merged.onnx'))) {
    console.log(`asr-moonshine: skipped, ${tiny} absent (npm run models -- fetch moonshine-tiny)`);
    return;
  }
  if (!hasTts()) console.log('(TTS sets skipped: flite / festival / sox are not installed)');
  const sets: [string, Clip[]][] = dev
    ? [['TTS training voices × sentences 1–6 (dev)', hasTts() ? tts(TTS_TRAIN_VOICES, 0, 6) : []]]
    : [
      ['real: SpeechBrain (2 clips)', speechbrain()],
      ['synthetic: flite fixtures (6 files, whole file per turn)', loadAudioFixtures().map((f) => ({ name: f.file, samples: fixtureSamples(f), text: f.utterances.map((u) => u.text).join(' ') }))],
      ['TTS held-out voices × sentences 7–12', hasTts() ? tts(TTS_HELDOUT_VOICES, 6, 12) : []],
    ];
  if (process.argv.includes('--latency-only')) {
    // dev: the training voices; report: the TTS held-out voices.
    const set = sets.find(([n]) => n.startsWith('TTS'));
    if (set && set[1].length > 0) await pipelineLatency(set[1], tiny, process.argv.includes('--skip-baseline'));
    return;
  }
  const base = path.join(modelsDir(), 'moonshine-base');
  const recognisers: [string, (line: string) => Promise<StreamingAsr | null>][] = [
    ['baseline: pocketsphinx, Parley (16 kHz: -ds 2 -maxhmmpf 3000; 8 kHz: narrowband -ds 1 -maxhmmpf 10000)',
      async (line) => PocketsphinxAsr.load({ kind: 'pocketsphinx', nameSpotting: false, ...(line === '16 kHz' ? {} : { options: { ...NARROWBAND_OPTIONS } }) })],
    ['pocketsphinx defaults (-ds 1 -maxhmmpf 30000)', async () => PocketsphinxAsr.load({ kind: 'pocketsphinx', nameSpotting: false, options: { ...POCKETSPHINX_LIBRARY_OPTIONS } })],
    ['moonshine-tiny', async () => MoonshineAsr.load({ kind: 'moonshine', modelDir: tiny })],
    ['moonshine-base', async () => (existsSync(path.join(base, 'decoder_model_merged.onnx')) ? MoonshineAsr.load({ kind: 'moonshine', modelDir: base }) : null)],
  ];
  console.log(`${dev ? 'DEVELOPMENT' : 'REPORT'} sets; WER % [95 % bootstrap over clips]; ΔWER: paired, against the baseline row of the same set and line`);
  console.log('| set | line | recogniser | errors / words | WER % | ΔWER vs Parley pocketsphinx (points) | CPU ms per s of audio | finish() wall ms, median / max |');
  console.log('|---|---|---|---|---|---|---|---|');
  const examples: string[] = [];
  for (const [setName, clean] of sets) {
    if (clean.length === 0) continue;
    const phone = await Promise.all(clean.map(async (c) => ({ ...c, samples: await phoneLine(sox(c.samples, ['highpass', '300', 'lowpass', '3400'])) })));
    for (const [line, clips] of [['16 kHz', clean], ['8 kHz μ-law', phone]] as const) {
      let baseline: Row | undefined;
      for (const [name, load] of recognisers) {
        const asr = await load(line);
        if (!asr) { console.log(`| ${setName} | ${line} | ${name} | not fetched | | | | |`); continue; }
        // Warm-up turn (pocketsphinx's cepstral mean adapts; onnxruntime's first runs allocate).
        await run(asr, clips.slice(0, 1));
        const r = await run(asr, clips);
        await asr.close();
        baseline ??= r;
        const delta = r === baseline ? '(baseline)' : pct(werCi(r.clips, baseline.clips), true);
        console.log(`| ${setName} | ${line} | ${name} | ${r.errors}/${r.words} | ${pct(werCi(r.clips))} | ${delta} | ${(r.cpuMs / r.audioS).toFixed(0)} | ${median(r.finishMs).toFixed(0)} / ${Math.max(...r.finishMs).toFixed(0)} |`);
        if (name.startsWith('moonshine')) examples.push(`${setName} ${line} ${name}: ${clips.slice(0, 2).map((c, i) => `"${r.hyps[i]}" (ref "${c.text}")`).join('; ')}`);
      }
    }
  }
  if (dev && sets[0]![1].length > 0) {
    // Partials re-decode the turn so far in the background; paced at real time so they run as in a session.
    console.log('\nMoonshine-tiny partials (dev set, 16 kHz, streamed at real time): CPU per second of audio');
    console.log('| partial interval | WER % | CPU ms per s of audio |');
    console.log('|---|---|---|');
    for (const ms of [0, 500, 1000]) {
      const asr = await MoonshineAsr.load({ kind: 'moonshine', modelDir: tiny, partialIntervalMs: ms });
      const r = await run(asr, sets[0]![1], 100);
      await asr.close();
      console.log(`| ${ms === 0 ? 'off (finals only)' : `${ms} ms`} | ${pct(werCi(r.clips))} | ${(r.cpuMs / r.audioS).toFixed(0)} |`);
    }
  }
  if (dev && sets[0]![1].length > 0) await pipelineLatency(sets[0]![1], tiny);
  console.log('\nExamples (first two clips of each Moonshine row):');
  for (const e of examples) console.log(`- ${e}`);
}

/**
 * Parley's path (Silero end of turn, then the recogniser), each clip followed by 1.5 s of silence and streamed
 * at real time: how long after `speech_stopped` each final arrives, WER of the finals, CPU.
 */
async function pipelineLatency(clips: Clip[], tiny: string, skipBaseline = false): Promise<void> {
  const vad = await SileroVadModel.load();
  const all: [string, () => Promise<StreamingAsr>][] = [
    ['baseline: pocketsphinx, Parley', async () => PocketsphinxAsr.load({ kind: 'pocketsphinx', nameSpotting: false })],
    ['moonshine-tiny, one decode when the turn ends', () => MoonshineAsr.load({ kind: 'moonshine', modelDir: tiny })],
    ['moonshine-tiny, decode started at each pause (pauseDecode)', () => MoonshineAsr.load({ kind: 'moonshine', modelDir: tiny, pauseDecode: true })],
  ];
  const systems = process.argv.includes('--pause-only') ? all.slice(2) : skipBaseline ? all.slice(1) : all;
  console.log(`\nVAD + recogniser, streamed at real time (${dev ? 'dev set' : 'TTS held-out'}, 16 kHz, 1.5 s of silence after each clip)`);
  console.log('| recogniser | turns | errors / words | WER % | final after speech_stopped, ms: median / p90 / max | CPU ms per s of audio |');
  console.log('|---|---|---|---|---|---|');
  for (const [name, load] of systems) {
    const asr = await load();
    const lat: number[] = [];
    const per: PerClip[] = [];
    let cpu = 0, audioS = 0, turns = 0;
    for (const c of clips) {
      const audio = new Float32Array(c.samples.length + 24000);
      audio.set(c.samples);
      const finals: string[] = [];
      const stoppedAt = new Map<number, number>();
      const p = new SpeechPipeline(vad, asr, (e) => {
        if (e.type === 'speech_stopped') stoppedAt.set(e.turnId, performance.now());
        if (e.type === 'final') { finals.push(e.text); turns++; const t = stoppedAt.get(e.turnId); if (t !== undefined) lat.push(performance.now() - t); }
      });
      const t0 = process.cpuUsage();
      const w0 = performance.now();
      for (let i = 0, k = 0; i < audio.length; i += CHUNK, k++) {
        await p.process(audio.subarray(i, i + CHUNK), i);
        const wait = w0 + (k + 1) * 100 - performance.now();
        if (wait > 0) await sleep(wait);
      }
      p.commit();
      for (let i = 0; i < 100 && finals.length < stoppedAt.size; i++) await sleep(20);
      const d = process.cpuUsage(t0);
      cpu += (d.user + d.system) / 1000; audioS += audio.length / 16000;
      per.push(wordErrors(c.text, finals.join(' ')));
      p.close();
    }
    await asr.close();
    const q = (x: number): number => [...lat].sort((a, b) => a - b)[Math.min(lat.length - 1, Math.floor(x * lat.length))] ?? NaN;
    const e = per.reduce((n, x) => n + x.errors, 0), w = per.reduce((n, x) => n + x.words, 0);
    console.log(`| ${name} | ${turns} | ${e}/${w} | ${pct(werCi(per))} | ${q(0.5).toFixed(0)} / ${q(0.9).toFixed(0)} / ${Math.max(...lat).toFixed(0)} | ${(cpu / audioS).toFixed(0)} |`);
  }
  await vad.close();
}

await main();
