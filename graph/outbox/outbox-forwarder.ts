import type { Logger } from 'pino';
import { ParleyError } from '../core/errors.js';
import type { Outbox, OutboxEntry } from './outbox.js';
import { detached } from '../sqlite/connection-gate.js';

/** Applies one recorded write to its backend. Must be idempotent: delivery is at least once. */
export type OutboxHandler = (operation: string, payload: unknown) => Promise<void>;

export interface OutboxForwarderOptions {
  /** How often pending entries are looked at, ms; default 500. */
  pollMs?: number;
  /** First retry delay, ms, doubled per failed attempt; default 200. */
  baseBackoffMs?: number;
  /** Longest retry delay, ms; default 30000. */
  maxBackoffMs?: number;
  /** Longest one delivery may take before it counts as failed, ms; default 5000. */
  attemptTimeoutMs?: number;
  /** Errors that retrying cannot fix; default: a `ParleyError` that is not retryable. */
  isPermanent?: (err: unknown) => boolean;
  logger?: Logger;
}

/** What became of an entry after a forwarding attempt. */
export type ForwardOutcome = { state: 'delivered' } | { state: 'deferred'; error: string } | { state: 'dead'; error: string };

function defaultPermanent(err: unknown): boolean {
  return err instanceof ParleyError && !err.retryable;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`backend did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Delivers outbox entries to their backends: per target strictly in record order (a later write never
 * overtakes an earlier one), retrying transient failures with exponential backoff for as long as it
 * takes, and setting aside (never deleting) entries that fail permanently.
 */
export class OutboxForwarder {
  private readonly chains = new Map<string, Promise<unknown>>();
  private readonly afterCommit = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private readonly pollMs: number;
  private readonly baseBackoffMs: number;
  private readonly maxBackoffMs: number;
  private readonly attemptTimeoutMs: number;
  private readonly isPermanent: (err: unknown) => boolean;

  constructor(
    private readonly outbox: Outbox,
    private readonly handlers: Record<string, OutboxHandler>,
    private readonly options: OutboxForwarderOptions = {},
  ) {
    this.pollMs = options.pollMs ?? 500;
    this.baseBackoffMs = options.baseBackoffMs ?? 200;
    this.maxBackoffMs = options.maxBackoffMs ?? 30_000;
    this.attemptTimeoutMs = options.attemptTimeoutMs ?? 5000;
    this.isPermanent = options.isPermanent ?? defaultPermanent;
  }

  /** Start forwarding in the background (every `pollMs`). */
  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.tick(), this.pollMs);
    this.timer.unref();
  }

  /** Stop background forwarding and wait for deliveries in flight. Pending entries stay recorded. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await Promise.allSettled([...this.chains.values()]);
  }

  /** Forward every due entry of `target`, in order, stopping at the first that fails or is not yet due. */
  drain(target: string, now: () => number = Date.now): Promise<void> {
    const previous = this.chains.get(target) ?? Promise.resolve();
    const next = previous.then(() => this.run(target, now)).catch((err: Error) => {
      this.options.logger?.error({ target, err: err.message }, 'outbox forwarding crashed');
    });
    this.chains.set(target, next);
    return next;
  }

  /**
   * Drain `target` now and report what became of entry `id` (used by write-through wrappers). Waits
   * at most `waitMs`; past that the entry counts as deferred and delivery goes on in the background.
   */
  async forward(target: string, id: number, waitMs = 1000): Promise<ForwardOutcome> {
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, waitMs);
    });
    await Promise.race([this.drain(target), waited]).finally(() => clearTimeout(timer));
    const entry = this.outbox.get(id);
    if (!entry) return { state: 'delivered' };
    if (entry.status === 'dead') return { state: 'dead', error: entry.lastError ?? '' };
    return { state: 'deferred', error: entry.lastError ?? 'waiting behind earlier writes' };
  }

  /**
   * Drain `target` once the current transaction has committed: `setImmediate` runs after the
   * synchronous store calls that `Stores.atomically` wraps, never inside them. Until then, and if the
   * process dies first, the entry waits in the file for the next drain or poll.
   */
  drainAfterCommit(target: string): void {
    // One drain per target and transaction, however many writes it recorded.
    if (this.afterCommit.has(target)) return;
    this.afterCommit.add(target);
    // The section may still be awaiting when this fires: `run` waits for its commit before it reads.
    detached(() => setImmediate(() => {
      this.afterCommit.delete(target);
      void this.drain(target);
    }));
  }

  /** Forward until nothing is pending, ignoring backoff delays (tests, shutdown). Throws after `timeoutMs`. */
  async flush(timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.outbox.pending() > 0) {
      for (const target of this.outbox.targets()) await this.drain(target, () => Number.MAX_SAFE_INTEGER);
      if (this.outbox.pending() === 0) return;
      if (Date.now() > deadline) throw new Error(`outbox still holds ${this.outbox.pending()} writes after ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, Math.min(this.pollMs, 100)));
    }
  }

  private async tick(): Promise<void> {
    for (const target of this.outbox.targets()) await this.drain(target);
  }

  private async run(target: string, now: () => number): Promise<void> {
    const handler = this.handlers[target];
    if (!handler) return;
    for (;;) {
      // Entries of a transaction still open are not committed yet, and writes made now would join it.
      await this.outbox.noTransactionOpen();
      const batch = this.outbox.pendingFor(target, 100);
      if (batch.length === 0) return;
      for (const entry of batch) {
        if (entry.nextAttemptAt > now()) return;
        if (!(await this.deliver(handler, entry))) return;
      }
    }
  }

  /** True when the entry is out of the way (delivered or set aside); false to stop this target's run. */
  private async deliver(handler: OutboxHandler, entry: OutboxEntry): Promise<boolean> {
    try {
      await withTimeout(handler(entry.operation, entry.payload), this.attemptTimeoutMs);
      await this.outbox.noTransactionOpen();
      this.outbox.complete(entry.id);
      if (entry.attempts > 0) {
        this.options.logger?.info({ target: entry.target, operation: entry.operation, attempts: entry.attempts + 1 }, 'outbox write delivered after retries');
      }
      return true;
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      await this.outbox.noTransactionOpen();
      if (this.isPermanent(err)) {
        const code = (err as { code?: unknown }).code;
        this.outbox.markDead(entry.id, typeof code === 'string' ? `${code}: ${message}` : message);
        this.options.logger?.error({ target: entry.target, operation: entry.operation, entry: entry.id, err: message }, 'outbox write rejected by backend; set aside');
        return true;
      }
      const delay = Math.min(this.maxBackoffMs, this.baseBackoffMs * 2 ** Math.min(entry.attempts, 20));
      this.outbox.retryLater(entry.id, message, Date.now() + delay);
      this.options.logger?.warn({ target: entry.target, operation: entry.operation, attempts: entry.attempts + 1, retryInMs: delay, err: message }, 'backend unavailable; write kept in outbox');
      return false;
    }
  }
}
