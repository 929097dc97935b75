/**
 * An erasure's search for the facts that name the erased person only in their text, against the number of the tenant's
 * unrelated facts, on Neo4j (NEO4J_URI etc. set; `scripts/neo4j-test-server.sh start` runs a local one). "before" is
 * the reading of main before the fact words index, measured in the same run on the same store: every fact of the tenant
 * (`MATCH (f:Fact {tenant}) WHERE any(n IN $names WHERE f.content CONTAINS n)`) beside the person's own facts. "after" is
 * `Neo4jMemoryStore.erasedFactIds` (the full-text index `parley_fact_words`). Both must return the same ids. Reads
 * alternate before / after, so load on the machine falls on both alike; the paired difference has a 95 % bootstrap
 * interval. An erasure runs this search 4 to 6 times (read, re-read, each delete round, the memory store's plan).
 * With `--sqlite` the embedded store's `erasedFactIds` is timed on the same facts too (it still reads every fact of the
 * tenant: no before / after there).
 * Run: node dist/bench/erase-scale.js [--facts 0,2000,20000] [--reps 15] [--sqlite]
 */
import neo4j from 'neo4j-driver';
import { openDatabase } from '../graph/sqlite/database.js';
import { SqliteMemoryStore } from '../graph/sqlite/sqlite-memory-store.js';
import { Neo4jMemoryStore } from '../graph/neo4j/neo4j-memory-store.js';
import type { MemoryStore, NewFact } from '../graph/memory-store.js';
import { erasableNames, erasesFact } from '../graph/erased-facts.js';
import { neo4jTestOptions } from '../test/helpers/stores.js';
import { bootstrapDelta } from './lib/bootstrap.js';
import { argString } from './lib/cli.js';

const sizes = argString('facts', '0,2000,20000').split(',').map(Number);
const reps = Number(argString('reps', '15'));
const withSqlite = process.argv.includes('--sqlite');
const T = 'bench-erase';
const GONE = 'p_gone';
const NAMES = erasableNames(['Quillon Varbeck', 'Quill', 'Quillon']);
const AT = '2026-12-01T00:00:00.000Z';

const fact = (content: string, speakerId: string): NewFact => ({
  content, speakerId, subjectId: speakerId, addresseeIds: [], kind: 'statement', slot: null, value: null, time: AT,
  referIds: [], validFrom: AT, supersedes: null, confidence: 0.9, sessionId: 's1', source: 'bench',
});

/** The person's own facts, others' facts naming them, and `n` unrelated facts of other people (in batches). */
async function fill(store: MemoryStore, n: number): Promise<void> {
  await store.addFacts(T, Array.from({ length: 10 }, (_, i) => fact(`Quillon restores clock number ${i}`, GONE)));
  await store.addFacts(T, Array.from({ length: 10 }, (_, i) => fact(`Cara lent Quillon Varbeck ladder ${i}`, 'p_cara')));
  for (let i = 0; i < n; i += 500) {
    await store.addFacts(T, Array.from({ length: Math.min(500, n - i) }, (_, j) => fact(`Ben drinks green tea on day ${i + j} in Lisbon`, `p_${(i + j) % 50}`)));
  }
}

/** main's reading (before the index): the person's facts, and every fact of the tenant whose text contains a name. */
const BEFORE = `
  CALL {
    MATCH (f:Fact {tenant: $tenant, speakerId: $id}) RETURN f
    UNION
    MATCH (f:Fact {tenant: $tenant, subjectId: $id}) RETURN f
    UNION
    MATCH (:Addressee {tenant: $tenant, id: $id})<-[:ADDRESSED]-(f:Fact) RETURN f
    UNION
    MATCH (f:Fact {tenant: $tenant}) WHERE any(n IN $names WHERE f.content CONTAINS n) RETURN f
  }
  WITH DISTINCT f ORDER BY f.ord
  RETURN f {.id, .speakerId, .subjectId, .content} AS f`;

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const ms = (x: number): string => x.toFixed(1);

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = process.hrtime.bigint();
  const value = await work();
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, value };
}

async function neo4jRow(n: number): Promise<void> {
  const options = neo4jTestOptions('bench-erase');
  const store = new Neo4jMemoryStore(options);
  const driver = neo4j.driver(options.uri, neo4j.auth.basic(options.user ?? 'neo4j', options.password ?? ''));
  try {
    await fill(store, n);
    const tenant = `${options.tenantPrefix}${T}`;
    const before = async (): Promise<string[]> => {
      const { records } = await driver.executeQuery(BEFORE, { tenant, id: GONE, names: NAMES }, { database: options.database, routing: neo4j.routing.READ });
      return records.map((r) => r.get('f') as { id: string; speakerId: string; subjectId: string; content: string })
        .filter((f) => erasesFact(f, GONE, NAMES)).map((f) => f.id);
    };
    const after = (): Promise<string[]> => store.erasedFactIds(T, GONE, NAMES);
    // Warm both (plans cached, pages in memory), and check they agree.
    const [b0, a0] = [await before(), await after()];
    if (b0.length !== 20 || [...b0].sort().join() !== [...a0].sort().join()) throw new Error(`before and after disagree: ${b0.length} vs ${a0.length}`);
    const times = { before: [] as number[], after: [] as number[] };
    for (let r = 0; r < reps; r++) {
      times.before.push((await timed(before)).ms);
      times.after.push((await timed(after)).ms);
    }
    const d = bootstrapDelta(times.after, times.before);
    console.log(`| neo4j | ${n} | ${ms(median(times.before))} | ${ms(median(times.after))} | ${ms(d.mean)} [${ms(d.lo)}, ${ms(d.hi)}] |`);
  } finally {
    await store.eraseAll();
    await store.close();
    await driver.close();
  }
}

function sqliteRow(n: number): Promise<void> {
  const db = openDatabase(':memory:');
  const store = new SqliteMemoryStore(db);
  return (async () => {
    await fill(store, n);
    const times: number[] = [];
    for (let r = 0; r < reps; r++) times.push((await timed(() => store.erasedFactIds(T, GONE, NAMES))).ms);
    console.log(`| sqlite (unchanged) | ${n} | ${ms(median(times))} | — | — |`);
  })().finally(() => db.close());
}

console.log(`erasedFactIds: median ms of ${reps} reads (names ${NAMES.join(', ')}; 20 facts taken)`);
console.log('| store | unrelated facts | before (scan) | after (index) | after − before, mean ms [95 % CI] |');
console.log('|---|---|---|---|---|');
for (const n of sizes) {
  if (process.env.NEO4J_URI) await neo4jRow(n);
  if (withSqlite) await sqliteRow(n);
}
if (!process.env.NEO4J_URI) console.log('NEO4J_URI is not set: no Neo4j rows (start one with scripts/neo4j-test-server.sh)');
