import { Redis } from 'ioredis';
import type { BusEvent, BusHandler, BusLogger, BusMessage, EventBus } from '../event-bus.js';
import { dispatch } from '../memory-event-bus.js';
import { ConnectionWatch } from './connection-errors.js';
import { RedisClients } from './redis-clients.js';
import type { TenantId } from '../types.js';

export interface RedisEventBusOptions {
  /** Redis URL, e.g. `redis://127.0.0.1:6379/0`. */
  url: string;
  /** Channel prefix (`PARLEY_REDIS_PREFIX`); the channel is `<prefix>:events`. Default `parley`. */
  prefix?: string;
  /** How long `ready()` waits for the subscription and a ping, ms; default 2000. */
  readyTimeoutMs?: number;
  /** How long the clients may try to connect at start before their errors are warnings, ms; default 15,000 (`CONNECT_GRACE_MS`). */
  connectGraceMs?: number;
  logger?: BusLogger;
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Event bus over Redis pub/sub: every process subscribes to one channel per deployment prefix and
 * hands each event to its local handlers (which deliver it if they hold the session's socket).
 * Publishing fails fast while Redis is down (no offline queue): events are notifications, not state.
 */
export class RedisEventBus implements EventBus {
  private readonly pub: Redis;
  private readonly sub: Redis;
  private readonly channel: string;
  private readonly handlers = new Set<BusHandler>();
  private readonly clients: RedisClients;
  private subscribed: Promise<unknown> | null = null;

  /**
   * Makes the clients without connecting them: they connect at `start()` or the first `publish` or `ready()`.
   * A connection begun while the process still starts (compiling schemas, loading models) would see its connect
   * timeout run out while the event loop is busy, though Redis answered: a spurious `connect ETIMEDOUT` and a retry.
   */
  constructor(private readonly options: RedisEventBusOptions) {
    this.channel = `${options.prefix ?? 'parley'}:events`;
    // Redis may come up after this process at start: connection errors are quiet until then (see ConnectionWatch).
    const watch = new ConnectionWatch(options.logger, { component: 'event bus', url: options.url, fields: { channel: this.channel }, graceMs: options.connectGraceMs });
    this.clients = new RedisClients(options.url, watch);
    this.pub = this.clients.client({ enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2000, lazyConnect: true }, 'publisher');
    // The subscriber keeps its offline queue so the subscription is (re)established on reconnect.
    this.sub = this.clients.client({ connectTimeout: 2000, maxRetriesPerRequest: null, lazyConnect: true }, 'subscriber');
    this.sub.on('message', (channel: string, message: string) => {
      if (channel === this.channel) this.deliver(message);
    });
  }

  start(): void {
    void this.connect();
  }

  /** Connect both clients and subscribe, once; resolves when subscribed. */
  private connect(): Promise<unknown> {
    if (this.subscribed) return this.subscribed;
    // A failed first attempt is logged by the error listeners, and retried by the client; the subscription's failure is logged below.
    this.pub.connect().catch(() => undefined);
    this.subscribed = this.sub.subscribe(this.channel);
    this.subscribed.catch((err: Error) => {
      if (!this.clients.closed) this.options.logger?.error({ err: err.message }, 'event bus subscribe failed');
    });
    return this.subscribed;
  }

  async publish(tenant: TenantId, sessionId: string, event: BusMessage): Promise<void> {
    void this.connect();
    if (this.pub.status !== 'ready') await withTimeout(this.waitReady(this.pub), this.options.readyTimeoutMs ?? 2000, 'redis event bus connect');
    await this.pub.publish(this.channel, JSON.stringify({ ...event, tenant, sessionId }));
  }

  subscribe(handler: BusHandler): () => void {
    this.handlers.add(handler);
    return () => this.handlers.delete(handler);
  }

  async ready(): Promise<boolean> {
    try {
      await withTimeout(this.connect(), this.options.readyTimeoutMs ?? 2000, 'redis event bus subscribe');
      if (this.pub.status !== 'ready') await withTimeout(this.waitReady(this.pub), this.options.readyTimeoutMs ?? 2000, 'redis event bus connect');
      return (await this.pub.ping()) === 'PONG';
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    this.handlers.clear();
    // A bus closed before it connected never starts connecting afterwards (publish and ready then fail).
    this.subscribed ??= Promise.resolve();
    await this.clients.close();
  }

  private deliver(message: string): void {
    let event: BusEvent;
    try {
      event = JSON.parse(message) as BusEvent;
    } catch {
      this.options.logger?.warn({ channel: this.channel }, 'unparsable event on bus');
      return;
    }
    dispatch([...this.handlers], event, this.options.logger);
  }

  private waitReady(client: Redis): Promise<void> {
    return new Promise((resolve, reject) => {
      if (client.status === 'ready') return resolve();
      if (client.status === 'end') return reject(new Error('redis connection closed'));
      client.once('ready', () => resolve());
    });
  }
}
