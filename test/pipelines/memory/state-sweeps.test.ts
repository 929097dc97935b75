import assert from 'node:assert/strict';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { pino } from 'pino';
import type { JobQueue } from '../../../graph/job-queue.js';
import { BullmqJobQueue } from '../../../graph/redis/bullmq-job-queue.js';
import { openDatabase } from '../../../graph/sqlite/database.js';
import { SqliteJobQueue } from '../../../graph/sqlite/sqlite-job-queue.js';
import { scheduleStateSweeps, sweepMarkerKey } from '../../../pipelines/memory/state-sweeps.js';
import { STATES_ENDED_JOB, statesEndedJobId, type StatesEndedJob } from '../../../pipelines/memory/temporary-states.js';
import { deleteKeys, redisSkipReason, TEST_REDIS_URL } from '../../helpers/redis.js';
import { tempDir } from '../../helpers/temp-dir.js';

const silent = pino({ level: 'silent' });
const hour = 3_600_000;

/** `queue`, with every sweep job it queues noted in `queued`; `crash.marker` makes recording a window fail (a crash just after queueing). */
function watched(queue: JobQueue, queued: StatesEndedJob[], crash = { marker: false }): JobQueue {
  return new Proxy(queue, {
    get(target, prop) {
      if (prop === 'enqueue') {
        return async (name: string, data: StatesEndedJob, options?: { jobId?: string }) => {
          assert.equal(name, STATES_ENDED_JOB);
          assert.equal(options?.jobId, statesEndedJobId(data), 'the job id names the window');
          const id = await target.enqueue(name, data, options);
          queued.push(data);
          return id;
        };
      }
      if (prop === 'setMarker' && crash.marker) return async () => { throw new Error('process died before recording the window'); };
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** A backend for the sweeps' queue: `open` gives a handle on the same jobs and markers each time (a restart). */
interface QueueBackend {
  open(): Promise<JobQueue>;
  cleanup(): Promise<void>;
}

function embedded(): QueueBackend {
  const tmp = tempDir();
  const handles: { close(): Promise<void> }[] = [];
  return {
    async open() {
      const db = openDatabase(path.join(tmp.dir, 'parley.db'));
      const queue = new SqliteJobQueue(db, { pollMs: 10 });
      handles.push({ close: async () => { await queue.close(1000); db.close(); } });
      return queue;
    },
    async cleanup() {
      for (const h of handles) await h.close();
      tmp.remove();
    },
  };
}

function redis(): QueueBackend {
  const prefix = `parley-test-sweeps-${process.pid}-${Date.now()}`;
  const handles: BullmqJobQueue[] = [];
  return {
    async open() {
      const queue = new BullmqJobQueue({ url: TEST_REDIS_URL, prefix });
      handles.push(queue);
      return queue;
    },
    async cleanup() {
      for (const q of handles) await q.close(2000);
      await deleteKeys(prefix);
    },
  };
}

const at = (iso: string): (() => number) => () => Date.parse(iso);

describe('scheduleStateSweeps: one sweep per tenant per period, windows back to back', () => {
  test('the first takes every state ended so far; later ones the period since; none twice in a period', async () => {
    const backend = embedded();
    const queued: StatesEndedJob[] = [];
    let clock = Date.parse('2026-07-01T10:20:00.000Z');
    const sweeps = scheduleStateSweeps({ queue: watched(await backend.open(), queued), tenants: ['a', 'b'], everyMs: hour, now: () => clock, logger: silent });
    try {
      await sweeps.sweep();
      // The sweep queued at start and this one fall in one period: queued once.
      assert.deepEqual(queued, [
        { tenant: 'a', endedAfter: null, endedBy: '2026-07-01T10:00:00.000Z' }, { tenant: 'b', endedAfter: null, endedBy: '2026-07-01T10:00:00.000Z' },
      ]);
      clock += 30 * 60_000;
      queued.length = 0;
      await sweeps.sweep();
      assert.equal(queued.length, 0, 'the period has not passed');
      clock += 3 * hour;
      await sweeps.sweep();
      assert.deepEqual(queued, [
        { tenant: 'a', endedAfter: '2026-07-01T10:00:00.000Z', endedBy: '2026-07-01T13:00:00.000Z' },
        { tenant: 'b', endedAfter: '2026-07-01T10:00:00.000Z', endedBy: '2026-07-01T13:00:00.000Z' },
      ]);
      assert.equal(new Set(queued.map(statesEndedJobId)).size, 2, 'a job id per tenant');
    } finally {
      sweeps.stop();
      await backend.cleanup();
    }
  });
});

const redisSkip = await redisSkipReason();

for (const [name, backend, skip] of [['embedded SQLite', embedded, undefined], ['Redis', redis, redisSkip]] as const) {
  describe(`scheduleStateSweeps after a restart (${name} queue)`, { skip: skip ?? false }, () => {
    const backends: QueueBackend[] = [];
    const fresh = (): QueueBackend => {
      const b = backend();
      backends.push(b);
      return b;
    };
    after(async () => {
      for (const b of backends) await b.cleanup();
    });

    test('resumes each tenant from the end of its last queued window; a tenant with none takes every state ended so far', async () => {
      const b = fresh();
      const queued: StatesEndedJob[] = [];
      const first = scheduleStateSweeps({ queue: watched(await b.open(), queued), tenants: ['a'], everyMs: hour, now: at('2026-07-01T10:20:00.000Z'), logger: silent });
      await first.sweep();
      first.stop();
      assert.deepEqual(queued, [{ tenant: 'a', endedAfter: null, endedBy: '2026-07-01T10:00:00.000Z' }]);
      const queue = await b.open();
      assert.equal(await queue.marker(sweepMarkerKey('a')), '2026-07-01T10:00:00.000Z');
      queued.length = 0;
      const again = scheduleStateSweeps({ queue: watched(queue, queued), tenants: ['a', 'b'], everyMs: hour, now: at('2026-07-01T13:05:00.000Z'), logger: silent });
      await again.sweep();
      again.stop();
      assert.deepEqual(queued, [
        { tenant: 'a', endedAfter: '2026-07-01T10:00:00.000Z', endedBy: '2026-07-01T13:00:00.000Z' },
        { tenant: 'b', endedAfter: null, endedBy: '2026-07-01T13:00:00.000Z' },
      ]);
      queued.length = 0;
      // Restarted again within the period: nothing is queued twice.
      const third = scheduleStateSweeps({ queue: watched(await b.open(), queued), tenants: ['a', 'b'], everyMs: hour, now: at('2026-07-01T13:40:00.000Z'), logger: silent });
      await third.sweep();
      third.stop();
      assert.deepEqual(queued, []);
      assert.equal(await queue.pending(STATES_ENDED_JOB), 3, 'three windows queued in all');
    });

    test('a crash between queueing and recording loses nothing: the restart queues the same window again, once', async () => {
      const b = fresh();
      const queued: StatesEndedJob[] = [];
      const dying = scheduleStateSweeps({
        queue: watched(await b.open(), queued, { marker: true }), tenants: ['a'], everyMs: hour, now: at('2026-07-01T10:20:00.000Z'), logger: silent,
      });
      await assert.rejects(dying.sweep(), /before recording/);
      dying.stop();
      const queue = await b.open();
      assert.equal(await queue.marker(sweepMarkerKey('a')), null, 'the window was queued, not recorded');
      const restarted = scheduleStateSweeps({ queue: watched(queue, queued), tenants: ['a'], everyMs: hour, now: at('2026-07-01T10:50:00.000Z'), logger: silent });
      await restarted.sweep();
      restarted.stop();
      const window = { tenant: 'a', endedAfter: null, endedBy: '2026-07-01T10:00:00.000Z' };
      assert.deepEqual(queued.at(-1), window, 'the same window again');
      assert.equal(await queue.pending(STATES_ENDED_JOB), 1, 'under the same job id: queued once');
      assert.equal(await queue.marker(sweepMarkerKey('a')), window.endedBy, 'recorded now');
    });

    test('a crash before recording, restarted a period later, queues a window that covers the unrecorded one', async () => {
      const b = fresh();
      const queued: StatesEndedJob[] = [];
      const dying = scheduleStateSweeps({
        queue: watched(await b.open(), queued, { marker: true }), tenants: ['a'], everyMs: hour, now: at('2026-07-01T10:20:00.000Z'), logger: silent,
      });
      await assert.rejects(dying.sweep());
      dying.stop();
      queued.length = 0;
      const restarted = scheduleStateSweeps({ queue: watched(await b.open(), queued), tenants: ['a'], everyMs: hour, now: at('2026-07-01T12:10:00.000Z'), logger: silent });
      await restarted.sweep();
      restarted.stop();
      assert.deepEqual(queued, [{ tenant: 'a', endedAfter: null, endedBy: '2026-07-01T12:00:00.000Z' }]);
    });
  });
}
