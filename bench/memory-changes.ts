/**
 * Changes of mind: 61 pairs of statements written for this bench (bench/data/changes.jsonl):
 * residence, job, employer, relationship, diet, plans, preferences and commitments, paraphrased,
 * and (ids 49 on) statements that must not close an earlier fact (an outcome denied, not yet, of another topic; a group joined; a restated ending),
 * a month apart in two sessions, the second stated by the person or reported by someone else.
 * Each pair runs through the real consolidation handler (embedded extractor, USE-lite, SQLite) in a
 * tenant of its own; the decision taken on the first statement's facts is read back from the store:
 * closed and superseded = UPDATE, closed = DELETE, KEEP op on it = KEEP, untouched = ADD.
 * Odd ids are the dev split (used while writing the rules), even ids the held-out split.
 * Reports per-decision precision / recall and accuracy with a 95 % bootstrap interval, per split.
 *
 *   npm run build && node dist/bench/memory-changes.js [--split dev|held-out|all]
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pino } from 'pino';
import { openDatabase } from '../graph/sqlite/database.js';
import { SqliteGraphStore } from '../graph/sqlite/sqlite-graph-store.js';
import { SqliteMemoryStore } from '../graph/sqlite/sqlite-memory-store.js';
import { SqliteVectorStore } from '../graph/sqlite/sqlite-vector-store.js';
import { SqliteLexicalIndex } from '../graph/sqlite/sqlite-lexical-index.js';
import { UseLiteEmbedder } from '../pipelines/embeddings/use-lite-embedder.js';
import { EmbeddedExtractor } from '../pipelines/memory/embedded-extractor.js';
import { createConsolidationHandler, type MemoryOp } from '../pipelines/memory/consolidate.js';
import { repoRoot } from '../pipelines/models/repo-root.js';

type Op = 'UPDATE' | 'DELETE' | 'KEEP' | 'ADD';
interface Pair { id: number; family: string; a: { by: 'self' | 'other'; text: string }; b: { by: 'self' | 'other'; text: string }; expect: Op }

const OPS: Op[] = ['UPDATE', 'DELETE', 'KEEP', 'ADD'];

function bootstrap(hits: boolean[], rounds = 2000): [number, number] {
  let seed = 7;
  const rand = (): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const means: number[] = [];
  for (let r = 0; r < rounds; r++) {
    let s = 0;
    for (let i = 0; i < hits.length; i++) s += hits[Math.floor(rand() * hits.length)] ? 1 : 0;
    means.push(s / hits.length);
  }
  means.sort((x, y) => x - y);
  return [means[Math.floor(rounds * 0.025)] ?? 0, means[Math.floor(rounds * 0.975)] ?? 0];
}

async function main(): Promise<void> {
  const split = process.argv.includes('--split') ? process.argv[process.argv.indexOf('--split') + 1] : 'all';
  const file = path.join(repoRoot(), 'bench', 'data', 'changes.jsonl');
  const pairs = readFileSync(file, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as Pair);
  const db = openDatabase(':memory:');
  const graph = new SqliteGraphStore(db);
  const memory = new SqliteMemoryStore(db);
  const embedder = new UseLiteEmbedder();
  const ops: MemoryOp[] = [];
  const handler = createConsolidationHandler({
    graph, memory, vectors: new SqliteVectorStore(db), lexical: new SqliteLexicalIndex(db), embedder,
    extractor: new EmbeddedExtractor(), onOps: (_t, _s, o) => ops.push(...o), logger: pino({ level: 'silent' }),
  });
  const results: Array<{ pair: Pair; got: Op; split: string }> = [];
  for (const pair of pairs) {
    const tenant = `c${pair.id}`;
    const lena = (await graph.createParticipant(tenant, { name: 'Lena' })).id;
    const ben = (await graph.createParticipant(tenant, { name: 'Ben' })).id;
    const cy = (await graph.createParticipant(tenant, { name: 'Cy' })).id;
    const say = async (session: string, time: string, by: 'self' | 'other', text: string): Promise<string> => {
      await graph.openSession(tenant, session, time);
      const [speaker, addressee] = by === 'self' ? [lena, ben] : [ben, cy];
      const [u] = await graph.addUtterances(tenant, [{ sessionId: session, speakerId: speaker, addresseeIds: [addressee], text,
        startMs: null, endMs: null, time, confidence: null, audioRef: null }]);
      await handler({ id: `${tenant}-${u!.id}`, name: 'memory.consolidate', attempt: 1, data: { tenant, sessionId: session, utteranceId: u!.id } },
        new AbortController().signal);
      return u!.id;
    };
    const aId = await say('s1', '2026-10-01T10:00:00.000Z', pair.a.by, pair.a.text);
    const before = ops.length;
    await say('s2', '2026-11-01T10:00:00.000Z', pair.b.by, pair.b.text);
    const aFacts = await memory.listFacts(tenant, { ids: (await memory.processedFacts(tenant, aId)) ?? [], includeHistory: true });
    const bOps = ops.slice(before);
    let got: Op = 'ADD';
    if (aFacts.some((f) => f.validTo !== null && f.supersededBy !== null)) got = 'UPDATE';
    else if (aFacts.some((f) => f.validTo !== null)) got = 'DELETE';
    else if (bOps.some((o) => o.op === 'KEEP' && aFacts.some((f) => f.id === o.memory_id))) got = 'KEEP';
    results.push({ pair, got, split: pair.id % 2 === 1 ? 'dev' : 'held-out' });
  }
  for (const name of ['dev', 'held-out']) {
    if (split !== 'all' && split !== name) continue;
    const rs = results.filter((r) => r.split === name);
    const hits = rs.map((r) => r.got === r.pair.expect);
    const [lo, hi] = bootstrap(hits);
    console.log(`\n${name}: ${rs.length} pairs, accuracy ${(hits.filter(Boolean).length / rs.length).toFixed(2)} (95 % bootstrap ${lo.toFixed(2)}–${hi.toFixed(2)})`);
    console.log('| decision | expected | predicted | correct | precision | recall |');
    console.log('|---|---|---|---|---|---|');
    for (const op of OPS) {
      const expected = rs.filter((r) => r.pair.expect === op).length;
      const predicted = rs.filter((r) => r.got === op).length;
      const correct = rs.filter((r) => r.got === op && r.pair.expect === op).length;
      const pr = predicted ? (correct / predicted).toFixed(2) : 'n/a';
      console.log(`| ${op} | ${expected} | ${predicted} | ${correct} | ${pr} | ${expected ? (correct / expected).toFixed(2) : 'n/a'} |`);
    }
    if (name === 'dev' || process.argv.includes('--show')) {
      for (const r of rs) if (r.got !== r.pair.expect) console.log(`  miss ${r.pair.id} ${r.pair.family}: expected ${r.pair.expect}, got ${r.got} — "${r.pair.b.text}"`);
    }
  }
  await embedder.close();
  db.close();
}

await main();
