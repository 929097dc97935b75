import { DelayedError, Queue, UnrecoverableError, Worker, type ConnectionOptions, type Job as BullJob } from 'bullmq';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { newId } from '../core/ids.js';
import {
  isStoreOutage, OUTAGE_GAVE_UP, outageDelay, outageGaveUpError, type DeadLetter, type EnqueueOptions, type JobHandler, type JobQueue, type QueueStats, type WorkerOptions,
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
  private readonly queues = new Map<string, Queue>();
  private readonly workers: Worker[] = [];
  private readonly controller = new AbortController();
  private readonly connection: ConnectionOptions;
  private readonly prefix: string;
  private health: Redis | undefined;

  constructor(private readonly options: BullmqJobQueueOptions) {
    const url = new URL(options.url);
    this.connection = {
      host: url.hostname,
      port: Number(url.port || 6379),
      db: Number(url.pathname.slice(1) || 0),
      ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
      ...(url.username ? { username: decodeURIComponent(url.username) } : {}),
      maxRetriesPerRequest: null,
    };
    this.prefix = options.prefix ?? 'parley';
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
    const worker = new Worker(
      name,
      async (job, token) => {
        try {
          await handler(
            { id: job.id ?? '', name: job.name, data: job.data as T, attempt: job.attemptsMade + 1 },
            this.controller.signal,
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
      { connection: this.connection, prefix: this.prefix, concurrency: Math.max(1, options.concurrency ?? 1) },
    );
    worker.on('failed', (job, err) => {
      this.options.logger?.warn({ jobId: job?.id, job: name, attempt: job?.attemptsMade, err: err.message }, 'job failed');
    });
    worker.on('error', (err) => this.options.logger?.error({ job: name, err: err.message }, 'queue worker error'));
    this.workers.push(worker);
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
    for (const queue of this.queues.values()) {
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
    this.health ??= new Redis(this.options.url, {
      lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 1000,
    });
    // Connection failures surface as `false` below; without a listener ioredis reports them as unhandled.
    if (this.health.listenerCount('error') === 0) this.health.on('error', () => {});
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
    // A worker closed while its connections are still starting has them dropped (disconnect, not quit), and BullMQ's
    // start-up commands on them then reject with nobody awaiting ("Connection is closed.", an unhandled rejection; seen
    // in CI when a queue closed within 100 ms of its workers starting). Let them finish starting first, for at most 2 s.
    const started = (w: Worker): Promise<unknown> => Promise.race([
      w.waitUntilReady().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 2000).unref()),
    ]);
    await Promise.all(this.workers.map(async (w) => { await started(w); await w.close(); }));
    clearTimeout(timer);
    await Promise.all([...this.queues.values()].map((q) => q.close()));
    this.health?.disconnect();
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
    let queue = this.queues.get(name);
    if (!queue) {
      // Producers fail fast while Redis is down (no offline queue) so the outbox can take over;
      // workers keep waiting and reconnect by themselves.
      queue = new Queue(name, { connection: { ...this.connection, enableOfflineQueue: false }, prefix: this.prefix });
      queue.on('error', (err) => this.options.logger?.warn({ queue: name, err: err.message }, 'queue connection error'));
      this.queues.set(name, queue);
    }
    return queue;
  }
}
