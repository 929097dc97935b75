import assert from 'node:assert/strict';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { OutboxForwarder } from '../../graph/outbox/outbox-forwarder.js';
import { OutboxJobQueue, queueOutboxHandler, QUEUE_TARGET } from '../../graph/outbox/outbox-job-queue.js';
import { LEXICAL_TARGET, lexicalOutboxHandler, OutboxLexicalIndex } from '../../graph/outbox/outbox-stores.js';
import { Outbox } from '../../graph/outbox/outbox.js';
import { BullmqJobQueue } from '../../graph/redis/bullmq-job-queue.js';
import { openDatabase, sqliteAtomically } from '../../graph/sqlite/database.js';
import { SqliteLexicalIndex } from '../../graph/sqlite/sqlite-lexical-index.js';
import { deleteKeys, redisSkipReason, TEST_REDIS_URL } from '../helpers/redis.js';
import { tempDir } from '../helpers/temp-dir.js';

const skip = await redisSkipReason();
const prefix = `parley-fixq-tx-${process.pid}-${Date.now()}`;

after(async () => {
  if (!skip) await deleteKeys(prefix, TEST_REDIS_URL);
});

describe('the Redis queue behind the outbox inside Stores.atomically', { skip }, () => {
  test('a job enqueued in a transaction reaches Redis only if the transaction commits, and then without a poll', async () => {
    const tmp = tempDir();
    const db = openDatabase(path.join(tmp.dir, 'parley.db'));
    db.exec('CREATE TABLE rows (id TEXT PRIMARY KEY)');
    const outbox = new Outbox(db);
    const inner = new BullmqJobQueue({ url: TEST_REDIS_URL, prefix });
    // No `start()`: nothing but the enqueue itself may hand the job over.
    const forwarder = new OutboxForwarder(outbox, { [QUEUE_TARGET]: queueOutboxHandler(inner) });
    const queue = new OutboxJobQueue(inner, outbox, forwarder);
    const atomically = sqliteAtomically(db);
    try {
      await assert.rejects(atomically(async () => {
        db.prepare('INSERT INTO rows VALUES (?)').run('rolled-back');
        await queue.enqueue('consolidate', { id: 'rolled-back' }, { jobId: 'job-rolled-back' });
        throw new Error('the work failed after queueing');
      }), /the work failed/);
      await atomically(async () => {
        db.prepare('INSERT INTO rows VALUES (?)').run('kept');
        await queue.enqueue('consolidate', { id: 'kept' }, { jobId: 'job-kept' });
        // Not handed over yet: the row and its job are not committed.
        assert.equal(outbox.pending(QUEUE_TARGET), 1);
      });
      const deadline = Date.now() + 30_000;
      while (outbox.pending(QUEUE_TARGET) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      assert.equal(outbox.pending(QUEUE_TARGET), 0, 'handed over after the commit');
      assert.deepEqual(db.prepare('SELECT id FROM rows').all(), [{ id: 'kept' }]);
      assert.equal(await inner.pending('consolidate'), 1);
      assert.equal(await queue.forget(['rolled-back']), 0, 'the rolled-back job never reached Redis');
    } finally {
      await forwarder.stop();
      await inner.close(2000);
      db.close();
      tmp.remove();
    }
  });
});

describe('a networked keyword index behind the outbox inside Stores.atomically', () => {
  test('an entry indexed in a transaction reaches the backend only if the transaction commits', async () => {
    const tmp = tempDir();
    const db = openDatabase(path.join(tmp.dir, 'parley.db'));
    // Stands in for Qdrant's keyword index: a real index in another database, written only by the forwarder.
    const backendDb = openDatabase(':memory:');
    const backend = new SqliteLexicalIndex(backendDb);
    const outbox = new Outbox(db);
    const forwarder = new OutboxForwarder(outbox, { [LEXICAL_TARGET]: lexicalOutboxHandler(backend) });
    const lexical = new OutboxLexicalIndex(backend, outbox, forwarder);
    const atomically = sqliteAtomically(db);
    const doc = (id: string, text: string) => ({ id, text, layer: 'interaction' as const, sessionId: 's1', speakerId: 'p1', addresseeIds: [] });
    try {
      await assert.rejects(atomically(async () => {
        await lexical.index('t1', [doc('u-rolled', 'tomatoes in the greenhouse')]);
        throw new Error('the work failed after indexing');
      }), /the work failed/);
      await atomically(async () => {
        await lexical.index('t1', [doc('u-kept', 'tomatoes on the balcony')]);
        assert.equal(outbox.pending(LEXICAL_TARGET), 1, 'recorded, not yet forwarded');
      });
      const deadline = Date.now() + 30_000;
      while (outbox.pending(LEXICAL_TARGET) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      assert.deepEqual((await backend.search('t1', 'tomatoes', 10)).map((h) => h.id), ['u-kept']);
    } finally {
      await forwarder.stop();
      backendDb.close();
      db.close();
      tmp.remove();
    }
  });
});
