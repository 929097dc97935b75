import { DelayedError, Queue, UnrecoverableError, Worker, type Job as BullJob } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { newId } from '../core/ids.js';
import { ConnectionWatch, isConnectionError } from './connection-errors.js';
import { closeBullmq } from './bullmq-close.js';
import { RedisClients } from './redis-clients.js';
import {
  DEFAULT_JOB_MAX_RUN_MS, isStoreOutage, OUTAGE_GAVE_UP, runWithin, outageDelay, outageGaveUpError, type DeadLetter, type EnqueueOptions, type JobHandler, type JobQueue, type QueueStats, type WorkerOptions,
} from '../job-queue.js';

export interface BullmqJobQueueOptions {
  /** Redis URL, e.g. `redis://127.0.0.1:6379/0`. */
  url: string;
  /** Key prefix for every queue, so several deployments (or tests) share one Redis; default `parley`. */
  prefix?: string;
  /**
   * The longest a job waits out a store outage, from its first try that met it, before it is failed
   * into the failed set with its data kept (replayable with `retryDeadLetter`), ms; default 0: for as
   * long as the outage lasts.
   */
  maxOutageWaitMs?: number;
  /**
   * The longest one try of a job runs, ms (default `DEFAULT_JOB_MAX_RUN_MS`; `0`: no limit). Past it BullMQ no longer
   * extends the job's lock, the try counts as failed (logged with the job's name and id) and the job is retried or
   * failed for good as any failure is (`runWithin`).
   */
  maxRunMs?: number;
  logger?: Logger;
}

/** BullMQ job ids may not contain `:`. */
function safeJobId(id: string): string {
  return id.replaceAll(':', '_');
}

/**
 * The networked job queue: BullMQ on Redis. Workers may run in any process (`npm run worker`)
 * that registers handlers for the same queue names with the same prefix.
 */
export class BullmqJobQueue implements JobQueue {
  private readonly queues = new Map<string, { queue: Queue; clients: RedisClients }>();
  private readonly workers: { worker: Worker; clients: RedisClients }[] = [];
  private readonly controller = new AbortController();
  private readonly prefix: string;
  /** The readiness probe's client: unwatched, its failure is `ready()`'s `false`. */
  private readonly healthClients: RedisClients;
  private health: Redis | undefined;

  constructor(private readonly options: BullmqJobQueueOptions) {
    this.prefix = options.prefix ?? 'parley';
    this.healthClients = new RedisClients(options.url);
  }

  /**
   * The clients of one queue or worker, which this queue owns (BullMQ is handed ready-made clients, and
   * duplicates them through their owner): a lost connection is logged once per component (see ConnectionWatch).
   */
  private clients(component: string, fields: Record<string, unknown>): RedisClients {
    return new RedisClients(this.options.url, new ConnectionWatch(this.options.logger, {
      component, url: this.options.url, fields, otherErrorLevel: 'error', otherErrorMsg: `${component} error`,
    }));
  }

  async enqueue<T>(name: string, data: T, options: EnqueueOptions = {}): Promise<string> {
    const id = safeJobId(options.jobId ?? newId('job'));
    await this.queue(name).add(name, data, {
      jobId: id,
      attempts: options.attempts ?? 5,
      backoff: { type: 'exponential', delay: options.backoffMs ?? 500 },
      removeOnComplete: { age: 24 * 3600 },
      removeOnFail: false,
    });
    return id;
  }

