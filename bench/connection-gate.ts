/**
 * What the embedded file's connection gate (`graph/sqlite/connection-gate.ts`: store calls from outside an
 * atomic section wait for it) costs, against the same stores without it on the same connection, measured
 * in the same run, rounds alternating: the time of one store call (`graph.getParticipant`, a point read),
 * and of one ingest of a batch of short turns (its sections, keyword index and job queue).
 *
 *   npm run build && node dist/bench/connection-gate.js [--calls 5000] [--turns 200] [--rounds 5]
 */
import { pino } from 'pino';
import { openStores } from '../graph/open-stores.js';
import { SqliteGraphStore } from '../graph/sqlite/sqlite-graph-store.js';
import { SqliteJobQueue } from '../graph/sqlite/sqlite-job-queue.js';
import { SqliteLexicalIndex } from '../graph/sqlite/sqlite-lexical-index.js';
import { SqliteMemoryStore } from '../graph/sqlite/sqlite-memory-store.js';
import { InteractionIngest } from '../pipelines/interaction/ingest.js';
import { loadConfig } from '../server/config.js';
import { tempDir } from '../test/helpers/temp-dir.js';
import { argNumber } from './lib/cli.js';
import { percentile } from './lib/locomo.js';

const calls = argNumber('calls', 5000);
const turns = argNumber('turns', 200);
const rounds = argNumber('rounds', 5);
const T = 'default';

const tmp = tempDir('parley-bench-gate-');
const logger = pino({ level: 'silent' });
const stores = openStores(loadConfig({ DATA_DIR: tmp.dir, LOG_LEVEL: 'silent' }), logger);
// The same stores on the same connection, not wrapped: what every call cost before the gate.
const bare = {
  graph: new SqliteGraphStore(stores.sqlite),
  memory: new SqliteMemoryStore(stores.sqlite),
  lexical: new SqliteLexicalIndex(stores.sqlite),
  queue: new SqliteJobQueue(stores.sqlite),
};
const person = await stores.graph.createParticipant(T, { name: 'Ana Point' });

async function readCalls(graph: SqliteGraphStore | typeof stores.graph): Promise<number> {
  const t0 = performance.now();
  for (let i = 0; i < calls; i++) await graph.getParticipant(T, person.id);
  return ((performance.now() - t0) * 1000) / calls;
}

let session = 0;
async function ingestOnce(gated: boolean): Promise<number> {
  const ingest = new InteractionIngest({ ...stores, ...(gated ? {} : bare), logger });
  const inputs = Array.from({ length: turns }, (_, i) => ({
    speaker: ['Ana', 'Ben', 'Carla'][i % 3]!, text: `turn ${i}: the garden committee agreed to spend the grant on rain barrels`,
  }));
  const t0 = performance.now();
  await ingest.ingest(T, `gate-${session++}`, inputs);
  return performance.now() - t0;
}

const results = { gatedCall: [] as number[], bareCall: [] as number[], gatedIngest: [] as number[], bareIngest: [] as number[] };
// Warm-up (the first ingest of a process loads the naming tagger), not counted.
await readCalls(stores.graph);
await readCalls(bare.graph);
await ingestOnce(true);
await ingestOnce(false);
for (let r = 0; r < rounds; r++) {
  const order = r % 2 === 0 ? [true, false] : [false, true];
  for (const gated of order) {
    (gated ? results.gatedCall : results.bareCall).push(await readCalls(gated ? stores.graph : bare.graph));
    (gated ? results.gatedIngest : results.bareIngest).push(await ingestOnce(gated));
  }
}
await bare.queue.close(1000);
await stores.close(1000);
tmp.remove();

const med = (xs: number[]): string => percentile(xs, 50).toFixed(1);
const all = (xs: number[]): string => xs.map((x) => x.toFixed(1)).join(', ');
console.log(`connection gate: ${calls} point reads and one ingest of ${turns} turns per round, ${rounds} rounds, alternating`);
console.log('| measure | gated (median; per round) | not gated, same run (median; per round) |');
console.log('|---|---|---|');
console.log(`| graph.getParticipant µs/call | ${med(results.gatedCall)}; ${all(results.gatedCall)} | ${med(results.bareCall)}; ${all(results.bareCall)} |`);
console.log(`| ingest of ${turns} turns ms | ${med(results.gatedIngest)}; ${all(results.gatedIngest)} | ${med(results.bareIngest)}; ${all(results.bareIngest)} |`);
