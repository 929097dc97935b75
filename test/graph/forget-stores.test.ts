import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Neo4jGraphStore } from '../../graph/neo4j/neo4j-graph-store.js';
import { Neo4jMemoryStore } from '../../graph/neo4j/neo4j-memory-store.js';
import { openDatabase } from '../../graph/sqlite/database.js';
import { SqliteGraphStore } from '../../graph/sqlite/sqlite-graph-store.js';
import { SqliteMemoryStore } from '../../graph/sqlite/sqlite-memory-store.js';
import { forgetContract } from './contracts/forget.contract.js';
import { NEO4J_SKIP, neo4jTestOptions } from '../helpers/stores.js';

forgetContract('sqlite', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'parley-forget-'));
  const db = openDatabase(path.join(dir, 'parley.db'));
  return {
    graph: new SqliteGraphStore(db), memory: new SqliteMemoryStore(db),
    cleanup: async () => {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

forgetContract('neo4j', async () => {
  const graph = new Neo4jGraphStore(neo4jTestOptions('test-forget'));
  const memory = new Neo4jMemoryStore(neo4jTestOptions('test-forget-mem'));
  return {
    graph, memory,
    cleanup: async () => {
      await graph.eraseAll();
      await memory.eraseAll();
      await graph.close();
      await memory.close();
    },
  };
}, NEO4J_SKIP);
