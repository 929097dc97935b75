import { Redis, type RedisOptions } from 'ioredis';
import type { ConnectionWatch } from './connection-errors.js';

/** ioredis's own default: 50 ms more per attempt, at most 2 s. */
const DEFAULT_RETRY = (times: number): number => Math.min(times * 50, 2000);

/**
 * End `client` for good: no further connection attempt, and the commands waiting for one fail. Resolves once it
 * has ended. `graceful`: a connected client first gets the replies still due (QUIT); else it is dropped at once.
 */
export async function endClient(client: Redis, graceful = true): Promise<void> {
  if (graceful && client.status === 'ready') {
    // QUIT, after the replies still due: ioredis re-selects the database and re-subscribes after a reconnect
    // without awaiting either, and a client dropped under them rejects them with nobody listening.
    const ended = new Promise<void>((resolve) => client.once('end', () => resolve()));
    await client.quit().catch(() => undefined);
    // The QUIT's reply may come before the socket closes: then it is disconnected below.
    if ((client.status as string) === 'end') return ended;
  }
  if (client.status === 'reconnecting') {
    // Between two attempts there is no socket to close: `disconnect` alone cancels the next attempt but neither
    // ends the client nor fails the commands waiting for it. It cancels it; one last attempt, made now, ends it
    // (refused, it ends at once; accepted, it is disconnected below).
    client.disconnect();
    await client.connect().catch(() => undefined);
  }
  if (client.status === 'end') return;
  const ended = new Promise<void>((resolve) => client.once('end', () => resolve()));
  client.disconnect();
  await ended;
}

/** A client that hands its duplicates (a BullMQ worker's blocking connection) to the owner of the original. */
class OwnedRedis extends Redis {
  #owner: RedisClients | undefined;
  #label = 'client';

  ownedBy(owner: RedisClients, label: string): this {
    this.#owner = owner;
    this.#label = label;
    return this;
  }

  override duplicate(override?: Partial<RedisOptions>): Redis {
    const copy = new OwnedRedis({ ...this.options, ...override });
    return this.#owner ? this.#owner.adopt(copy, `${this.#label}+`) : copy;
  }
}

/**
 * The Redis clients of one component (event bus, locks, a job queue or worker), made here so that the component
 * owns them: each reports its errors and returns to one `ConnectionWatch` (or, unwatched, to nobody), and `close`
 * ends every one for good, a client still trying to make its first connection included. Once closed, no client
 * retries (its retry strategy stops) and nothing more is logged.
 */
export class RedisClients {
  readonly #url: string;
  readonly #watch: ConnectionWatch | undefined;
  readonly #clients = new Set<OwnedRedis>();
  #closed = false;

  constructor(url: string, watch?: ConnectionWatch) {
    this.#url = url;
    this.#watch = watch;
  }

  /** Whether `close` was called. */
  get closed(): boolean {
    return this.#closed;
  }

  /** A new client of the component's Redis; `name` tells its clients apart in the watch. */
  client(options: RedisOptions = {}, name = `client${this.#clients.size + 1}`): Redis {
    const retry = options.retryStrategy ?? DEFAULT_RETRY;
    const owned = new OwnedRedis(this.#url, { ...options, retryStrategy: (times: number) => (this.#closed ? null : retry(times)) });
    return this.adopt(owned, name);
  }

  /** Whether a client has lost its connection, or failed to make its first, and is not back. */
  get down(): boolean {
    return this.#watch?.down ?? false;
  }

  /** Whether every client is connected now. */
  allReady(): boolean {
    return [...this.#clients].every((c) => c.status === 'ready');
  }

  /** @internal Take `client` in (a duplicate of one of ours). */
  adopt(client: OwnedRedis, name: string): Redis {
    client.ownedBy(this, name);
    this.#clients.add(client);
    // Always a listener: without one ioredis prints every error as unhandled.
    client.on('error', (err: Error) => {
      if (!this.#closed) this.#watch?.error(err, name);
    });
    client.on('ready', () => {
      if (!this.#closed) this.#watch?.ready(name);
    });
    if (this.#closed) client.disconnect();
    return client;
  }

  /** End every client for good (see `endClient`); resolves when they have ended. */
  async close(graceful = true): Promise<void> {
    this.#closed = true;
    await Promise.all([...this.#clients].map((client) => endClient(client, graceful)));
  }
}
