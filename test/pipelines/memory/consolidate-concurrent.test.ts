import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import pino from 'pino';
import type { JobQueue } from '../../../graph/job-queue.js';
import type { KeyedLock } from '../../../graph/keyed-lock.js';
import type { FactFilter, MemoryStore } from '../../../graph/memory-store.js';
import { MemoryKeyedLock } from '../../../graph/memory-keyed-lock.js';
import { BullmqJobQueue } from '../../../graph/redis/bullmq-job-queue.js';
import { RedisKeyedLock } from '../../../graph/redis/redis-keyed-lock.js';
import { openDatabase, type SqliteDatabase } from '../../../graph/sqlite/database.js';
import { SqliteGraphStore } from '../../../graph/sqlite/sqlite-graph-store.js';
import { SqliteJobQueue } from '../../../graph/sqlite/sqlite-job-queue.js';
import { SqliteKeyedLock } from '../../../graph/sqlite/sqlite-keyed-lock.js';
import { SqliteLexicalIndex } from '../../../graph/sqlite/sqlite-lexical-index.js';
import { SqliteMemoryStore } from '../../../graph/sqlite/sqlite-memory-store.js';
import { SqliteVectorStore } from '../../../graph/sqlite/sqlite-vector-store.js';
import { UseLiteEmbedder } from '../../../pipelines/embeddings/use-lite-embedder.js';
import {
  CONSOLIDATION_JOB, createConsolidationHandler, type ConsolidationDeps, type ConsolidationJob,
} from '../../../pipelines/memory/consolidate.js';
import { EmbeddedExtractor } from '../../../pipelines/memory/embedded-extractor.js';
import { deleteKeys, redisSkipReason, TEST_REDIS_URL } from '../../helpers/redis.js';
import { tempDir } from '../../helpers/temp-dir.js';

/*
 * Two consolidation jobs about the same person, run at once (two jobs of one process, two processes
 * sharing the embedded SQLite queue, or two queue workers on Redis), must leave one current value per exclusive slot. Each job reads the person's
 * current facts of the slot before it decides; a networked store's latency can make both read
 * before either writes. The test makes that happen every time: the slot read is a rendezvous
 * that holds each job until every job of the round has read (or a few seconds have passed, which
 * is what happens when consolidation is serialised and the second job cannot get there).
 */

const T = 't_slotrace';
const silent = pino({ level: 'silent' });

/** Holds arrivals until `n` have arrived, or `maxWaitMs` after the first. */
class Rendezvous {
  #waiting: Array<() => void> = [];
  #armed = false;
  constructor(private readonly n: number, private readonly maxWaitMs: number) {}

  arm(): void {
    this.#armed = true;
  }

