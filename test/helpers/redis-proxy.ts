import { connect, createServer, type Socket } from 'node:net';
import { TEST_REDIS_URL } from './redis.js';

/** A TCP proxy to the test Redis on `port` (a Redis that can go away and come back); `close` cuts every connection. */
export interface RedisProxy {
  /** Connections accepted so far. */
  readonly connections: number;
  close(): Promise<void>;
}

/** Listen on `port` and pass every connection through to `target` (the test Redis); `target` null: accept and drop. */
export async function redisProxy(port: number, target: string | null = TEST_REDIS_URL): Promise<RedisProxy> {
  const upstreamUrl = target ? new URL(target) : null;
  const sockets = new Set<Socket>();
  let connections = 0;
  const server = createServer((client) => {
    connections += 1;
    if (!upstreamUrl) {
      client.destroy();
      return;
    }
    const upstream = connect(Number(upstreamUrl.port || 6379), upstreamUrl.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => s.destroy());
      s.on('close', () => sockets.delete(s));
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    get connections() { return connections; },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A port nobody listens on now (taken and given back): connections to it are refused. */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** Poll `pred` every 20 ms until it holds (the test runner's own timeout bounds it). */
export async function until(pred: () => boolean): Promise<void> {
  while (!pred()) await new Promise((resolve) => setTimeout(resolve, 20));
}
