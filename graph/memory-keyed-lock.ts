import { lockOrder, lockTimeout, runHeld, untilAborted, type KeyedLock, type KeyedLockOptions } from './keyed-lock.js';

/** One holder or waiter of a key: `done` resolves when it has released (or given up waiting). */
interface Turn {
  done: Promise<void>;
  finish: () => void;
}

/**
 * `KeyedLock` within one process: each key is a FIFO of turns, each turn waiting for the one before
 * it. Enough where one process runs every job (the embedded queue); networked deployments wrap it in
 * `RedisKeyedLock`, which takes a key here first so jobs of one process queue without polling Redis.
 */
export class MemoryKeyedLock implements KeyedLock {
  /** The last turn queued per key; removed when that turn finishes with nobody behind it. */
  readonly #tails = new Map<string, Turn>();
  readonly #maxWaitMs: number;

  constructor(options: KeyedLockOptions = {}) {
    this.#maxWaitMs = options.maxWaitMs ?? 60_000;
  }

  async withLock<T>(keys: readonly string[], work: (signal: AbortSignal) => Promise<T>, holder?: AbortSignal): Promise<T> {
    holder?.throwIfAborted();
    const deadline = Date.now() + this.#maxWaitMs;
    const held: Turn[] = [];
    try {
      for (const key of lockOrder(keys)) held.push(await this.#take(key, deadline, holder));
      // An in-process lock cannot be lost: the signal aborts only with the holder's (its keys released then).
      return await untilAborted(runHeld(work, holder ?? new AbortController().signal, holder), holder);
    } finally {
      for (const turn of held.reverse()) turn.finish();
    }
  }

  /** Keys held or waited for now (tests, diagnostics). */
  get size(): number {
    return this.#tails.size;
  }

  async close(): Promise<void> {}

  /** Queue a turn on `key` and wait for the one before it, until `deadline` or until `holder` aborts. */
  async #take(key: string, deadline: number, holder: AbortSignal | undefined): Promise<Turn> {
    const before = this.#tails.get(key);
    let finish!: () => void;
    const released = new Promise<void>((resolve) => { finish = resolve; });
    // A turn is over when it released and every turn before it is over: a waiter that gave up
    // releases at once, but whoever queued behind it still waits for the holder in front.
    const done = before ? Promise.all([before.done, released]).then(() => undefined) : released;
    const turn: Turn = {
      done,
      finish: () => {
        finish();
        void done.then(() => { if (this.#tails.get(key) === turn) this.#tails.delete(key); });
      },
    };
    this.#tails.set(key, turn);
    if (!before) return turn;
    let timer: NodeJS.Timeout | undefined;
    let aborted: (() => void) | undefined;
    const waited = await Promise.race([
      before.done.then(() => true),
      new Promise<false>((resolve) => { timer = setTimeout(() => resolve(false), Math.max(0, deadline - Date.now())); }),
      new Promise<false>((resolve) => {
        aborted = () => resolve(false);
        holder?.addEventListener('abort', aborted, { once: true });
      }),
    ]);
    clearTimeout(timer);
    if (aborted) holder?.removeEventListener('abort', aborted);
    if (waited) return turn;
    turn.finish();
    holder?.throwIfAborted();
    throw lockTimeout(key, this.#maxWaitMs);
  }
}
