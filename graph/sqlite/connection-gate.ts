import { AsyncLocalStorage } from 'node:async_hooks';
import { callSignal, withoutCallSignal } from '../call-signal.js';
/** What the gate uses of a better-sqlite3 connection (`SqliteDatabase`; database.ts imports this file). */
interface SqliteDatabase {
  exec(sql: string): unknown;
  readonly inTransaction: boolean;
  readonly open: boolean;
}

/** Who is running on a gate's connection: an atomic section, or a store call from outside one. */
interface Holder {
  gate: ConnectionGate;
  section: boolean;
  /** False once the section or call has ended: work it left running in the background holds nothing. */
  live: boolean;
}

const context = new AsyncLocalStorage<Holder>();
const settle = (): void => undefined;

/** The gate of each connection, so every user of one connection (stores, queue, outbox) shares it. */
const gates = new WeakMap<SqliteDatabase, ConnectionGate>();

/**
 * Keeps an atomic section (`Stores.atomically`: `BEGIN IMMEDIATE`, awaited store calls, `COMMIT`) to itself
 * on one better-sqlite3 connection. SQLite has one transaction per connection, so a store call of another
 * request that ran while a section awaits would join the section's transaction: undone by its ROLLBACK
 * after the caller was told it succeeded, and durable only at its COMMIT.
 *
 * Here a section waits for the sections and the outside calls that came before it; an outside call waits
 * for the sections that came before it (first come, first served: neither kind starves the other).
 * Calls from inside a section, or nested in an outside call, run at once: their async context
 * (`AsyncLocalStorage`) says so. Sections do not nest across kinds: one started inside an outside store
 * call would wait for that call, so it is refused; one inside a section simply joins it.
 *
 * A call or section made under a signal (`withCallSignal`: a job try's, while it holds its keys) heeds it when its
 * turn comes: aborted by then, it rejects with the signal's reason and runs nothing, and a call inside a section
 * rejects the same way (the section then rolls back). So a try aborted while its write waited here behind a section
 * never writes after its keys went to its retry.
 */
export class ConnectionGate {
  /** Settles when every section queued so far has ended. */
  #sections: Promise<void> = Promise.resolve();
  #queuedSections = 0;
  /** Outside calls queued or running, settled forms. */
  readonly #calls = new Set<Promise<void>>();

  private constructor(private readonly db: SqliteDatabase) {}

  /** The gate of `db` (one per connection). */
  static of(db: SqliteDatabase): ConnectionGate {
    let gate = gates.get(db);
    if (!gate) {
      gate = new ConnectionGate(db);
      gates.set(db, gate);
    }
    return gate;
  }

  /** Run `work` as one transaction, after the sections and outside calls queued before it. */
  atomically<T>(work: () => Promise<T>): Promise<T> {
    const holder = this.#holder();
    const signal = callSignal();
    if (holder?.section) return signal?.aborted ? Promise.reject(signal.reason as Error) : work();
    if (holder) return Promise.reject(new Error('an atomic section cannot start inside a store call on the same SQLite connection'));
    const before = [this.#sections, ...this.#calls];
    this.#queuedSections++;
    const run = Promise.all(before).then(async () => {
      signal?.throwIfAborted();
      const section: Holder = { gate: this, section: true, live: true };
      this.db.exec('BEGIN IMMEDIATE');
      try {
        const result = await context.run(section, work);
        this.db.exec('COMMIT');
        return result;
      } catch (err) {
        if (this.db.inTransaction) this.db.exec('ROLLBACK');
        throw err;
      } finally {
        section.live = false;
      }
    });
    this.#sections = run.then(settle, settle).then(() => {
      this.#queuedSections--;
    });
    return run;
  }

  /** Run the store call `fn` outside any section: at once unless a section is queued or running, else after it (`callSignal` heeded). */
  call<T>(fn: () => Promise<T>): Promise<T> {
    const signal = callSignal();
    if (this.#holder()) return signal?.aborted ? Promise.reject(signal.reason as Error) : fn();
    const holder: Holder = { gate: this, section: false, live: true };
    const invoke = async (): Promise<T> => {
      signal?.throwIfAborted();
      return context.run(holder, fn);
    };
    const result = this.#queuedSections === 0 ? invoke() : this.#sections.then(invoke);
    const settled = result.then(settle, settle).then(() => {
      holder.live = false;
      this.#calls.delete(settled);
    });
    this.#calls.add(settled);
    return result;
  }

  /**
   * `store` with every method of its class except `skip` run through `call`. Leave out methods that wait on
   * anything but this connection (a queue's `drain` waits for jobs, which may start sections) and synchronous ones.
   */
  wrap<T extends object>(store: T, skip: readonly string[] = ['close', 'ready', 'process', 'drain', 'liveWorkers']): T {
    const wrapped = new WeakMap<object, unknown>();
    return new Proxy(store, {
      get: (target, prop) => {
        const value: unknown = Reflect.get(target, prop);
        // A function set on the store itself (a test double standing in for a method) runs as given: the store
        // calls it makes are gated one by one, so it may wait for other requests as a real interleaving would.
        if (typeof value !== 'function' || prop === 'constructor' || Object.hasOwn(target, prop)) return value;
        let fn = wrapped.get(value);
        if (!fn) {
          // Methods run on the store itself (its private fields are not the proxy's).
          const method = value as (...a: unknown[]) => Promise<unknown>;
          fn = typeof prop !== 'string' || skip.includes(prop)
            ? method.bind(target)
            : (...args: unknown[]) => this.call(() => method.apply(target, args));
          wrapped.set(value, fn);
        }
        return fn;
      },
    });
  }

  #holder(): Holder | undefined {
    const holder = context.getStore();
    return holder?.live && holder.gate === this ? holder : undefined;
  }
}

/**
 * Run `fn` (which starts background work: a timer, a job) outside any section's or call's async context,
 * so that the work it starts queues behind a later section instead of passing for part of it, and outside any
 * call signal (`withCallSignal`): a job try that enqueues does not take the queue's later runs with it when aborted.
 */
export function detached<T>(fn: () => T): T {
  return context.exit(() => withoutCallSignal(fn));
}

/**
 * Resolves once no transaction is open on `db`: then a synchronous write made at once (before the next
 * await) commits on its own. For internals that write from timers (the job queue, the outbox forwarder).
 */
export async function noTransactionOpen(db: SqliteDatabase): Promise<void> {
  while (db.open && db.inTransaction) await new Promise((resolve) => setTimeout(resolve, 2));
}
