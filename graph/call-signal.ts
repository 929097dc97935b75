import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The signal that store calls made from the current async context heed: a job try's (`KeyedLock.withLock`'s holder)
 * while its locked work runs. Once it aborts, the embedded file's gate (`ConnectionGate`) runs no further call of that
 * work, not even one it had already queued behind an atomic section: the call rejects with the signal's reason, so an
 * aborted try never writes after its keys went to its retry.
 */
const current = new AsyncLocalStorage<AbortSignal>();

/** Run `fn` with store calls heeding `signal` as well as any signal already in force. */
export function withCallSignal<T>(signal: AbortSignal, fn: () => T): T {
  const outer = current.getStore();
  return current.run(outer === undefined || outer === signal ? signal : AbortSignal.any([outer, signal]), fn);
}

/** Run `fn` (which starts background work) with no signal in force: what it starts is no part of the caller's work. */
export function withoutCallSignal<T>(fn: () => T): T {
  return current.exit(fn);
}

/** The signal in force here (`withCallSignal`), if any. */
export function callSignal(): AbortSignal | undefined {
  return current.getStore();
}
