/**
 * Does consolidation cost per turn grow with conversation length? LoCoMo conversations are
 * concatenated into one session of `--turns` turns (default 1,500) with the two speakers of each
 * conversation as participants; every turn is stored and consolidated in order by the real handler
 * (embedded extractor, USE-lite, SQLite in memory). Reports turns per minute over the first and the
 * last `--window` turns (default 200), from wall time and from process CPU time, and the per-turn
 * p50 / p95 in each window.
 *
 *   npm run build && node dist/bench/consolidation-scale.js [--turns N] [--window N]
 */
import os from 'node:os';
import { pino } from 'pino';
import { openDatabase } from '../graph/sqlite/database.js';
import { SqliteGraphStore } from '../graph/sqlite/sqlite-graph-store.js';
import { SqliteMemoryStore } from '../graph/sqlite/sqlite-memory-store.js';
import { SqliteVectorStore } from '../graph/sqlite/sqlite-vector-store.js';
import { SqliteLexicalIndex } from '../graph/sqlite/sqlite-lexical-index.js';
import { UseLiteEmbedder } from '../pipelines/embeddings/use-lite-embedder.js';
import { EmbeddedExtractor } from '../pipelines/memory/embedded-extractor.js';
import { createConsolidationHandler } from '../pipelines/memory/consolidate.js';
import { argNumber, loadLocomoTurns, percentile } from './lib/locomo.js';

const TENANT = 'bench';
const SESSION = 'long';

async function main(): Promise<void> {
  const all = loadLocomoTurns();
  if (!all) return;
  const want = argNumber('turns', 1500);
  const window = argNumber('window', 200);
  const turns = [...all.values()].flat().slice(0, want);
  const db = openDatabase(':memory:');
  const graph = new SqliteGraphStore(db);
  const memory = new SqliteMemoryStore(db);
  const embedder = new UseLiteEmbedder();
  const handler = createConsolidationHandler({
    graph, memory, vectors: new SqliteVectorStore(db), lexical: new SqliteLexicalIndex(db), embedder,
    extractor: new EmbeddedExtractor(), onOps: () => undefined, logger: pino({ level: 'silent' }),
  });
  const start = Date.UTC(2023, 0, 1);
  await graph.openSession(TENANT, SESSION, new Date(start).toISOString());
  const ids = new Map<string, string>();
  const person = async (conv: string, name: string): Promise<string> => {
    const key = `${conv}/${name}`;
    if (!ids.has(key)) ids.set(key, (await graph.createParticipant(TENANT, { name })).id);
    return ids.get(key)!;
  };
  await embedder.embed(['warm up']);
  const perTurn: number[] = [];
  const cpuPerTurn: number[] = [];
  for (const [i, t] of turns.entries()) {
    const [u] = await graph.addUtterances(TENANT, [{
      sessionId: SESSION, speakerId: await person(t.conv_id, t.speaker), addresseeIds: [await person(t.conv_id, t.addressee)],
      text: t.text, startMs: null, endMs: null, time: new Date(start + i * 30_000).toISOString(), confidence: null, audioRef: null,
    }]);
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    await handler({ id: `j${i}`, name: 'memory.consolidate', attempt: 1, data: { tenant: TENANT, sessionId: SESSION, utteranceId: u!.id } },
      new AbortController().signal);
    perTurn.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpuPerTurn.push((c.user + c.system) / 1000);
    if ((i + 1) % 250 === 0) process.stderr.write(`  ${i + 1} turns\n`);
  }
  const facts = (await memory.listFacts(TENANT, { includeHistory: true, limit: 1000 })).length;
  const rate = (ms: number[]): string => (ms.length / (ms.reduce((a, b) => a + b, 0) / 60_000)).toFixed(0);
  const row = (name: string, ms: number[], cpu: number[]): string =>
    `| ${name} | ${ms.length} | ${rate(ms)} | ${rate(cpu)} | ${percentile(ms, 50).toFixed(1)} / ${percentile(ms, 95).toFixed(1)} |`;
  console.log(`consolidation-scale: ${turns.length} LoCoMo turns in one session, ${facts}${facts === 1000 ? '+' : ''} facts; ${os.cpus().length} cores, Node ${process.version}`);
  // CPU time (all threads of this process, the embedder worker included) is less disturbed than
  // wall time when other work shares the machine.
  console.log('| window | turns | turns/min, wall | turns/min, process CPU time | per turn wall p50 / p95 ms |');
  console.log('|---|---|---|---|---|');
  console.log(row(`first ${window}`, perTurn.slice(0, window), cpuPerTurn.slice(0, window)));
  console.log(row(`last ${window}`, perTurn.slice(-window), cpuPerTurn.slice(-window)));
  await embedder.close();
  db.close();
}

await main();
