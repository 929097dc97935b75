/**
 * Does the end-of-session speaker merge (`clusterSessionIds`, run when a voice session ends) cost more
 * than linearly in the session's length? Synthetic sessions of 200, 1,500 and 10,000 utterances (a
 * robot's day-long dialogue loop) over 12 speaker ids, 4 of them fragments of one voice, with 192-d
 * embeddings (random unit directions around each voice, 1–6 voiced seconds each). Times one merge per
 * repeat (`--repeats N`, default 3) and reports the median and min–max, and the merges it found.
 *
 *   npm run build && node dist/bench/session-merge-scale.js [--repeats N]
 */
import os from 'node:os';
import { clusterSessionIds, type SessionId } from '../pipelines/speaker/session-clustering.js';
import { argNumber } from './lib/cli.js';
import { percentile } from './lib/locomo.js';

const DIM = 192;
let seed = 11;
const random = (): number => (seed = (seed * 16807) % 2147483647) / 2147483647 - 0.5;

function unit(v: Float32Array): Float32Array {
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
}

/** 12 ids: voices 0–8 on one id each, voice 9 split over ids 9–11; `n` utterances round-robin. */
function session(n: number): SessionId[] {
  const voices = Array.from({ length: 10 }, () => unit(Float32Array.from({ length: DIM }, random)));
  const ids: SessionId[] = Array.from({ length: 12 }, (_, i) => ({ participantId: `p${i}`, known: i < 3, utterances: [] }));
  for (let k = 0; k < n; k++) {
    const idIndex = k % 12;
    const voice = voices[Math.min(idIndex, 9)]!;
    const vector = unit(voice.map((x) => x + 0.04 * random()));
    (ids[idIndex]!.utterances as { vector: Float32Array; seconds: number }[]).push({ vector, seconds: 1 + 5 * (random() + 0.5) });
  }
  return ids;
}

const repeats = argNumber('repeats', 3);
console.log(`session-merge-scale: ${repeats} repeats; ${os.cpus().length} cores, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}, Node ${process.version}`);
console.log('| utterances in the session | ms per merge, median (min–max) | merges found |');
console.log('|---|---|---|');
for (const n of [200, 1500, 10_000]) {
  const ids = session(n);
  const times: number[] = [];
  let merges = '';
  for (let r = 0; r < repeats; r++) {
    const t0 = performance.now();
    const out = clusterSessionIds(ids, { linkageTau: 0.9 });
    times.push(performance.now() - t0);
    merges = out.map((m) => `${m.from}→${m.into}`).join(', ');
  }
  console.log(`| ${n.toLocaleString('en')} | ${percentile(times, 50).toFixed(1)} (${Math.min(...times).toFixed(1)}–${Math.max(...times).toFixed(1)}) | ${merges || 'none'} |`);
}
