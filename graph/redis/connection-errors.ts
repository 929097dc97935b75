import type { Redis } from 'ioredis';
import type { BusLogger } from '../event-bus.js';

/** How long a client may take to connect at start before its errors are warnings, ms. */
export const CONNECT_GRACE_MS = 15_000;

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

/**
 * Log `client`'s errors at the level `connectionErrorLevel` gives, under `msg` with `fields`.
 * `now`: a monotonic clock, ms (tests).
 */
export function logConnectionErrors(
  client: Pick<Redis, 'on'>,
  logger: BusLogger | undefined,
  msg: string,
  fields: Record<string, unknown>,
  options: { graceMs?: number | undefined; now?: () => number } = {},
): void {
  const now = options.now ?? (() => performance.now());
  const since = now();
  let everReady = false;
  let earlierErrors = 0;
  client.on('ready', () => { everReady = true; });
  client.on('error', (err: Error) => {
    const level = connectionErrorLevel({ everReady, tryingForMs: now() - since, earlierErrors }, options.graceMs);
    earlierErrors += 1;
    if (level === 'info') logger?.info({ err: err.message, ...fields }, `${msg} while connecting; retrying`);
    else logger?.[level]({ err: err.message, ...fields }, msg);
  });
}
