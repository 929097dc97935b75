import type { EntityIndex } from './entity-index.js';
import type { GraphStore } from './graph-store.js';
import type { JobQueue } from './job-queue.js';
import type { KeyedLock } from './keyed-lock.js';
import type { LexicalIndex } from './lexical-index.js';
import type { MemoryStore } from './memory-store.js';
import type { SqliteDatabase } from './sqlite/database.js';
import type { VectorStore } from './vector-store.js';
import type { VoiceprintStore } from './voiceprint-store.js';

/** Every backend the server and workers use, behind their interfaces. */
export interface Stores {
  /** Interaction graph: participants, utterances, SPEAKS / ADDRESSES. */
  graph: GraphStore;
  /** Facts, profiles and persona (long-term memory). */
  memory: MemoryStore;
  /** The left brain's schema–entity index (ids of memories per entity, entity links). */
  entities: EntityIndex;
  /** Speaker prototypes per tenant. */
  voiceprints: VoiceprintStore;
  vectors: VectorStore;
  lexical: LexicalIndex;
  queue: JobQueue;
  /**
   * Serialises consolidation per subject wherever the queue's jobs run: in the SQLite file with the
   * embedded queue (which processes on this machine may share), on Redis with the Redis queue.
   */
  locks: KeyedLock;
  /**
   * The embedded SQLite handle. Always open: embedded stores live in it, and networked deployments
   * keep their outbox of not-yet-forwarded writes there.
   */
  sqlite: SqliteDatabase;
  /**
   * Run `work` (writes to the graph, lexical index and queue) as one commit where those stores share
   * the embedded database, directly or through its outbox (the Redis queue, Qdrant's keyword index):
   * with a SQLite graph and no Neo4j vectors. Elsewhere (a Neo4j graph) it simply runs. `work` must
   * not wait on anything but the stores. Store calls from outside `work` wait for it to end rather than
   * join its transaction (`ConnectionGate`), so its rollback never undoes them; so `work` must not wait
   * on another request either, nor be started from inside a store call.
   */
  atomically<T>(work: () => Promise<T>): Promise<T>;
  /** Close the queue first (letting running jobs finish), then the stores. */
  close(timeoutMs?: number): Promise<void>;
}
