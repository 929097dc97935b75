import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import path from 'node:path';
import { openDatabase, type SqliteDatabase } from '../../graph/sqlite/database.js';
import { SqliteVectorStore } from '../../graph/sqlite/sqlite-vector-store.js';
import { tempDir } from '../helpers/temp-dir.js';

/*
 * Embedded mode with a separate worker: the server and `npm run worker` are two processes, each with
 * its own SQLite connection to DATA_DIR/parley.db and its own in-memory mirror of the vectors. Two
 * store instances on two connections to one file are exactly that (SQLite cannot tell them from two
 * processes): what one writes, the other's search must see, including deletions.
 */

const SPACE = { model: 'test-model', dimension: 4 };
const T = 'default';
const C = 'fact';
const v = (...xs: number[]): Float32Array => Float32Array.from(xs);
const ids = (hits: { id: string }[]): string[] => hits.map((h) => h.id).sort();

describe('SqliteVectorStore: two connections on one DATA_DIR (server and separate worker)', () => {
  const tmp = tempDir();
  let serverDb: SqliteDatabase;
  let workerDb: SqliteDatabase;
  let server: SqliteVectorStore;
  let worker: SqliteVectorStore;
  const everything = async (store: SqliteVectorStore) => store.search(T, C, v(1, 0, 0, 0), 100);

  before(() => {
    const file = path.join(tmp.dir, 'parley.db');
    serverDb = openDatabase(file);
    workerDb = openDatabase(file);
    server = new SqliteVectorStore(serverDb);
    worker = new SqliteVectorStore(workerDb);
  });
  after(() => {
    serverDb.close();
    workerDb.close();
    tmp.remove();
  });

  test("a search sees points the other process wrote after this one's mirror was loaded", async () => {
    await worker.ensureCollection(C, SPACE);
    await worker.upsert(T, C, [{ id: 'a', vector: v(1, 0, 0, 0), payload: { layer: 'fact' } }]);
    assert.deepEqual(ids(await everything(server)), ['a'], 'first load');
    // The server's mirror is loaded now; the worker keeps writing.
    await worker.upsert(T, C, [{ id: 'b', vector: v(0, 1, 0, 0), payload: { layer: 'fact', speakerId: 'p_1' } }]);
    assert.deepEqual(ids(await everything(server)), ['a', 'b']);
    assert.deepEqual(ids(await server.search(T, C, v(0, 1, 0, 0), 5, { speakerId: 'p_1' })), ['b'], 'filters see the new payload');
    // A point written again moves; a deleted one goes.
    await worker.upsert(T, C, [{ id: 'a', vector: v(0, 0, 1, 0), payload: { layer: 'fact' } }]);
    await worker.delete(T, C, ['b']);
    const hits = await server.search(T, C, v(0, 0, 1, 0), 5);
    assert.deepEqual(ids(hits), ['a']);
    assert.ok(Math.abs((hits[0]?.score ?? 0) - 1) < 1e-6, 'the vector written last');
  });

  test('writes of both sides interleave; deleted then written again stays', async () => {
    await server.upsert(T, C, [{ id: 's1', vector: v(0, 0, 0, 1), payload: { layer: 'fact' } }]);
    await worker.upsert(T, C, [{ id: 'w1', vector: v(1, 1, 0, 0), payload: { layer: 'fact' } }]);
    await server.upsert(T, C, [{ id: 's2', vector: v(1, 0, 1, 0), payload: { layer: 'fact' } }]);
    await worker.delete(T, C, ['s1']);
    await worker.upsert(T, C, [{ id: 's1', vector: v(0, 1, 1, 0), payload: { layer: 'fact', sessionId: 'again' } }]);
    for (const [name, store] of [['server', server], ['worker', worker]] as const) {
      assert.deepEqual(ids(await everything(store)), ['a', 's1', 's2', 'w1'], name);
      assert.deepEqual(ids(await store.search(T, C, v(0, 1, 1, 0), 5, { sessionId: 'again' })), ['s1'], name);
    }
    assert.equal(await server.count(T, C), 4);
  });

  test('a collection dropped and created again by the other process is read afresh', async () => {
    await everything(server);
    await worker.dropCollection(C);
    await worker.ensureCollection(C, SPACE);
    await worker.upsert(T, C, [{ id: 'fresh', vector: v(1, 0, 0, 0), payload: { layer: 'fact' } }]);
    assert.deepEqual(ids(await everything(server)), ['fresh']);
  });

  test('other tenants and collections of the file stay apart', async () => {
    await worker.upsert('other', C, [{ id: 'x', vector: v(1, 0, 0, 0), payload: { layer: 'fact' } }]);
    assert.deepEqual(ids(await everything(server)), ['fresh']);
    assert.deepEqual(ids(await server.search('other', C, v(1, 0, 0, 0), 5)), ['x']);
  });
});
