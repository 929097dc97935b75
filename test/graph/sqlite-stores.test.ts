import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
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

describe('sqlite fts5: words in half of all documents or more', () => {
  it('are dropped from the query without changing the ranking of the rest', async () => {
    const { value: index, cleanup } = await withDb((db) => new SqliteLexicalIndex(db))();
    try {
      // 1,200 documents all holding "talked"; "ferry" in 3 of them, twice in the first.
      const docs = Array.from({ length: 1200 }, (_, i) => ({
        id: `d${i}`, layer: 'interaction',
        text: i === 7 ? 'we talked about the ferry and the ferry timetable' : i === 70 || i === 700 ? `she talked about a ferry ride number ${i}` : `he talked about item ${i}`,
      }));
      await index.index('t', docs);
      const hits = await index.search('t', 'talked ferry', 10);
      assert.deepEqual(hits.map((h) => h.id).sort(), ['d7', 'd70', 'd700']);
      assert.equal(hits[0]!.id, 'd7');
      const ferryOnly = await index.search('t', 'ferry', 10);
      assert.deepEqual(hits.map((h) => h.id), ferryOnly.map((h) => h.id));
      // A query of common words only is kept whole.
      assert.equal((await index.search('t', 'talked', 5)).length, 5);
      // Inside a pool and with a speaker-free layer filter the same holds.
      const pooled = await index.search('t', 'talked ferry', 10, { ids: ['d7', 'd8', 'd700'], layer: 'interaction' });
      assert.deepEqual(pooled.map((h) => h.id), ['d7', 'd700']);
    } finally {
      await cleanup();
    }
  });

  it('are kept while the index is small', async () => {
    const { value: index, cleanup } = await withDb((db) => new SqliteLexicalIndex(db))();
    try {
      await index.index('t', [{ id: 'a', layer: 'x', text: 'cat food' }, { id: 'b', layer: 'x', text: 'cat toys' }]);
      assert.deepEqual((await index.search('t', 'cat bowl', 5)).map((h) => h.id).sort(), ['a', 'b']);
    } finally {
      await cleanup();
    }
  });
});
