/**
 * One large batch against live traffic: a POST-sized batch (default 1,000 utterances of ~10k
 * characters, the most the HTTP schema allows) is ingested while a 10 ms ticker stands in for every
 * other session's timers and sockets. Reports how late the ticker ran (the longest event-loop stall,
 * and its p99) and the batch's total time, for Parley's chunked commits (20 utterances a commit, the
 * loop released between utterances) against the baseline measured in the same run: one commit for
 * the whole batch with no pause (`commitChunk: Infinity`, the behaviour before).
 *
 *   npm run build && node dist/bench/ingest-flood.js [--utterances 1000] [--chars 10000] [--runs 2]
 */
import { pino } from 'pino';
import { openStores } from '../graph/open-stores.js';
import { InteractionIngest } from '../pipelines/interaction/ingest.js';
import { loadConfig } from '../server/config.js';
import { tempDir } from '../test/helpers/temp-dir.js';
import { percentile } from './lib/locomo.js';
import { argNumber } from './lib/cli.js';

const count = argNumber('utterances', 1000);
const chars = argNumber('chars', 10_000);
const runs = argNumber('runs', 2);
const WORDS = ('the garden committee met on tuesday and agreed to spend the grant on rain barrels and new raised beds '
  + 'for the school children while ana promised ben the draft by friday and carla moved to porto').split(' ');

function text(seed: number): string {
  const out: string[] = [];
  let n = 0;
  for (let i = 0; n < chars; i++) {
    const w = WORDS[(seed * 31 + i * 7) % WORDS.length]!;
    out.push(w);
    n += w.length + 1;
  }
  return out.join(' ').slice(0, chars);
}

async function once(commitChunk: number): Promise<{ stallMs: number; p99Ms: number; totalMs: number }> {
  const tmp = tempDir('parley-flood-');
  const config = loadConfig({ DATA_DIR: tmp.dir, LOG_LEVEL: 'silent' });
  const logger = pino({ level: 'silent' });
  const stores = openStores(config, logger);
  const ingest = new InteractionIngest({ ...stores, logger, commitChunk });
  const inputs = Array.from({ length: count }, (_, i) => ({ speaker: ['Ana', 'Ben', 'Carla'][i % 3]!, text: text(i) }));
  const lateness: number[] = [];
  let expected = performance.now() + 10;
  const ticker = setInterval(() => {
    const now = performance.now();
    lateness.push(Math.max(0, now - expected));
    expected = now + 10;
  }, 10);
  const t0 = performance.now();
  await ingest.ingest('default', 'flood', inputs);
  const totalMs = performance.now() - t0;
  // The ticker's first run after a stall measures it.
  await new Promise((resolve) => setTimeout(resolve, 30));
  clearInterval(ticker);
  await stores.close();
  tmp.remove();
  return { stallMs: Math.max(0, ...lateness), p99Ms: percentile(lateness, 99), totalMs };
}

console.log(`ingest flood: ${count} utterances of ${chars} characters in one batch, ${runs} runs each`);
console.log('| mode | longest stall ms (per run) | p99 lateness ms | batch total s |');
console.log('|---|---|---|---|');
for (const [label, chunk] of [['Parley: 20 per commit, loop released', 20], ['baseline: one commit, no pause', Infinity]] as const) {
  const results = [];
  for (let r = 0; r < runs; r++) results.push(await once(chunk));
  console.log(`| ${label} | ${results.map((x) => x.stallMs.toFixed(0)).join(', ')} | ${results.map((x) => x.p99Ms.toFixed(0)).join(', ')} | ${results.map((x) => (x.totalMs / 1000).toFixed(1)).join(', ')} |`);
}
