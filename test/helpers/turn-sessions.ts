import { after, before } from 'node:test';
import pino from 'pino';
import { openDatabase } from '../../graph/sqlite/database.js';
import { SqliteGraphStore } from '../../graph/sqlite/sqlite-graph-store.js';
import { SqliteLexicalIndex } from '../../graph/sqlite/sqlite-lexical-index.js';
import { SqliteMemoryStore } from '../../graph/sqlite/sqlite-memory-store.js';
import { SqliteVectorStore } from '../../graph/sqlite/sqlite-vector-store.js';
import { UseLiteEmbedder } from '../../pipelines/embeddings/use-lite-embedder.js';
import { createConsolidationHandler, type MemoryOp } from '../../pipelines/memory/consolidate.js';
import { EmbeddedExtractor } from '../../pipelines/memory/embedded-extractor.js';

/** Real SQLite stores, real USE-lite and the embedded extractor, consolidating one turn per session. */
export interface TurnSessions {
  memory: SqliteMemoryStore;
  /** Participant ids by name. */
  people: Record<string, string>;
  /**
   * One utterance in a session of its own, `stepMs` after the previous one (or at `at`, an ISO time, e.g. an import of
   * an older conversation), consolidated before this returns: its ops. `sessionId`: said in that session instead (opened
   * on its first turn), as the turns of one conversation are.
   */
  say(speakerId: string, addresseeId: string, text: string, at?: string, sessionId?: string): Promise<MemoryOp[]>;
  close(): Promise<void>;
}

/** {@link TurnSessions} for `names` in `tenant`, the first turn `stepMs` after `start`. */
export async function turnSessions(tenant: string, names: string[], start: string, stepMs: number): Promise<TurnSessions> {
  const db = openDatabase(':memory:');
  const graph = new SqliteGraphStore(db);
  const memory = new SqliteMemoryStore(db);
  const embedder = new UseLiteEmbedder();
  const ops: MemoryOp[] = [];
  const handler = createConsolidationHandler({ graph, memory, vectors: new SqliteVectorStore(db), lexical: new SqliteLexicalIndex(db), embedder,
    extractor: new EmbeddedExtractor(), onOps: (_t, _s, o) => ops.push(...o), logger: pino({ level: 'silent' }) });
  const people: Record<string, string> = {};
  for (const name of names) people[name] = (await graph.createParticipant(tenant, { name })).id;
  let n = 0;
  const opened = new Set<string>();
  return {
    memory, people,
    async say(speakerId, addresseeId, text, at, sessionId) {
      n++;
      const time = at ?? new Date(Date.parse(start) + n * stepMs).toISOString();
      const session = sessionId ?? `s${n}`;
      if (!opened.has(session)) await graph.openSession(tenant, session, time);
      opened.add(session);
      const [u] = await graph.addUtterances(tenant, [{ sessionId: session, speakerId, addresseeIds: [addresseeId], text,
        startMs: null, endMs: null, time, confidence: null, audioRef: null }]);
      const before = ops.length;
      await handler({ id: `j${n}`, name: 'memory.consolidate', attempt: 1, data: { tenant, sessionId: session, utteranceId: u!.id } }, new AbortController().signal);
      return ops.slice(before);
    },
    async close() {
      await embedder.close();
      db.close();
    },
  };
}

/**
 * {@link turnSessions} for the tests of a `describe`: opened before them, closed after them. The returned object is filled
 * in when it has opened: read it inside tests, not while declaring them.
 */
export function turnSessionsForSuite(tenant: string, names: string[], start: string, stepMs: number): TurnSessions {
  const fx = {} as TurnSessions;
  before(async () => {
    Object.assign(fx, await turnSessions(tenant, names, start, stepMs));
  });
  after(() => (fx as Partial<TurnSessions>).close?.());
  return fx;
}
