/**
 * How many concurrent real-time streams this machine sustains: N sessions each stream fixture audio at
 * real-time pace (100 ms frames) through the worker pool (pocketsphinx + Silero); partial lag = arrival of a
 * transcript.partial minus the wall time the frame holding its last audio was pushed. N grows until the
 * partial lag p95 reaches 500 ms or audio is shed; bounded (N <= 24, ~10 s of audio per step).
 * Baselines in the same run: N = 1, and the whole sweep again with pocketsphinx's own decoder settings
 * (`POCKETSPHINX_LIBRARY_OPTIONS`) instead of Parley's. Both sweeps run today's stream path (VAD context, gain control
 * `vad`, first-turn priming, per-stream recogniser state; no names, so no spotting pass); only the decoder options differ.
 * CPU per stream: this process's CPU time (every thread) per second of streamed audio, which other work on the host
 * does not inflate as it does the lag; the 1-minute load average is printed after each step.
 * Run: node dist/bench/asr-concurrency.js [secondsPerStep]
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { POCKETSPHINX_LIBRARY_OPTIONS } from '../pipelines/asr/pocketsphinx-asr.js';
import { createAudioSession } from '../pipelines/audio/audio-session.js';
import { fixtureSamples, loadAudioFixtures } from '../pipelines/audio/fixtures.js';
import { encodeS16le } from '../pipelines/audio/pcm-codecs.js';
import { WorkerPool } from '../pipelines/workers/worker-pool.js';

const STEP_S = Number(process.argv[2] ?? 10);
const WARMUP_MS = 2000;
const LAG_LIMIT_MS = 500;

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : (s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN);
}

/** Each stream's audio: fixture files (a different starting file per stream) concatenated to STEP_S seconds. */
function streamAudio(k: number): Buffer {
  const fx = loadAudioFixtures().map(fixtureSamples);
  const out = new Float32Array(STEP_S * 16000);
  for (let at = 0, i = k; at < out.length; i++) {
    const f = fx[i % fx.length] as Float32Array;
    out.set(f.subarray(0, out.length - at), at);
    at += Math.min(f.length, out.length - at);
  }
  return encodeS16le(out);
}

async function step(pool: WorkerPool, n: number): Promise<{ lags: number[]; shed: number; partials: number; finals: number; cpu: number; cpuMsPerS: number }> {
  const lags: number[] = [];
  let shed = 0, partials = 0, finals = 0;
  const cpu0 = process.cpuUsage();
  const t = performance.now();
  await Promise.all(Array.from({ length: n }, async (_, k) => {
    await new Promise((r) => setTimeout(r, (k * 97) % 1000)); // desynchronise the streams
    const session = await createAudioSession({ format: {}, pool });
    const pcm = streamAudio(k);
    const pushedAt: number[] = [];
    const reader = (async () => {
      for await (const e of session) {
        const now = performance.now();
        if (e.type === 'error') shed++;
        if (e.type === 'final') finals++;
        if (e.type !== 'partial') continue;
        partials++;
        const frameAt = pushedAt[Math.max(0, Math.ceil(e.atMs / 100) - 1)];
        if (e.atMs >= WARMUP_MS && frameAt !== undefined) lags.push(now - frameAt);
      }
    })();
    const t0 = performance.now();
    for (let i = 0, f = 0; i < pcm.length; i += 3200, f++) {
      const wait = t0 + f * 100 - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      pushedAt.push(performance.now());
      session.push(pcm.subarray(i, i + 3200));
    }
    await session.close({ flush: true });
    await reader;
  }));
  const used = process.cpuUsage(cpu0);
  const cpu = (used.user + used.system) / 1000 / (performance.now() - t);
  return { lags, shed, partials, finals, cpu, cpuMsPerS: (used.user + used.system) / 1000 / (n * STEP_S) };
}

async function sweep(label: string, options: Record<string, string>): Promise<void> {
  const pool = await WorkerPool.create({ asr: { kind: 'pocketsphinx', maxIdleDecoders: 16, options } });
  console.log(`\n${label}: workers: ${pool.size} (cores: ${os.availableParallelism()}), ${STEP_S} s of audio per stream per step`);
  console.log('| streams | partials | finals | partial lag p50 ms | p95 ms | max ms | shed episodes | process CPU (cores) | CPU ms per s of stream | load avg (1 min) |');
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  let sustained = 0;
  for (const n of [1, 2, 4, 6, 8, 10, 12, 16, 24]) {
    const r = await step(pool, n);
    const p95 = pct(r.lags, 95);
    console.log(`| ${n}${n === 1 ? ' (baseline)' : ''} | ${r.partials} | ${r.finals} | ${pct(r.lags, 50).toFixed(0)} | ${p95.toFixed(0)} | ${Math.max(...r.lags).toFixed(0)} | ${r.shed} | ${r.cpu.toFixed(2)} | ${r.cpuMsPerS.toFixed(0)} | ${(os.loadavg()[0] ?? NaN).toFixed(1)} |`);
    if (!(p95 < LAG_LIMIT_MS) || r.shed > 0) break;
    sustained = n;
  }
  console.log(`sustained real-time streams with partial lag p95 < ${LAG_LIMIT_MS} ms and nothing shed: ${sustained}`);
  await pool.close();
}

await sweep('pocketsphinx, Parley defaults', {});
await sweep('baseline: pocketsphinx, library defaults', { ...POCKETSPHINX_LIBRARY_OPTIONS });
