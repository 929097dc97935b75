/** A queued unit of work. `data` must be JSON-serialisable. */
export interface Job<T = unknown> {
  id: string;
  name: string;
  data: T;
  /** 1 on the first try. */
  attempt: number;
}

export interface EnqueueOptions {
  /** Jobs with the same id are enqueued once (idempotency); default: a fresh id. */
  jobId?: string;
  /**
   * Total tries before the job goes to the dead-letter list; default 5. A try that fails because a
   * store is down (`PARLEY_ERR_STORE_UNAVAILABLE`) does not count: see `isStoreOutage`.
   */
  attempts?: number;
  /** First retry delay in ms, doubled on each further retry; default 500. */
  backoffMs?: number;
}

export interface DeadLetter {
  id: string;
  name: string;
  data: unknown;
  error: string;
  attempts: number;
  failedAt: string;
}

/** What a queue holds of one job name, for operators (metrics). */
export interface QueueStats {
  /** Jobs not running yet: due, delayed for a retry, or (outbox) not yet handed to the queue. */
  waiting: number;
  /** Jobs running now. */
  running: number;
  /** How long the oldest job that is due has been waiting to start, ms; null when none is due. */
  oldestWaitingMs: number | null;
  /** Jobs (waiting or running) whose last try met a store outage (`isStoreOutage`) and that have not finished since. */
  outageWaiting: number;
}

/** The longest wait between two tries of a job whose stores are down, ms. */
export const OUTAGE_MAX_DELAY_MS = 30_000;

/**
 * True when `err` (or an error in its `cause` chain) is `PARLEY_ERR_STORE_UNAVAILABLE`: a backend did
 * not answer. Every queue retries such a job for as long as the outage lasts, waiting
 * `outageDelay` between tries, without using up its attempts and without dead-lettering it for them:
 * the utterance it consolidates was acknowledged, and a Neo4j restart that outlasts the attempts'
 * backoff (seconds) must not drop its memory. A queue given `maxOutageWaitMs` fails a job that has
 * waited that long since its first such try into the dead letters (`OUTAGE_GAVE_UP`), data kept.
 */
export function isStoreOutage(err: unknown): boolean {
  for (let e = err, depth = 0; e && depth < 8; e = (e as { cause?: unknown }).cause, depth += 1) {
    if ((e as { code?: unknown }).code === 'PARLEY_ERR_STORE_UNAVAILABLE') return true;
  }
  return false;
}

/**
 * How a job that waited out a store outage for longer than its queue allows (`maxOutageWaitMs`) is
 * failed: into the dead letters, data kept, with an error that starts with this (replay it with
 * `retryDeadLetter`, e.g. `npm run jobs -- retry <name> <id>`).
 */
export const OUTAGE_GAVE_UP = 'gave up waiting out a store outage after';

/** The dead-letter error of a job failed after waiting `waitedMs` on an outage whose last error was `message`. */
export function outageGaveUpError(waitedMs: number, message: string): string {
  return `${OUTAGE_GAVE_UP} ${Math.round(waitedMs / 1000)} s: ${message}`;
}

/** The wait before the next try when `outages` earlier tries met a store outage: `backoffMs` doubled per such try, at most OUTAGE_MAX_DELAY_MS. */
export function outageDelay(backoffMs: number, outages: number): number {
  return Math.min(OUTAGE_MAX_DELAY_MS, backoffMs * 2 ** Math.min(Math.max(0, outages), 20));
}

export type JobHandler<T = unknown> = (job: Job<T>, signal: AbortSignal) => Promise<void>;

/** The default longest run of one try of a job, ms (`PARLEY_JOB_MAX_RUN_MS`): ten minutes. */
export const DEFAULT_JOB_MAX_RUN_MS = 600_000;

/** How a try that ran past its queue's `maxRunMs` fails: its error starts with this. */
export const JOB_OVERRAN = 'job ran longer than';

/**
 * Run one try of a job: `handler` with a signal that aborts when `signal` does or when the try has run `maxRunMs`
 * (`0`: no limit). Past the limit the returned promise rejects (`JOB_OVERRAN`) whether or not the handler heeds the
 * signal, so the queue stops renewing the job's lease and counts the try as failed: a handler that hangs (a call that
 * never answers) holds its job for at most that long, not for ever. The handler may still run on; nothing waits for it.
 */
export async function runWithin<T>(handler: JobHandler<T>, job: Job<T>, signal: AbortSignal, maxRunMs: number): Promise<void> {
  if (maxRunMs <= 0) return handler(job, signal);
  const overran = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const err = new Error(`${JOB_OVERRAN} ${maxRunMs} ms`);
      overran.abort(err);
      reject(err);
    }, maxRunMs);
    // A try still running when the queue closes (its close gave up waiting) never keeps the process alive.
    timer.unref();
  });
  try {
    return await Promise.race([handler(job, AbortSignal.any([signal, overran.signal])), limit]);
  } finally {
    clearTimeout(timer);
  }
}

export interface WorkerOptions {
  /** Jobs handled at once by this process; default 1. */
  concurrency?: number;
}

/**
 * Durable job queue. Implementations: SQLite (embedded, in-process), Redis via BullMQ (networked,
 * workers in other processes). Delivery is at least once: handlers must be idempotent. A handler
 * that fails with a store outage (`isStoreOutage`) is tried again until the store is back, without
 * using up the job's attempts; any other failure uses one.
 */
export interface JobQueue {
  /** Durably enqueue; resolves once the job will survive a crash. Returns the job id. */
  enqueue<T>(name: string, data: T, options?: EnqueueOptions): Promise<string>;
  /** Start handling jobs of `name` in this process. */
  process<T>(name: string, handler: JobHandler<T>, options?: WorkerOptions): void;
  /** Jobs waiting or running, per name. */
  pending(name: string): Promise<number>;
  /** Waiting and running jobs of `name` and the age of the oldest due one. */
  stats(name: string): Promise<QueueStats>;
  deadLetters(name: string): Promise<DeadLetter[]>;
  /** Put a dead letter back on the queue. */
  retryDeadLetter(name: string, id: string): Promise<boolean>;
  /** Resolves when no job of `name` is waiting or running (tests, graceful shutdown). */
  drain(name: string, timeoutMs?: number): Promise<void>;
  /**
   * Remove every job not running now (waiting, delayed, finished or dead) whose data names one of
   * `ids`, e.g. the utterances of an erased person. Returns how many were removed.
   */
  forget(ids: string[]): Promise<number>;
  ready(): Promise<boolean>;
  /**
   * How many worker processes take jobs of `name` now, wherever they run (BullMQ: its workers' named Redis
   * connections). Absent where the queue does not know (embedded: ask the event bus's members).
   */
  liveWorkers?(name: string): Promise<number>;
  /** Stop taking jobs, let running ones finish (up to `timeoutMs`), release connections. */
  close(timeoutMs?: number): Promise<void>;
}