  async arrive(): Promise<void> {
    if (!this.#armed) return;
    await new Promise<void>((resolve) => {
      this.#waiting.push(resolve);
      if (this.#waiting.length >= this.n) this.#open();
      else setTimeout(() => this.#open(), this.maxWaitMs).unref();
    });
  }

  #open(): void {
    this.#armed = false;
    for (const go of this.#waiting.splice(0)) go();
  }
}

/** `memory` whose reads of a slot's facts (what a job decides against) meet at `rendezvous`. */
function meetingAtSlotReads(memory: MemoryStore, rendezvous: Rendezvous): MemoryStore {
  return new Proxy(memory, {
    get(target, key) {
      const value = Reflect.get(target, key) as unknown;
      if (typeof value !== 'function') return value;
      if (key !== 'listFacts') return value.bind(target);
      return async (tenant: string, filter?: FactFilter) => {
        if (filter?.slot) await rendezvous.arrive();
        return target.listFacts(tenant, filter);
      };
    },
  });
}

interface World {
  db: SqliteDatabase;
  deps: Omit<ConsolidationDeps, 'locks'>;
  rendezvous: Rendezvous;
}

/** The stores of one process on the database `file`; processes of one test share `rendezvous`. */
function world(embedder: UseLiteEmbedder, file = ':memory:', rendezvous = new Rendezvous(2, 5000)): World {
  const db = openDatabase(file);
  const memory = new SqliteMemoryStore(db);
  return {
    db,
    rendezvous,
    deps: {
      graph: new SqliteGraphStore(db), memory: meetingAtSlotReads(memory, rendezvous), vectors: new SqliteVectorStore(db),
      lexical: new SqliteLexicalIndex(db), embedder, extractor: new EmbeddedExtractor(), onOps: () => {}, logger: silent,
    },
  };
}

/** Ana, who lives in Porto (consolidated), and two utterances of hers moving elsewhere, not yet consolidated. */
async function anaMoves(w: World, locks: KeyedLock): Promise<{ ana: string; jobs: ConsolidationJob[] }> {
  const { graph } = w.deps;
  await graph.openSession(T, 's1', '2026-12-01T10:00:00.000Z');
  const ana = (await graph.createParticipant(T, { name: 'Ana' })).id;
  const ben = (await graph.createParticipant(T, { name: 'Ben' })).id;
  const turn = (text: string, minute: number) => ({
    sessionId: 's1', speakerId: ana, addresseeIds: [ben], text, startMs: null, endMs: null,
    time: `2026-12-01T10:0${minute}:00.000Z`, confidence: null, audioRef: null,
  });
  const [porto, boulder, denver] = await graph.addUtterances(T, [turn('I live in Porto.', 1), turn('I moved to Boulder.', 2), turn('I moved to Denver.', 3)]);
  assert.ok(porto && boulder && denver);
  await createConsolidationHandler({ ...w.deps, locks })(
    { id: 'j0', name: CONSOLIDATION_JOB, attempt: 1, data: { tenant: T, sessionId: 's1', utteranceId: porto.id } }, new AbortController().signal,
  );
  return { ana, jobs: [boulder, denver].map((u) => ({ tenant: T, sessionId: 's1', utteranceId: u.id })) };
}

/**
 * One current home, the last one said (Denver), reached by a single line of UPDATEs. The jobs may run in either order:
 * Boulder's first gives Porto -> Boulder -> Denver; Denver's first gives Porto -> Denver, and Boulder, said before Denver,
 * then becomes history closed by Denver and never ends it (said-order.ts, rules 46).
 */
async function assertOneCurrentHome(w: World, ana: string): Promise<void> {
  const { memory, graph } = w.deps;
  const current = await memory.listFacts(T, { subjectId: ana, slot: 'lives_in' });
  assert.deepEqual(current.map((f) => f.value), ['Denver'], 'one current home, the last one said');
  const denver = current[0]!;
  const all = await memory.listFacts(T, { subjectId: ana, slot: 'lives_in', includeHistory: true });
  assert.deepEqual(all.map((f) => f.value).sort(), ['Boulder', 'Denver', 'Porto']);
  const porto = all.find((f) => f.value === 'Porto')!;
  const boulder = all.find((f) => f.value === 'Boulder')!;
  assert.ok(porto.supersededBy, 'Porto was superseded');
  if (porto.supersededBy === boulder.id) {
    assert.equal(boulder.supersedes, porto.id);
    assert.equal(boulder.supersededBy, denver.id, 'the second move superseded the first, not Porto again');
    assert.equal(denver.supersedes, boulder.id);
  } else {
    assert.equal(porto.supersededBy, denver.id, 'Denver, stored first, superseded Porto');
    assert.equal(denver.supersedes, porto.id);
    assert.equal(boulder.supersededBy, denver.id, 'Boulder, said before Denver, is history closed by it');
  }
  assert.equal((await graph.getParticipant(T, ana))?.attributes.lives_in, denver.value, 'the profile agrees with the current fact');
}

const skipRedis = await redisSkipReason();

describe('concurrent consolidation of one person', { timeout: 300_000 }, () => {
  const embedder = new UseLiteEmbedder();
  before(async () => {
    await embedder.embed(['warm up']);
  });
  after(async () => {
    await embedder.close();
  });

  test('embedded: two jobs of one SQLite queue at once end with one current home', async () => {
    const w = world(embedder);
    const locks = new SqliteKeyedLock(w.db);
    const queue: JobQueue = new SqliteJobQueue(w.db, { pollMs: 10, logger: silent });
    try {
      const { ana, jobs } = await anaMoves(w, locks);
      w.rendezvous.arm();
      queue.process<ConsolidationJob>(CONSOLIDATION_JOB, createConsolidationHandler({ ...w.deps, locks }), { concurrency: 2 });
      for (const job of jobs) await queue.enqueue(CONSOLIDATION_JOB, job, { attempts: 1 });
      await queue.drain(CONSOLIDATION_JOB, 120_000);
      assert.deepEqual(await queue.deadLetters(CONSOLIDATION_JOB), []);
      await assertOneCurrentHome(w, ana);
    } finally {
      await queue.close();
      w.db.close();
    }
  });

  test('embedded: the server and a worker process sharing the SQLite file end with one current home', async () => {
    const tmp = tempDir('parley-slotrace-');
    const file = path.join(tmp.dir, 'parley.db');
    const rendezvous = new Rendezvous(2, 5000);
    // Two connections to one file, each with its own queue handle and lock handle: two processes.
    const processes = [0, 1].map(() => {
      const w = world(embedder, file, rendezvous);
      return { w, queue: new SqliteJobQueue(w.db, { pollMs: 10, logger: silent }), locks: new SqliteKeyedLock(w.db) };
    });
    try {
      const [server, worker] = processes;
      assert.ok(server && worker);
      const { ana, jobs } = await anaMoves(server.w, server.locks);
      rendezvous.arm();
      for (const { w, queue, locks } of processes) {
        queue.process<ConsolidationJob>(CONSOLIDATION_JOB, createConsolidationHandler({ ...w.deps, locks }), { concurrency: 1 });
      }
      for (const job of jobs) await server.queue.enqueue(CONSOLIDATION_JOB, job, { attempts: 1 });
      await server.queue.drain(CONSOLIDATION_JOB, 120_000);
      assert.deepEqual(await server.queue.deadLetters(CONSOLIDATION_JOB), []);
      await assertOneCurrentHome(server.w, ana);
    } finally {
      for (const { w, queue } of processes) {
        await queue.close();
        w.db.close();
      }
      tmp.remove();
    }
  });

  test('Redis: two queue workers, each with its own lock handle, end with one current home', { skip: skipRedis }, async () => {
    const prefix = `parley-slotrace-${process.pid}-${Date.now()}`;
    const w = world(embedder);
    // Two workers as two processes have them: a queue handle and a lock handle each; only Redis is shared.
    const workers = [0, 1].map(() => ({
      queue: new BullmqJobQueue({ url: TEST_REDIS_URL, prefix }),
      locks: new RedisKeyedLock({ url: TEST_REDIS_URL, prefix }),
    }));
    try {
      const { ana, jobs } = await anaMoves(w, new MemoryKeyedLock());
      w.rendezvous.arm();
      for (const { queue, locks } of workers) {
        queue.process<ConsolidationJob>(CONSOLIDATION_JOB, createConsolidationHandler({ ...w.deps, locks }), { concurrency: 1 });
      }
      const [first] = workers;
      assert.ok(first);
      for (const job of jobs) await first.queue.enqueue(CONSOLIDATION_JOB, job, { attempts: 1 });
      await first.queue.drain(CONSOLIDATION_JOB, 120_000);
      assert.deepEqual(await first.queue.deadLetters(CONSOLIDATION_JOB), []);
      await assertOneCurrentHome(w, ana);
    } finally {
      for (const { queue, locks } of workers) {
        await queue.close(2000);
        await locks.close();
      }
      await deleteKeys(prefix);
      w.db.close();
    }
  });
});