  process<T>(name: string, handler: JobHandler<T>, options: WorkerOptions = {}): void {
    const clients = this.clients(`job worker ${name}`, { job: name });
    const worker = new Worker(
      name,
      async (job, token) => {
        try {
          await runWithin(
            handler, { id: job.id ?? '', name: job.name, data: job.data as T, attempt: job.attemptsMade + 1 },
            this.controller.signal, this.options.maxRunMs ?? DEFAULT_JOB_MAX_RUN_MS,
          );
        } catch (err) {
          if (!isStoreOutage(err) || !token) {
            await this.outageOver(name, job);
            throw err;
          }
          await this.waitOutOutage(name, job, token, err as Error);
        }
        await this.outageOver(name, job);
      },
      { connection: clients.client({ maxRetriesPerRequest: null }, 'worker'), prefix: this.prefix, concurrency: Math.max(1, options.concurrency ?? 1) },
    );
    worker.on('failed', (job, err) => {
      this.options.logger?.warn({ jobId: job?.id, job: name, attempt: job?.attemptsMade, err: err.message }, 'job failed');
    });
    // Connection errors reach the log through the clients' watch; the worker's own errors each time.
    worker.on('error', (err) => {
      if (!clients.closed && !isConnectionError(err)) this.options.logger?.error({ job: name, err: err.message }, 'queue worker error');
    });
    this.workers.push({ worker, clients });
  }

  async pending(name: string): Promise<number> {
    const counts = await this.queue(name).getJobCounts('waiting', 'active', 'delayed', 'prioritized');
    return Object.values(counts).reduce((a, b) => a + b, 0);
  }

  async stats(name: string): Promise<QueueStats> {
    const queue = this.queue(name);
    const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized', 'waiting-children');
    const oldest = await queue.getJobs(['waiting', 'prioritized'], 0, 0, true);
    const first = Math.min(...oldest.map((job) => job.timestamp + (job.delay ?? 0)));
    const now = Date.now();
    return {
      waiting: (counts.waiting ?? 0) + (counts.delayed ?? 0) + (counts.prioritized ?? 0) + (counts['waiting-children'] ?? 0),
      running: counts.active ?? 0,
      oldestWaitingMs: Number.isFinite(first) ? Math.max(0, now - first) : null,
      outageWaiting: await (await this.redis(name)).hlen(this.outageKey(name)),
    };
  }

  async deadLetters(name: string): Promise<DeadLetter[]> {
    const failed = await this.queue(name).getFailed();
    return failed
      // Failed for good: out of attempts, or past the longest wait on a store outage.
      .filter((job) => job.attemptsMade >= (job.opts.attempts ?? 1) || (job.failedReason ?? '').startsWith(OUTAGE_GAVE_UP))
      .map((job) => ({
        id: job.id ?? '',
        name: job.name,
        data: job.data as unknown,
        error: job.failedReason ?? '',
        attempts: job.attemptsMade,
        failedAt: new Date(job.finishedOn ?? Date.now()).toISOString(),
      }));
  }

