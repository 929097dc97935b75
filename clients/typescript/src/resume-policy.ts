import { ParleyError } from './errors.js';
/** How a stream reconnects after a drop (`StreamOptions.resume`, when not `false`). */
export interface ResumeOptions {
  /**
   * Give up once this long has passed since the drop, ms. Default 60 000: a restarted server loads its
   * models before it listens (the README's start-up time), so a budget shorter than a restart turns a
   * routine deploy into a lost session.
   */
  totalMs?: number;
  /** At most this many attempts (default: as many as `totalMs` allows). */
  attempts?: number;
  /** Wait before the first attempt, ms; it doubles after each failed one. Default 250. */
  delayMs?: number;
  /** Longest wait between attempts, ms. Default 5 000. */
  maxDelayMs?: number;
}

/** The default budget of a resume, ms (`ResumeOptions.totalMs`). */
export const DEFAULT_RESUME_TOTAL_MS = 60_000;

/**
 * The reconnect schedule of one drop: when to try next, and when to stop. Time comes from `now`
 * (injectable so the schedule itself is checked without waiting it out).
 */
export class ResumeSchedule {
  private readonly startedAt: number;
  private readonly totalMs: number;
  private readonly maxAttempts: number;
  private readonly maxDelayMs: number;
  private delay: number;
  /** The wait a server asked for (`Retry-After`), which the next attempt may not cut short. */
  private asked = 0;
  /** Attempts made so far. */
  attempts = 0;

  constructor(options: ResumeOptions, private readonly now: () => number = () => performance.now()) {
    this.totalMs = options.totalMs ?? DEFAULT_RESUME_TOTAL_MS;
    this.maxAttempts = options.attempts ?? Infinity;
    this.delay = options.delayMs ?? 250;
    this.maxDelayMs = options.maxDelayMs ?? 5_000;
    for (const [name, v] of [['totalMs', this.totalMs], ['attempts', this.maxAttempts], ['delayMs', this.delay], ['maxDelayMs', this.maxDelayMs]] as const) {
      if (Number.isNaN(v) || v < 0) throw new ParleyError('PARLEY_CLIENT_BAD_OPTIONS', `resume.${name} must be 0 or more, not ${v}`);
    }
    this.startedAt = now();
  }

  /** Time since the drop, ms. */
  get elapsedMs(): number {
    return this.now() - this.startedAt;
  }

  /**
   * How long to wait before the next attempt, ms, or null when the budget (time or attempts) is spent.
   * The last wait is cut short so that one attempt still falls inside the budget, but never below a server's
   * `Retry-After`: when that lies beyond the budget, the schedule stops instead of trying early.
   */
  next(): number | null {
    const left = this.totalMs - this.elapsedMs;
    if (this.attempts >= this.maxAttempts || left <= 0 || this.asked > left) return null;
    const wait = Math.max(Math.min(this.delay, left), this.asked);
    this.asked = 0;
    this.delay = Math.min(this.delay * 2, this.maxDelayMs);
    this.attempts += 1;
    return wait;
  }

  /** A server asked for a longer wait (`Retry-After`): the next one is at least that. */
  atLeast(ms: number): void {
    this.asked = Math.max(this.asked, ms);
    this.delay = Math.max(this.delay, ms);
  }
}
