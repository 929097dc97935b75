import type { Redis } from 'ioredis';
import type { BusLogger } from '../event-bus.js';

/** How long a client may take to connect at start before its errors are warnings, ms. */
export const CONNECT_GRACE_MS = 15_000;

/** How often an outage still going on is logged again (warn), ms; 0: never. */
export const OUTAGE_REMINDER_MS = 60_000;

/**
 * How loud a Redis client's connection error is: `warn` once the client was connected (the
 * connection was lost) or after it has tried for `graceMs` without connecting; before that
 * (Redis not up yet at start, a busy host) `info` for the first error and `debug` for the next ones,
 * since the client retries by itself.
 */
export function connectionErrorLevel(state: { everReady: boolean; tryingForMs: number; earlierErrors: number }, graceMs = CONNECT_GRACE_MS): 'debug' | 'info' | 'warn' {
  if (state.everReady || state.tryingForMs >= graceMs) return 'warn';
  return state.earlierErrors === 0 ? 'info' : 'debug';
}

const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE', 'ECONNABORTED']);
const CONNECTION_MESSAGE = /connection is closed|connect ETIMEDOUT|stream isn't writeable|max retries per request|ECONNREFUSED|ECONNRESET|EHOSTUNREACH|ENETUNREACH|getaddrinfo|socket closed|read ETIMEDOUT|write EPIPE/i;

/** Whether `err` says the connection to Redis is lost or cannot be made (rather than a command's own failure). */
export function isConnectionError(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as Error & { code?: unknown }).code;
  if (typeof code === 'string' && CONNECTION_CODES.has(code)) return true;
  return err.name === 'MaxRetriesPerRequestError' || CONNECTION_MESSAGE.test(err.message);
}

/** `url` fit for a log: without its password (a bad URL is named as such, never echoed). */
export function redactRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparsable REDIS_URL)';
  }
}

export interface ConnectionWatchOptions {
  /** What the connection serves, as logged: `event bus`, `job queue ingest`, `locks`. */
  component: string;
  /** The Redis URL; logged without its password. */
  url: string;
  /** Fields added to every line. */
  fields?: Record<string, unknown>;
  /** See `CONNECT_GRACE_MS`. */
  graceMs?: number | undefined;
  /** See `OUTAGE_REMINDER_MS`. */
  reminderMs?: number | undefined;
  /** Level of errors that are no connection error (each is logged); default `warn`. */
  otherErrorLevel?: 'warn' | 'error';
  /** Message of errors that are no connection error; default `<component> redis error`. */
  otherErrorMsg?: string;
  /** A monotonic clock, ms (tests). */
  now?: () => number;
}

/**
 * One component's Redis connection(s), for the log: an outage is logged once when it begins (warn,
 * naming the component and the URL without password), again at most every `reminderMs` while it lasts,
 * and once (info) when every connection is back; the retries in between are `debug`. At start, before
 * the first connection, errors are quiet for `graceMs` (see `connectionErrorLevel`). Errors that are no
 * connection error are logged each time.
 *
 * Several clients may report to one watch under their own `client` name: the component is down while
 * any of them is.
 */
export class ConnectionWatch {
  readonly #logger: BusLogger | undefined;
  readonly #options: ConnectionWatchOptions;
  readonly #now: () => number;
  readonly #fields: Record<string, unknown>;
  /** When the first error came while it had never connected (the start-up grace runs from there). */
  #since: number | null = null;
  readonly #down = new Set<string>();
  #everReady = false;
  #startErrors = 0;
  /** When the outage now going on began, and when it was last logged at warn; null: not announced. */
  #outage: { since: number; loggedAt: number; errors: number } | null = null;

  constructor(logger: BusLogger | undefined, options: ConnectionWatchOptions) {
    this.#logger = logger;
    this.#options = options;
    this.#now = options.now ?? (() => performance.now());
    this.#fields = { component: options.component, redis: redactRedisUrl(options.url), ...options.fields };
  }

  /** Whether an outage is going on (announced or not). */
  get down(): boolean {
    return this.#down.size > 0;
  }

  /** `client` reported `err`. */
  error(err: Error, client = 'client'): void {
    if (!isConnectionError(err)) {
      this.#logger?.[this.#options.otherErrorLevel ?? 'warn']({ ...this.#fields, err: err.message }, this.#options.otherErrorMsg ?? `${this.#options.component} redis error`);
      return;
    }
    this.#down.add(client);
    const now = this.#now();
    if (!this.#everReady && !this.#outage) {
      this.#since ??= now;
      const level = connectionErrorLevel({ everReady: false, tryingForMs: now - this.#since, earlierErrors: this.#startErrors }, this.#options.graceMs);
      this.#startErrors += 1;
      if (level === 'info') {
        this.#logger?.info({ ...this.#fields, err: err.message }, `${this.#options.component}: redis not reachable yet while connecting; retrying`);
        return;
      }
      if (level === 'debug') {
        this.#logger?.debug({ ...this.#fields, err: err.message }, `${this.#options.component}: redis connect retry`);
        return;
      }
    }
    if (!this.#outage) {
      this.#outage = { since: now, loggedAt: now, errors: 1 };
      const what = this.#everReady ? 'lost its connection to redis' : 'cannot connect to redis';
      this.#logger?.warn({ ...this.#fields, err: err.message }, `${this.#options.component} ${what}; retrying (further errors at debug until it is back)`);
      return;
    }
    this.#outage.errors += 1;
    const reminderMs = this.#options.reminderMs ?? OUTAGE_REMINDER_MS;
    if (reminderMs > 0 && now - this.#outage.loggedAt >= reminderMs) {
      this.#outage.loggedAt = now;
      this.#logger?.warn(
        { ...this.#fields, err: err.message, downForMs: Math.round(now - this.#outage.since), errors: this.#outage.errors },
        `${this.#options.component}: redis still unreachable; retrying`,
      );
      return;
    }
    this.#logger?.debug({ ...this.#fields, err: err.message }, `${this.#options.component}: redis retry`);
  }

  /** `client` is connected (again). */
  ready(client = 'client'): void {
    this.#everReady = true;
    this.#down.delete(client);
    if (this.#down.size > 0 || !this.#outage) return;
    const now = this.#now();
    this.#logger?.info(
      { ...this.#fields, downForMs: Math.round(now - this.#outage.since), errors: this.#outage.errors },
      `${this.#options.component}: redis connection back`,
    );
    this.#outage = null;
  }

  /** Report `client`'s `error` and `ready` events (an ioredis client, a BullMQ worker) to this watch. */
  watch(client: Pick<Redis, 'on'>, name = 'client'): void {
    client.on('error', (err: Error) => this.error(err, name));
    client.on('ready', () => this.ready(name));
  }
}
