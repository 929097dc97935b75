/**
 * What serialising consolidation per subject costs a job that waits for nobody: the time of one
 * `withLock` on a key no one else holds (take, run an empty piece of work, release), per backend,
 * against the same empty work run without a lock (the baseline, same run). Backends alternate call
 * by call so load changes hit them alike. Consolidation takes one such lock per job (a key per
 * subject of the utterance's facts, usually one or two).
 * Run: node dist/bench/keyed-lock-overhead.js [--calls 1000] [--repeats 5] [--redis redis://127.0.0.1:6379/13]
 */
import os from 'node:os';
import path from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import type { KeyedLock } from '../graph/keyed-lock.js';
import { MemoryKeyedLock } from '../graph/memory-keyed-lock.js';
import { RedisKeyedLock } from '../graph/redis/redis-keyed-lock.js';
import { openDatabase } from '../graph/sqlite/database.js';
import { SqliteKeyedLock } from '../graph/sqlite/sqlite-keyed-lock.js';
import { argNumber, argString } from './lib/cli.js';

const calls = argNumber('calls', 1000);
const repeats = argNumber('repeats', 5);
const redisUrl = argString('redis', 'redis://127.0.0.1:6379/13');
const prefix = `parley-bench-lock-${process.pid}`;

const dir = mkdtempSync(path.join(os.tmpdir(), 'parley-bench-lock-'));
const db = openDatabase(path.join(dir, 'parley.db'));
const dedicated = SqliteKeyedLock.open(path.join(dir, 'parley.db'));
const redis = new RedisKeyedLock({ url: redisUrl, prefix });
const none: KeyedLock = { withLock: (_keys, work) => work(new AbortController().signal), close: async () => {} };
const backends: Array<[string, KeyedLock]> = [
  ['no lock (baseline)', none], ['in-process', new MemoryKeyedLock()], ['SQLite, shared connection (fsync per commit)', new SqliteKeyedLock(db)],
  ['SQLite, own connection (as shipped)', dedicated], ['Redis', redis],
];

const quantile = (xs: number[], q: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
};

// Warm-up: connections, prepared statements, JIT.
for (let i = 0; i < 50; i++) for (const [, lock] of backends) await lock.withLock([`warm:${i}`], async () => {});

const medians = new Map<string, number[]>();
const p95s = new Map<string, number[]>();
for (let r = 0; r < repeats; r++) {
  const times = new Map<string, number[]>(backends.map(([name]) => [name, []]));
  for (let i = 0; i < calls; i++) {
    for (const [name, lock] of backends) {
      const t0 = process.hrtime.bigint();
      await lock.withLock([`consolidate:bench:subject:r${r}c${i}`], async () => {});
      times.get(name)?.push(Number(process.hrtime.bigint() - t0) / 1000);
    }
  }
  for (const [name, xs] of times) {
    medians.set(name, [...(medians.get(name) ?? []), quantile(xs, 0.5)]);
    p95s.set(name, [...(p95s.get(name) ?? []), quantile(xs, 0.95)]);
  }
}

console.log(`load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}; ${calls} calls x ${repeats} repeats; µs per withLock`);
console.log('| backend | median of medians | min–max of medians | median p95 | min–max p95 |');
console.log('|---|---|---|---|---|');
for (const [name] of backends) {
  const m = medians.get(name) ?? [];
  const p = p95s.get(name) ?? [];
  const f = (x: number): string => x.toFixed(1);
  console.log(`| ${name} | ${f(quantile(m, 0.5))} | ${f(Math.min(...m))}–${f(Math.max(...m))} | ${f(quantile(p, 0.5))} | ${f(Math.min(...p))}–${f(Math.max(...p))} |`);
}

await redis.close();
await dedicated.close();
db.close();
rmSync(dir, { recursive: true, force: true });
