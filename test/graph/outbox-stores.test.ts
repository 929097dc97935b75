import assert from 'node:assert/strict';
import { test } from 'node:test';
import { OutboxForwarder } from '../../graph/outbox/outbox-forwarder.js';
import {
  lexicalOutboxHandler, LEXICAL_TARGET, OutboxLexicalIndex, OutboxVectorStore, vectorOutboxHandler, VECTORS_TARGET,
} from '../../graph/outbox/outbox-stores.js';
import { Outbox } from '../../graph/outbox/outbox.js';
import { openDatabase } from '../../graph/sqlite/database.js';
import { SqliteLexicalIndex } from '../../graph/sqlite/sqlite-lexical-index.js';
import { SqliteVectorStore } from '../../graph/sqlite/sqlite-vector-store.js';
import type { VectorStore } from '../../graph/vector-store.js';
import { lexicalIndexContract } from './contracts/lexical-index.contract.js';
import { vectorStoreContract } from './contracts/vector-store.contract.js';

// The write-through wrappers must keep the store contracts: run them over embedded backends.
vectorStoreContract('sqlite behind the outbox', async () => {
  const db = openDatabase(':memory:');
  const outbox = new Outbox(db);
  const inner = new SqliteVectorStore(db);
  const forwarder = new OutboxForwarder(outbox, { [VECTORS_TARGET]: vectorOutboxHandler(inner) });
  return { store: new OutboxVectorStore(inner, outbox, forwarder), cleanup: async () => { await forwarder.stop(); db.close(); } };
});

lexicalIndexContract('sqlite fts5 behind the outbox', async () => {
  const db = openDatabase(':memory:');
  const outbox = new Outbox(db);
  const inner = new SqliteLexicalIndex(db);
  const forwarder = new OutboxForwarder(outbox, { [LEXICAL_TARGET]: lexicalOutboxHandler(inner) });
  return { index: new OutboxLexicalIndex(inner, outbox, forwarder), cleanup: async () => { await forwarder.stop(); db.close(); } };
});

test('vector writes made during an outage are acknowledged and applied, in order, once the store is back', async () => {
  const db = openDatabase(':memory:');
  const outbox = new Outbox(db);
  const real = new SqliteVectorStore(db);
  let up = false;
  // A real store behind a switch that refuses like an unreachable server does.
  const gated: VectorStore = Object.create(real) as VectorStore;
  gated.upsert = async (...args) => { if (!up) throw new Error('connect ECONNREFUSED'); return real.upsert(...args); };
  gated.delete = async (...args) => { if (!up) throw new Error('connect ECONNREFUSED'); return real.delete(...args); };
  const forwarder = new OutboxForwarder(outbox, { [VECTORS_TARGET]: vectorOutboxHandler(gated) }, { baseBackoffMs: 5 });
  const store = new OutboxVectorStore(gated, outbox, forwarder);
  await real.ensureCollection('facts', { model: 'm', dimension: 2 });
  await store.upsert('t1', 'facts', [{ id: 'a', vector: Float32Array.from([1, 0]), payload: { layer: 'fact' } }]);
  await store.upsert('t1', 'facts', [{ id: 'b', vector: Float32Array.from([0, 1]), payload: { layer: 'fact' } }]);
  await store.delete('t1', 'facts', ['a']);
  assert.equal(await real.count('t1', 'facts'), 0);
  assert.equal(outbox.pending(VECTORS_TARGET), 3);
  up = true;
  await forwarder.flush(5000);
  const hits = await real.search('t1', 'facts', Float32Array.from([1, 1]), 5);
  assert.deepEqual(hits.map((h) => h.id), ['b'], 'the delete of a came after its upsert');
  db.close();
});
