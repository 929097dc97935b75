/**
 * End-of-speech -> speech_stopped latency on the fixtures (true speech ends from utterances.json):
 * 1. audio time, in-process: Silero + the end-of-turn segmenter (default 500 ms silence), against a
 *    baseline measured in the same run: an energy (RMS dB) detector through the same segmenter;
 * 2. wall time, through the worker pool and AudioSession, all fixtures streamed concurrently at real-time
 *    pace in 100 ms frames: from the moment the frame holding the true speech end was pushed to the event.
 * Run: node dist/bench/vad-latency.js
 */
import { performance } from 'node:perf_hooks';
import type { AudioSessionEvent } from '../pipelines/audio/audio-events.js';
import { createAudioSession } from '../pipelines/audio/audio-session.js';
import { fixtureSamples, loadAudioFixtures, type AudioFixture } from '../pipelines/audio/fixtures.js';
import { encodeS16le } from '../pipelines/audio/pcm-codecs.js';
import { SILERO_WINDOW_SAMPLES, SileroVadModel } from '../pipelines/audio/silero-vad-model.js';
import { TurnSegmenter } from '../pipelines/audio/turn-segmenter.js';
import { resolveVadOptions } from '../pipelines/audio/vad-options.js';
import { WorkerPool } from '../pipelines/workers/worker-pool.js';

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : (s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN);
}

interface Detection { found: number; expected: number; latencies: number[]; endErrors: number[] }

/** Run a per-window probability function through the segmenter; match stops to true utterance ends. */
async function detect(fixtures: AudioFixture[], prob: (w: Float32Array, reset: boolean) => Promise<number>): Promise<Detection> {
  const d: Detection = { found: 0, expected: 0, latencies: [], endErrors: [] };
  for (const f of fixtures) {
    const x = fixtureSamples(f);
    const seg = new TurnSegmenter(resolveVadOptions());
    const stops: { speechEndMs: number; decidedAtMs: number }[] = [];
    for (let i = 0; i + SILERO_WINDOW_SAMPLES <= x.length; i += SILERO_WINDOW_SAMPLES) {
      const p = await prob(x.subarray(i, i + SILERO_WINDOW_SAMPLES), i === 0);
      const ev = seg.push(p, i / 16, (i + SILERO_WINDOW_SAMPLES) / 16);
      if (ev?.type === 'stop') stops.push(ev);
    }
    d.expected += f.utterances.length;
    for (const u of f.utterances) {
      const s = stops.find((e) => e.decidedAtMs >= u.end_ms && e.speechEndMs <= u.end_ms + 400);
      if (!s) continue;
      d.found++;
      d.latencies.push(s.decidedAtMs - u.end_ms);
      d.endErrors.push(s.speechEndMs - u.end_ms);
    }
  }
  return d;
}

function energyProb(w: Float32Array): number {
  const rms = Math.sqrt(w.reduce((a, v) => a + v * v, 0) / w.length);
  const db = 20 * Math.log10(rms + 1e-9);
  return Math.max(0, Math.min(1, (db + 45) / 15)); // -45 dBFS -> 0, -30 dBFS -> 1
}

async function wallLatency(fixtures: AudioFixture[]): Promise<{ audio: number[]; wall: number[]; found: number; expected: number }> {
  const pool = await WorkerPool.create({ asr: { kind: 'pocketsphinx' } });
  const audio: number[] = [], wall: number[] = [];
  let found = 0, expected = 0;
  await Promise.all(fixtures.map(async (f, k) => {
    await new Promise((r) => setTimeout(r, k * 137)); // stagger the sessions
    const session = await createAudioSession({ format: {}, pool });
    const stops: { at: number; e: Extract<AudioSessionEvent, { type: 'speech_stopped' }> }[] = [];
    const reader = (async () => { for await (const e of session) if (e.type === 'speech_stopped') stops.push({ at: performance.now(), e }); })();
    const pcm = encodeS16le(fixtureSamples(f));
    const pushedAt: number[] = [];
    const t0 = performance.now();
    for (let i = 0, n = 0; i < pcm.length; i += 3200, n++) {
      const wait = t0 + n * 100 - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      pushedAt.push(performance.now());
      session.push(pcm.subarray(i, i + 3200));
    }
    await session.close({ flush: true });
    await reader;
    expected += f.utterances.length;
    for (const u of f.utterances) {
      const s = stops.find((x) => x.e.decidedAtMs >= u.end_ms && x.e.audioEndMs <= u.end_ms + 400 && x.e.reason === 'silence');
      const frameAt = pushedAt[Math.floor(u.end_ms / 100)];
      if (!s || frameAt === undefined) continue;
      found++;
      audio.push(s.e.decidedAtMs - u.end_ms);
      wall.push(s.at - frameAt);
    }
  }));
  await pool.close();
  return { audio, wall, found, expected };
}

async function main(): Promise<void> {
  const fixtures = loadAudioFixtures();
  const vad = await SileroVadModel.load();
  let state = vad.createState();
  const silero = await detect(fixtures, async (w, reset) => {
    if (reset) state = vad.createState();
    state.window.set(w);
    return vad.predict(state);
  });
  await vad.close();
  const energy = await detect(fixtures, async (w) => energyProb(w));
  const live = await wallLatency(fixtures);
  const row = (name: string, found: number, expected: number, xs: number[], end: string): string =>
    `| ${name} | ${found}/${expected} | ${pct(xs, 50).toFixed(0)} | ${pct(xs, 95).toFixed(0)} | ${end} |`;
  const endErr = (d: Detection): string => `${pct(d.endErrors, 50).toFixed(0)} / ${pct(d.endErrors, 95).toFixed(0)}`;
  console.log('End of speech -> speech_stopped, end-of-turn silence 500 ms (ms)');
  console.log('| detector | turns ended | p50 ms | p95 ms | speech-end estimate error p50 / p95 ms |');
  console.log('|---|---|---|---|---|');
  console.log(row('Silero v5, audio time', silero.found, silero.expected, silero.latencies, endErr(silero)));
  console.log(row('baseline: energy -45..-30 dBFS, audio time', energy.found, energy.expected, energy.latencies, endErr(energy)));
  console.log(row(`Silero via worker pool, real-time streams x${fixtures.length}, audio time`, live.found, live.expected, live.audio, '-'));
  console.log(row(`Silero via worker pool, real-time streams x${fixtures.length}, wall time`, live.found, live.expected, live.wall, '-'));
}

await main();
