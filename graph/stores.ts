import type { GraphStore } from './graph-store.js';
import type { SqliteDatabase } from './sqlite/database.js';
import type { JobQueue } from './job-queue.js';
import type { LexicalIndex } from './lexical-index.js';
import type { VectorStore } from './vector-store.js';

/** Every backend the server and workers use, behind their interfaces. */
export interface Stores {
  graph: GraphStore;
  vectors: VectorStore;
  lexical: LexicalIndex;
  queue: JobQueue;
  /**
   * The embedded SQLite handle when the embedded stores are in use; other embedded stores
   * (memory, voiceprints) open their tables on it.
   */
  sqlite: SqliteDatabase;
  /** Close the queue first (letting running jobs finish), then the stores. */
  close(timeoutMs?: number): Promise<void>;
}
