import path from 'node:path';
import { openDatabase, type SqliteDatabase } from '../../graph/sqlite/database.js';
import { SqliteGraphStore } from '../../graph/sqlite/sqlite-graph-store.js';
import { SqliteJobQueue } from '../../graph/sqlite/sqlite-job-queue.js';
import { SqliteLexicalIndex } from '../../graph/sqlite/sqlite-lexical-index.js';
import { SqliteVectorStore } from '../../graph/sqlite/sqlite-vector-store.js';
import { tempDir } from '../helpers/temp-dir.js';
import { graphStoreContract } from './contracts/graph-store.contract.js';
import { jobQueueContract } from './contracts/job-queue.contract.js';
import { lexicalIndexContract } from './contracts/lexical-index.contract.js';
import { vectorStoreContract } from './contracts/vector-store.contract.js';

/** Each fixture gets its own database file, closed and removed afterwards. */
function withDb<T>(make: (db: SqliteDatabase) => T): () => Promise<{ value: T; db: SqliteDatabase; cleanup(): Promise<void> }> {
  return async () => {
    const tmp = tempDir();
    const db = openDatabase(path.join(tmp.dir, 'parley.db'));
    return { value: make(db), db, cleanup: async () => { db.close(); tmp.remove(); } };
  };
}

graphStoreContract('sqlite', async () => {
  const { value, cleanup } = await withDb((db) => new SqliteGraphStore(db))();
  return { store: value, cleanup };
});

vectorStoreContract('sqlite', async () => {
  const { value, cleanup } = await withDb((db) => new SqliteVectorStore(db))();
  return { store: value, cleanup };
});

lexicalIndexContract('sqlite fts5', async () => {
  const { value, cleanup } = await withDb((db) => new SqliteLexicalIndex(db))();
  return { index: value, cleanup };
});

jobQueueContract('sqlite (in-process)', async () => {
  const tmp = tempDir();
  const file = path.join(tmp.dir, 'parley.db');
  const handles: { db: SqliteDatabase; queue: SqliteJobQueue }[] = [];
  const open = (): SqliteJobQueue => {
    const db = openDatabase(file);
    const queue = new SqliteJobQueue(db, { pollMs: 10 });
    handles.push({ db, queue });
    return queue;
  };
  return {
    queue: open(),
    reopen: async () => open(),
    cleanup: async () => {
      for (const h of handles) {
        await h.queue.close(1000);
        h.db.close();
      }
      tmp.remove();
    },
  };
});
