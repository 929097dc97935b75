/**
 * Memory freshness: time from an utterance being stored to it (and its facts) being searchable by
 * vector and lexical search, per turn, on LoCoMo turns (../shared/data, evaluation only).
 * Run: node dist/bench/memory-freshness.js [turns=150]
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { openDatabase } from '../graph/sqlite/database.js';
import { SqliteGraphStore } from '../graph/sqlite/sqlite-graph-store.js';
import { SqliteMemoryStore } from '../graph/sqlite/sqlite-memory-store.js';
import { SqliteVectorStore } from '../graph/sqlite/sqlite-vector-store.js';
import { SqliteLexicalIndex } from '../graph/sqlite/sqlite-lexical-index.js';
import { UseLiteEmbedder } from '../pipelines/embeddings/use-lite-embedder.js';
import { EmbeddedExtractor } from '../pipelines/memory/embedded-extractor.js';
import { collectionFor } from '../pipelines/memory/collections.js';
import { createConsolidationHandler, type MemoryOp } from '../pipelines/memory/consolidate.js';
import { requireDataOrSkip } from './lib/cli.js';

function repoRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json'))) dir = path.dirname(dir);
  return dir;
}

const pct = (xs: number[], p: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))] ?? NaN;

async function main(): Promise<void> {
  const dataDir = process.env.PARLEY_SHARED_DATA ?? path.resolve(repoRoot(), '../shared/data');
  const file = path.join(dataDir, 'locomo/locomo_turns.jsonl');
  if (!existsSync(file)) {
    requireDataOrSkip(file);
    console.log(`SKIP: ${file} not found (set PARLEY_SHARED_DATA)`);
    return;
  }
  const limit = Number(process.argv[2] ?? 150);
  const rows = readFileSync(file, 'utf8').split('\n').filter(Boolean).slice(0, limit)
    .map((l) => JSON.parse(l) as { conv_id: string | number; session: string | number; speaker: string; addressee: string; text: string; session_date_time?: string });

  const db = openDatabase(':memory:');
  const graph = new SqliteGraphStore(db);
  const memory = new SqliteMemoryStore(db);
  const vectors = new SqliteVectorStore(db);
  const lexical = new SqliteLexicalIndex(db);
  const embedder = new UseLiteEmbedder();
  await embedder.start();
  await vectors.ensureCollection('baseline_raw', embedder.space);
  const ops: MemoryOp[] = [];
  const handler = createConsolidationHandler({ graph, memory, vectors, lexical, embedder, extractor: new EmbeddedExtractor(),
    onOps: (_t, _s, o) => ops.push(...o), logger: pino({ level: 'silent' }) });
  const ids = new Map<string, string>();
  const pid = async (name: string): Promise<string> => {
    let id = ids.get(name);
    if (!id) {
      id = (await graph.createParticipant('bench', { name })).id;
      ids.set(name, id);
    }
    return id;
  };

  const fresh: number[] = [];
  const baseline: number[] = [];
  let misses = 0;
  let clock = Date.parse('2023-05-08T13:00:00.000Z');
  for (const [i, r] of rows.entries()) {
    const sessionId = `c${r.conv_id}-s${r.session}`;
    await graph.openSession('bench', sessionId, new Date(clock).toISOString());
    clock += 30_000;
    const [u] = await graph.addUtterances('bench', [{ sessionId, speakerId: await pid(r.speaker), addresseeIds: [await pid(r.addressee)],
      text: r.text, startMs: null, endMs: null, time: new Date(clock).toISOString(), confidence: null, audioRef: null }]);
    if (!u) continue;
    const t0 = performance.now();
    const before = ops.length;
    await handler({ id: `j${i}`, name: 'memory.consolidate', attempt: 1, data: { tenant: 'bench', sessionId, utteranceId: u.id } }, new AbortController().signal);
    // Searchable check: the utterance by vector and lexical search, and each new fact by vector.
    const [q] = await embedder.embed([u.text]);
    const vHit = (await vectors.search('bench', collectionFor('interaction'), q as Float32Array, 3)).some((h) => h.id === u.id);
    const lHit = (await lexical.search('bench', u.text, 10, { layer: 'interaction' })).some((h) => h.id === u.id);
    const newFacts = ops.slice(before).filter((o) => o.op === 'ADD' || o.op === 'UPDATE');
    let fHit = true;
    for (const f of newFacts) {
      const fact = await memory.getFact('bench', f.memory_id);
      const hits = fact ? await vectors.search('bench', collectionFor(fact.layer), (await embedder.embed([fact.content]))[0] as Float32Array, 3) : [];
      fHit &&= hits.some((h) => h.id === f.memory_id);
    }
    fresh.push(performance.now() - t0);
    if (!(vHit && lHit && fHit)) misses++;
    // Baseline in the same run: embed + index the raw utterance only (no extraction or consolidation).
    const b0 = performance.now();
    const [bv] = await embedder.embed([u.text]);
    await vectors.upsert('bench', 'baseline_raw', [{ id: u.id, vector: bv as Float32Array, payload: { layer: 'interaction' } }]);
    await lexical.index('bench', [{ id: `raw_${u.id}`, text: u.text, layer: 'baseline' }]);
    baseline.push(performance.now() - b0);
  }
  const counts = ops.reduce<Record<string, number>>((acc, o) => ({ ...acc, [o.op]: (acc[o.op] ?? 0) + 1 }), {});
  console.log(`LoCoMo turns: ${fresh.length} (first ${limit} rows of locomo_turns.jsonl), ops: ${JSON.stringify(counts)}, not searchable after the job: ${misses}`);
  console.log('| path | p50 ms | p95 ms | max ms |');
  console.log('|---|---|---|---|');
  console.log(`| Parley consolidation job (extract + decide + write + index) then search check | ${pct(fresh, 0.5).toFixed(1)} | ${pct(fresh, 0.95).toFixed(1)} | ${Math.max(...fresh).toFixed(1)} |`);
  console.log(`| baseline: embed + index raw utterance only (same run) | ${pct(baseline, 0.5).toFixed(1)} | ${pct(baseline, 0.95).toFixed(1)} | ${Math.max(...baseline).toFixed(1)} |`);
  console.log('| anchor (published, not measured here): Graphiti ingest | ~12000 per message | | |');
  console.log('| anchor (published, not measured here): Mem0 add | 4000–20000 | | |');
  await embedder.close();
  db.close();
}

await main();
