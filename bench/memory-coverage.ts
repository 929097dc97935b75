/**
 * Memory coverage and lifecycle on scripted conversations written for this bench
 * (bench/data/scenarios.jsonl: a community-garden meeting and a clinic call, 40 turns). Each turn is
 * labelled informative or not; some are outcomes that must close an earlier turn's fact (a plan
 * decided otherwise, a commitment done or cancelled, a move). Turns run in order through the real
 * consolidation handler (embedded extractor, USE-lite, SQLite), one tenant per scenario.
 *
 * - coverage: share of informative turns that yield a memory op (ADD / UPDATE / DELETE / KEEP);
 * - noise: share of non-informative turns that yield one;
 * - lifecycle accuracy: share of outcomes whose earlier fact is closed the expected way
 *   (superseded = UPDATE, closed without a replacement = DELETE), and of temporary states ("for a
 *   month", "until Friday", labelled `until`) whose fact carries that end (`validUntil`); the
 *   temporary states are also reported on their own.
 *
 *   npm run build && node dist/bench/memory-coverage.js
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

interface Turn {
  scenario: string; turn: number; speaker: string; addressee: string; text: string; informative: boolean;
  closes?: number; expect?: 'UPDATE' | 'DELETE';
  /** A temporary state: the ISO-8601 end its fact must carry. */
  until?: string;
}

/** Display names at the start: the caller is unknown until they introduce themself. */
const START_NAMES: Record<string, string | null> = { Tom: 'Tom', Lena: 'Lena', Agent: 'Rita', Caller: null };

async function main(): Promise<void> {
  const file = path.join(repoRoot(), 'bench', 'data', 'scenarios.jsonl');
  const turns = readFileSync(file, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as Turn);
  const db = openDatabase(':memory:');
  const graph = new SqliteGraphStore(db);
  const memory = new SqliteMemoryStore(db);
  const embedder = new UseLiteEmbedder();
  let ops: MemoryOp[] = [];
  const handler = createConsolidationHandler({
    graph, memory, vectors: new SqliteVectorStore(db), lexical: new SqliteLexicalIndex(db), embedder,
    extractor: new EmbeddedExtractor(), onOps: (_t, _s, o) => ops.push(...o), logger: pino({ level: 'silent' }),
  });
  for (const scenario of [...new Set(turns.map((t) => t.scenario))]) {
    const tenant = scenario;
    const ids = new Map<string, string>();
    const utterance = new Map<number, string>();
    const who = async (name: string): Promise<string> => {
      if (!ids.has(name)) ids.set(name, (await graph.createParticipant(tenant, { name: START_NAMES[name] ?? null })).id);
      return ids.get(name)!;
    };
    await graph.openSession(tenant, 's', '2026-12-01T10:00:00.000Z');
    let informative = 0, covered = 0, quiet = 0, noisy = 0, outcomes = 0, closedRight = 0, states = 0, endsRight = 0;
    const misses: string[] = [];
    for (const t of turns.filter((x) => x.scenario === scenario)) {
      const [u] = await graph.addUtterances(tenant, [{ sessionId: 's', speakerId: await who(t.speaker), addresseeIds: [await who(t.addressee)],
        text: t.text, startMs: null, endMs: null, time: new Date(Date.parse('2026-12-01T10:00:00.000Z') + t.turn * 60_000).toISOString(),
        confidence: null, audioRef: null }]);
      utterance.set(t.turn, u!.id);
      ops = [];
      await handler({ id: `${tenant}-${t.turn}`, name: 'memory.consolidate', attempt: 1, data: { tenant, sessionId: 's', utteranceId: u!.id } },
        new AbortController().signal);
      if (t.informative) {
        informative++;
        if (ops.length > 0) covered++;
        else misses.push(`  no memory: ${scenario} ${t.turn} "${t.text}"`);
      } else {
        quiet++;
        if (ops.length > 0) {
          noisy++;
          misses.push(`  noise: ${scenario} ${t.turn} "${t.text}" -> ${ops.map((o) => o.text).join(' | ')}`);
        }
      }
      if (t.closes !== undefined && t.expect) {
        outcomes++;
        const earlier = (await memory.processedFacts(tenant, utterance.get(t.closes) ?? '')) ?? [];
        const facts = await memory.listFacts(tenant, { ids: earlier, includeHistory: true });
        const got = facts.some((f) => f.validTo !== null && f.supersededBy !== null) ? 'UPDATE'
          : facts.some((f) => f.validTo !== null) ? 'DELETE' : 'open';
        if (got === t.expect) closedRight++;
        else misses.push(`  lifecycle: ${scenario} ${t.turn} expected ${t.expect} of turn ${t.closes}, got ${got}`);
      }
      if (t.until) {
        states++;
        const made = (await memory.processedFacts(tenant, u!.id)) ?? [];
        const facts = await memory.listFacts(tenant, { ids: made, includeHistory: true });
        // Read without the field's type, so this bench also runs against code from before `validUntil`.
        const ends = facts.map((f) => (f as { validUntil?: string | null }).validUntil ?? null);
        if (ends.includes(t.until)) endsRight++;
        else misses.push(`  lifecycle: ${scenario} ${t.turn} "${t.text}" expected end ${t.until}, got ${JSON.stringify(ends)}`);
      }
    }
    console.log(`${scenario}: coverage ${covered}/${informative} = ${(covered / informative).toFixed(2)}, ` +
      `noise ${noisy}/${quiet} = ${(noisy / quiet).toFixed(2)}, lifecycle ${closedRight + endsRight}/${outcomes + states} = ${((closedRight + endsRight) / (outcomes + states)).toFixed(2)}` +
      ` (closings ${closedRight}/${outcomes}${states > 0 ? `, temporary-state ends ${endsRight}/${states}` : ''})`);
    if (process.argv.includes('--show') && scenario === 'garden') for (const m of misses) console.log(m);
  }
  await embedder.close();
  db.close();
}

await main();
