import assert from 'node:assert/strict';
import { afterEach, beforeEach, test } from 'node:test';
import { ParleyError } from '../../../graph/core/errors.js';
import { JOB_OVERRAN, OUTAGE_GAVE_UP, type JobQueue } from '../../../graph/job-queue.js';
import { contractSuite } from './contract-suite.js';

export interface JobQueueFixture {
  queue: JobQueue;
  /** A second handle on the same backing store, as after a restart or in another process; `options` as the queues take them. */
  reopen(options?: { maxOutageWaitMs?: number; maxRunMs?: number }): Promise<JobQueue>;
  cleanup(): Promise<void>;
}

/** The behaviour every JobQueue implementation must show. */
export function jobQueueContract(name: string, factory: () => Promise<JobQueueFixture>, skip?: string): void {
  contractSuite(`JobQueue contract: ${name}`, skip, () => {
    let fx: JobQueueFixture;
    beforeEach(async () => {
      fx = await factory();
    });
    afterEach(async () => {
      await fx.cleanup();
    });

    test('runs every job once, with its data', async () => {
      const seen: number[] = [];
      fx.queue.process<{ n: number }>('work', async (job) => {
        seen.push(job.data.n);
      }, { concurrency: 2 });
      for (let n = 0; n < 20; n++) await fx.queue.enqueue('work', { n });
      await fx.queue.drain('work', 10_000);
      assert.deepEqual(seen.sort((a, b) => a - b), Array.from({ length: 20 }, (_, i) => i));
    });

    test('a job id is enqueued once', async () => {
      let runs = 0;
      await fx.queue.enqueue('once', { x: 1 }, { jobId: 'same-id' });
      await fx.queue.enqueue('once', { x: 2 }, { jobId: 'same-id' });
      fx.queue.process('once', async () => {
        runs++;
      });
      await fx.queue.drain('once', 10_000);
      await fx.queue.enqueue('once', { x: 3 }, { jobId: 'same-id' });
      await fx.queue.drain('once', 10_000);
      assert.equal(runs, 1);
    });

    test('failures retry with backoff, then go to the dead-letter list and can be retried', async () => {
      const attempts: number[] = [];
      let heal = false;
      fx.queue.process('flaky', async (job) => {
        attempts.push(job.attempt);
        if (!heal) throw new Error('boom');
      });
      const id = await fx.queue.enqueue('flaky', { k: 'v' }, { attempts: 3, backoffMs: 10 });
      const deadline = Date.now() + 10_000;
      while ((await fx.queue.deadLetters('flaky')).length === 0 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 20));
      }
      assert.deepEqual(attempts, [1, 2, 3]);
      const [dead] = await fx.queue.deadLetters('flaky');
      assert.equal(dead?.id, id);
      assert.equal(dead?.error, 'boom');
      assert.deepEqual(dead?.data, { k: 'v' });
      heal = true;
      assert.equal(await fx.queue.retryDeadLetter('flaky', id), true);
      await fx.queue.drain('flaky', 10_000);
      assert.equal((await fx.queue.deadLetters('flaky')).length, 0);
      assert.equal(attempts.length, 4);
    });

    test('a store outage delays a job for as long as it lasts without using up its attempts', async () => {
      const tries: number[] = [];
      const down = (): ParleyError => new ParleyError('PARLEY_ERR_STORE_UNAVAILABLE', 'Neo4j (NEO4J_URI) unavailable during a test');
      fx.queue.process('outage', async (job) => {
        tries.push(job.attempt);
        // Six tries meet a store that is down (three times as many as the job's attempts), three of
        // them through a wrapping error's cause; then the store is back, and an ordinary failure
        // still uses up an attempt.
        if (tries.length <= 3) throw down();
        if (tries.length <= 6) throw new Error('consolidation failed', { cause: down() });
        if (tries.length === 7) throw new Error('boom');
      });
      await fx.queue.enqueue('outage', { k: 1 }, { attempts: 2, backoffMs: 10 });
      await fx.queue.drain('outage', 20_000);
      assert.deepEqual(tries, [1, 1, 1, 1, 1, 1, 1, 2]);
      assert.deepEqual(await fx.queue.deadLetters('outage'), []);
      assert.equal((await fx.queue.stats('outage')).outageWaiting, 0, 'no longer counted once the store answered');
    });

    test('a job waits out an outage for at most maxOutageWaitMs, counted meanwhile, then is a dead letter with its data that replays', async () => {
      const q = await fx.reopen({ maxOutageWaitMs: 400 });
      let down = true;
      let tries = 0;
      q.process('stuck', async () => {
        tries += 1;
        if (down) throw new ParleyError('PARLEY_ERR_STORE_UNAVAILABLE', 'Neo4j (NEO4J_URI) unavailable during a test');
      });
      const id = await q.enqueue('stuck', { utteranceId: 'u_kept' }, { attempts: 2, backoffMs: 20 });
      const until = async (what: string, done: () => Promise<boolean>): Promise<void> => {
        const deadline = Date.now() + 15_000;
        while (!(await done())) {
          assert.ok(Date.now() < deadline, `timed out waiting until ${what}`);
          await new Promise((r) => setTimeout(r, 10));
        }
      };
      await until('the job waits on the outage', async () => (await q.stats('stuck')).outageWaiting === 1);
      await until('the job is a dead letter', async () => (await q.deadLetters('stuck')).length > 0);
      assert.ok(tries >= 3, `tried ${tries} times before giving up`);
      const [dead] = await q.deadLetters('stuck');
      assert.equal(dead?.id, id);
      assert.deepEqual(dead?.data, { utteranceId: 'u_kept' });
      assert.ok(dead?.error.startsWith(OUTAGE_GAVE_UP), dead?.error);
      assert.match(dead?.error ?? '', /NEO4J_URI/);
      assert.deepEqual(await q.stats('stuck'), { waiting: 0, running: 0, oldestWaitingMs: null, outageWaiting: 0 });
      down = false;
      assert.equal(await q.retryDeadLetter('stuck', id), true);
      await q.drain('stuck', 10_000);
      assert.deepEqual(await q.deadLetters('stuck'), []);
      assert.equal((await q.stats('stuck')).outageWaiting, 0);
    });

    test('a try that runs past maxRunMs fails, its signal aborted: retried, then a dead letter; a later try that ends finishes the job', async () => {
      const q = await fx.reopen({ maxRunMs: 150 });
      const signals: AbortSignal[] = [];
      let hang = true;
      q.process('hung', async (_job, signal) => {
        signals.push(signal);
        // A call that never answers, and ignores the signal.
        if (hang) await new Promise<never>(() => undefined);
      });
      const id = await q.enqueue('hung', { k: 'v' }, { attempts: 2, backoffMs: 10 });
      const deadline = Date.now() + 30_000;
      while ((await q.deadLetters('hung')).length === 0) {
        assert.ok(Date.now() < deadline, 'the hung job never became a dead letter');
        await new Promise((r) => setTimeout(r, 20));
      }
      const [dead] = await q.deadLetters('hung');
      assert.equal(dead?.id, id);
      assert.equal(dead?.attempts, 2);
      assert.ok(dead?.error.startsWith(JOB_OVERRAN), dead?.error);
      assert.equal(signals.length, 2, 'tried once per attempt');
      assert.ok(signals.every((s) => s.aborted), 'each overrun try is told through its signal');
      assert.equal((await q.stats('hung')).running, 0, 'no longer counted as running');
      hang = false;
      assert.equal(await q.retryDeadLetter('hung', id), true);
      await q.drain('hung', 30_000);
      assert.deepEqual(await q.deadLetters('hung'), []);
      assert.equal(signals.length, 3);
    });

    test('stats count waiting and running jobs and age the oldest due one (metrics)', async () => {
      assert.deepEqual(await fx.queue.stats('metered'), { waiting: 0, running: 0, oldestWaitingMs: null, outageWaiting: 0 });
      await fx.queue.enqueue('metered', { n: 1 });
      await new Promise((r) => setTimeout(r, 80));
      await fx.queue.enqueue('metered', { n: 2 });
      const waiting = await fx.queue.stats('metered');
      assert.equal(waiting.waiting, 2);
      assert.equal(waiting.running, 0);
      assert.ok(waiting.oldestWaitingMs !== null && waiting.oldestWaitingMs >= 70, `the oldest has waited ${waiting.oldestWaitingMs} ms`);
      let release!: () => void;
      const gate = new Promise<void>((r) => { release = r; });
      let started = false;
      fx.queue.process('metered', async () => {
        started = true;
        await gate;
      });
      // Polled: a queue's own timers may not keep the process alive.
      for (let i = 0; i < 1000 && !started; i++) await new Promise((r) => setTimeout(r, 10));
      assert.ok(started, 'the first job started');
      const busy = await fx.queue.stats('metered');
      assert.equal(busy.running, 1);
      assert.equal(busy.waiting, 1);
      release();
      await fx.queue.drain('metered', 10_000);
      assert.deepEqual(await fx.queue.stats('metered'), { waiting: 0, running: 0, oldestWaitingMs: null, outageWaiting: 0 });
    });

    test('forget removes the jobs that name given ids, and only those', async () => {
      await fx.queue.enqueue('erasable', { utteranceId: 'u_gone_1' });
      await fx.queue.enqueue('erasable', { utteranceId: 'u_kept_2' });
      assert.equal(await fx.queue.forget(['u_gone_1']), 1);
      const seen: string[] = [];
      fx.queue.process<{ utteranceId: string }>('erasable', async (job) => { seen.push(job.data.utteranceId); });
      await fx.queue.drain('erasable', 10_000);
      assert.deepEqual(seen, ['u_kept_2']);
      assert.equal(await fx.queue.forget(['u_kept_2']), 1, 'finished jobs are forgotten too');
      assert.equal(await fx.queue.forget([]), 0);
    });

    test('jobs enqueued with no worker survive until a worker (new handle) takes them', async () => {
      await fx.queue.enqueue('later', { n: 1 });
      await fx.queue.enqueue('later', { n: 2 });
      assert.equal(await fx.queue.pending('later'), 2);
      const other = await fx.reopen();
      const seen: number[] = [];
      other.process<{ n: number }>('later', async (job) => {
        seen.push(job.data.n);
      });
      await other.drain('later', 10_000);
      assert.deepEqual(seen.sort(), [1, 2]);
      assert.equal(await fx.queue.ready(), true);
    });
  });
}
