/**
 * The four stores a consolidation job writes, on SQLite or on the Neo4j test server, and a view of them whose writes
 * can be made to fail from a chosen one on (a worker killed in the middle of a job), for the re-run tests.
 */
import type { GraphStore } from '../../graph/graph-store.js';
import type { LexicalIndex } from '../../graph/lexical-index.js';
import type { MemoryStore } from '../../graph/memory-store.js';
import type { VectorStore } from '../../graph/vector-store.js';
import { Neo4jGraphStore } from '../../graph/neo4j/neo4j-graph-store.js';
import { Neo4jLexicalIndex } from '../../graph/neo4j/neo4j-lexical-index.js';
import { Neo4jMemoryStore } from '../../graph/neo4j/neo4j-memory-store.js';
import { Neo4jVectorStore } from '../../graph/neo4j/neo4j-vector-store.js';
import { openDatabase } from '../../graph/sqlite/database.js';
import { SqliteGraphStore } from '../../graph/sqlite/sqlite-graph-store.js';
import { SqliteLexicalIndex } from '../../graph/sqlite/sqlite-lexical-index.js';
import { SqliteMemoryStore } from '../../graph/sqlite/sqlite-memory-store.js';
import { SqliteVectorStore } from '../../graph/sqlite/sqlite-vector-store.js';
import { neo4jTestOptions } from './stores.js';

/** The four stores a consolidation job writes. */
export interface JobStores {
  graph: GraphStore;
  memory: MemoryStore;
  vectors: VectorStore;
  lexical: LexicalIndex;
}

/** Stores of one test file, released by `dispose`. */
export type OpenJobStores = JobStores & { dispose(): Promise<void> };

/** Every store on one in-memory SQLite database. */
export function sqliteJobStores(): OpenJobStores {
  const db = openDatabase(':memory:');
  return {
    graph: new SqliteGraphStore(db), memory: new SqliteMemoryStore(db), vectors: new SqliteVectorStore(db), lexical: new SqliteLexicalIndex(db),
    dispose: async () => { db.close(); },
  };
}

/** Every store on the Neo4j test server (`NEO4J_URI`), under a tenant prefix of their own, erased by `dispose`. */
export function neo4jJobStores(label: string): OpenJobStores {
  const options = neo4jTestOptions(label);
  const all = { graph: new Neo4jGraphStore(options), memory: new Neo4jMemoryStore(options), vectors: new Neo4jVectorStore(options), lexical: new Neo4jLexicalIndex(options) };
  return {
    ...all,
    dispose: async () => {
      for (const s of Object.values(all)) {
        await s.eraseAll();
        await s.close();
      }
    },
  };
}

/** A view of `target` whose methods named in `writes` call `gate` first (which throws once the process is "dead"). */
export function gated<T extends object>(target: T, writes: ReadonlySet<string>, gate: () => void): T {
  return new Proxy(target, {
    get(obj, key) {
      const value = Reflect.get(obj, key) as unknown;
      if (typeof value !== 'function') return value;
      const fn = value as (...args: unknown[]) => unknown;
      if (typeof key !== 'string' || !writes.has(key)) return fn.bind(obj);
      return (...args: unknown[]) => {
        gate();
        return fn.apply(obj, args);
      };
    },
  });
}

/** `gated` over each of the four stores, with one gate. */
export function gatedJobStores(s: JobStores, writes: ReadonlySet<string>, gate: () => void): JobStores {
  return { graph: gated(s.graph, writes, gate), memory: gated(s.memory, writes, gate), vectors: gated(s.vectors, writes, gate), lexical: gated(s.lexical, writes, gate) };
}