  async retryDeadLetter(name: string, id: string): Promise<boolean> {
    const job = await this.queue(name).getJob(safeJobId(id));
    if (!job || !(await job.isFailed())) return false;
    await job.retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true });
    return true;
  }

  async drain(name: string, timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while ((await this.pending(name)) > 0) {
      if (Date.now() > deadline) throw new Error(`queue ${name} did not drain within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** The BullMQ workers (of any process) connected to Redis for `name` now, by their named connections. */
  async liveWorkers(name: string): Promise<number> {
    return this.queue(name).getWorkersCount();
  }

  /** Scans the queues this process has used (waiting, delayed, finished and failed jobs). */
  async forget(ids: string[]): Promise<number> {
    if (ids.length === 0) return 0;
    let removed = 0;
    for (const { queue } of this.queues.values()) {
      const jobs = await queue.getJobs(['waiting', 'delayed', 'prioritized', 'paused', 'completed', 'failed']);
      for (const job of jobs) {
        const data = JSON.stringify(job.data ?? null);
        if (!ids.some((id) => data.includes(id))) continue;
        await job.remove().then(() => { removed += 1; }, () => {}); // taken by a worker meanwhile: it runs
        if (job.id) await (await this.redis(queue.name)).hdel(this.outageKey(queue.name), job.id);
      }
    }
    return removed;
  }

  async ready(): Promise<boolean> {
    // A separate client that fails fast: the queues' own clients wait for Redis forever.
    if (this.healthClients.closed) return false;
    this.health ??= this.healthClients.client({ lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 1000 });
    try {
      if (this.health.status === 'wait' || this.health.status === 'end') await this.health.connect();
      return (await this.health.ping()) === 'PONG';
    } catch {
      return false;
    }
  }

  /** Remove every key of the given queues (tests). */
  async obliterate(names: string[]): Promise<void> {
    for (const name of names) {
      await this.queue(name).obliterate({ force: true });
      await (await this.redis(name)).del(this.outageKey(name));
    }
  }

  async close(timeoutMs = 10_000): Promise<void> {
    const timer = setTimeout(() => this.controller.abort(new Error('queue closing')), timeoutMs);
    await Promise.all(this.workers.map(({ worker, clients }) => closeBullmq(worker, clients, () => worker.waitUntilReady())));
    clearTimeout(timer);
    await Promise.all([...this.queues.values()].map(({ queue, clients }) => closeBullmq(queue, clients)));
    await this.healthClients.close();
  }

  /**
   * A store is down: try again later without using up an attempt (BullMQ counts an attempt only when
   * the processor fails; a job moved to delayed with DelayedError is not failed), unless the job has
   * waited `maxOutageWaitMs` since its first such try (kept per queue in a hash beside BullMQ's keys):
   * then it fails for good (`UnrecoverableError`), into the failed set with its data.
   */
  private async waitOutOutage(name: string, job: BullJob, token: string, err: Error): Promise<never> {
    const redis = await this.redis(name);
    const id = job.id ?? '';
    const now = Date.now();
    await redis.hsetnx(this.outageKey(name), id, String(now));
    const since = Number(await redis.hget(this.outageKey(name), id)) || now;
    const limit = this.options.maxOutageWaitMs ?? 0;
    if (limit > 0 && now - since >= limit) {
      await redis.hdel(this.outageKey(name), id);
      this.options.logger?.error({ jobId: job.id, job: name, waitedMs: now - since, err: err.message },
        'store unavailable for longer than the queue waits; job moved to the failed set');
      throw new UnrecoverableError(outageGaveUpError(now - since, err.message));
    }
    // Runs started but not counted as attempts are the earlier outages (or stalled runs).
    const outages = Math.max(0, job.attemptsStarted - job.attemptsMade - 1);
    const delayMs = outageDelay((job.opts.backoff as { delay?: number } | undefined)?.delay ?? 500, outages);
    this.options.logger?.warn({ jobId: job.id, job: name, outages: outages + 1, retryInMs: delayMs, err: err.message }, 'store unavailable; job retried later');
    await job.moveToDelayed(Date.now() + delayMs, token);
    throw new DelayedError();
  }

  /** The job's last try met no store outage (it finished or failed otherwise): it no longer waits on one. */
  private async outageOver(name: string, job: BullJob): Promise<void> {
    // Only a job that met an outage before (runs started beyond its counted attempts) can have an entry.
    if (job.id && job.attemptsStarted - job.attemptsMade > 1) await (await this.redis(name)).hdel(this.outageKey(name), job.id);
  }

  /** The ioredis client of queue `name`'s producer connection (BullMQ types it narrowly). */
  private async redis(name: string): Promise<Redis> {
    return (await this.queue(name).client) as unknown as Redis;
  }

  /** Jobs of queue `name` waiting out a store outage: job id → when their first try met it (ms). */
  private outageKey(name: string): string {
    return `${this.prefix}:parley-outage:${name}`;
  }

  private queue(name: string): Queue {
    let entry = this.queues.get(name);
    if (!entry) {
      const clients = this.clients(`job queue ${name}`, { queue: name });
      // Producers fail fast while Redis is down (no offline queue) so the outbox can take over;
      // workers keep waiting and reconnect by themselves.
      const queue = new Queue(name, { connection: clients.client({ enableOfflineQueue: false, maxRetriesPerRequest: null }, 'producer'), prefix: this.prefix });
      queue.on('error', (err) => {
        if (!clients.closed && !isConnectionError(err)) this.options.logger?.warn({ queue: name, err: err.message }, 'queue connection error');
      });
      entry = { queue, clients };
      this.queues.set(name, entry);
    }
    return entry.queue;
  }
}
