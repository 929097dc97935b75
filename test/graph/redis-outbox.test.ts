import assert from 'node:assert/strict';
import net from 'node:net';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { Redis } from 'ioredis';
import { OutboxForwarder } from '../../graph/outbox/outbox-forwarder.js';
import { OutboxJobQueue, queueOutboxHandler, QUEUE_TARGET } from '../../graph/outbox/outbox-job-queue.js';
import { Outbox } from '../../graph/outbox/outbox.js';
import { BullmqJobQueue } from '../../graph/redis/bullmq-job-queue.js';
import { openDatabase, type SqliteDatabase } from '../../graph/sqlite/database.js';
import { deleteKeys, redisSkipReason } from '../helpers/redis.js';
import { closedPort } from '../helpers/stores.js';
import { tempDir } from '../helpers/temp-dir.js';
import { jobQueueContract } from './contracts/job-queue.contract.js';

const skip = await redisSkipReason();
const REDIS_URL = process.env.PARLEY_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/14';
const redis = new URL(REDIS_URL);
const prefixes: string[] = [];

function newPrefix(): string {
  const prefix = `parley-test-outbox-${process.pid}-${Date.now()}-${prefixes.length}`;
  prefixes.push(prefix);
  return prefix;
}

after(async () => {
  if (skip) return;
  for (const prefix of prefixes) await deleteKeys(prefix, REDIS_URL);
});

/** A TCP relay in front of the real Redis that the test can take down and bring back: a real outage. */
class RedisRelay {
  private server: net.Server | null = null;
  private readonly sockets = new Set<net.Socket>();
  constructor(readonly port: number) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}${redis.pathname}`;
  }

  async up(): Promise<void> {
    this.server = net.createServer((client) => {
      const upstream = net.connect(Number(redis.port || 6379), redis.hostname);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('error', () => s.destroy());
        s.on('close', () => this.sockets.delete(s));
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
  }

  async down(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    this.server = null;
  }
}

async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** The networked queue with the outbox in front, as `openStores` builds it, on one SQLite file. */
function outboxQueue(db: SqliteDatabase, url: string, prefix: string, options: { maxOutageWaitMs?: number } = {}) {
  const outbox = new Outbox(db);
  const inner = new BullmqJobQueue({ url, prefix, ...options });
  const forwarder = new OutboxForwarder(outbox, { [QUEUE_TARGET]: queueOutboxHandler(inner) }, { pollMs: 50, baseBackoffMs: 50, maxBackoffMs: 500, attemptTimeoutMs: 1000 });
  forwarder.start();
  return { outbox, inner, forwarder, queue: new OutboxJobQueue(inner, outbox, forwarder) };
}

jobQueueContract('bullmq (redis) behind the SQLite outbox', async () => {
  const tmp = tempDir();
  const prefix = newPrefix();
  const opened: ReturnType<typeof outboxQueue>[] = [];
  const dbs: SqliteDatabase[] = [];
  const open = (options: { maxOutageWaitMs?: number } = {}) => {
    const db = openDatabase(path.join(tmp.dir, 'parley.db'));
    dbs.push(db);
    const q = outboxQueue(db, REDIS_URL, prefix, options);
    opened.push(q);
    return q.queue;
  };
  return {
    queue: open(),
    reopen: async (options) => open(options),
    cleanup: async () => {
      for (const q of opened) {
        await q.forwarder.stop();
        await q.queue.close(2000);
      }
      for (const db of dbs) db.close();
      tmp.remove();
    },
  };
}, skip);

describe('a Redis outage delays jobs but loses none', { skip }, () => {
  test('jobs enqueued while Redis is unreachable, then cut off, arrive once it is back, each once', async () => {
    const tmp = tempDir();
    const prefix = newPrefix();
    const relay = new RedisRelay(await closedPort());
    const db = openDatabase(path.join(tmp.dir, 'parley.db'));
    const server = outboxQueue(db, relay.url, prefix);
    const worker = new BullmqJobQueue({ url: REDIS_URL, prefix });
    const seen: number[] = [];
    worker.process<{ n: number }>('consolidate', async (job) => {
      seen.push(job.data.n);
    });
    try {
      // 1. Redis was never reachable: enqueue is acknowledged from the outbox.
      const id1 = await server.queue.enqueue('consolidate', { n: 1 });
      assert.match(id1, /^job_/);
      assert.equal(server.outbox.pending(QUEUE_TARGET), 1);
      assert.equal(await server.inner.ready(), false);

      // 2. Redis comes up: the job is handed over and runs.
      await relay.up();
      await waitFor(() => seen.includes(1), 15_000, 'job 1');
      await waitFor(() => server.outbox.pending() === 0, 5000, 'empty outbox');

      // 3. Redis goes away under a connected queue: enqueue still resolves, nothing reaches Redis.
      await relay.down();
      await server.queue.enqueue('consolidate', { n: 2 });
      await server.queue.enqueue('consolidate', { n: 3 }, { jobId: 'fixed:id' });
      assert.equal(server.outbox.pending(QUEUE_TARGET), 2);
      assert.match(server.outbox.pendingFor(QUEUE_TARGET)[0]?.lastError ?? '', /./, 'the failure is recorded');

      // 4. Back again: both arrive, in order, once.
      await relay.up();
      await waitFor(() => seen.length >= 3, 15_000, 'jobs 2 and 3');
      await worker.drain('consolidate', 5000);
      assert.deepEqual(seen, [1, 2, 3]);
      assert.equal(server.outbox.pending(), 0);
    } finally {
      await server.forwarder.stop();
      await server.queue.close(1000);
      await worker.close(1000);
      await relay.down();
      db.close();
      tmp.remove();
    }
  });
});
