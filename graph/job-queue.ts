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
  /** Total tries before the job goes to the dead-letter list; default 5. */
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
}

export type JobHandler<T = unknown> = (job: Job<T>, signal: AbortSignal) => Promise<void>;

export interface WorkerOptions {
  /** Jobs handled at once by this process; default 1. */
  concurrency?: number;
}

/**
 * Durable job queue. Implementations: SQLite (embedded, in-process), Redis via BullMQ (networked,
 * workers in other processes). Delivery is at least once: handlers must be idempotent.
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
  /** Stop taking jobs, let running ones finish (up to `timeoutMs`), release connections. */
  close(timeoutMs?: number): Promise<void>;
}
