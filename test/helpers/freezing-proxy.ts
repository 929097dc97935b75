import { createServer, connect, type Socket } from 'node:net';

/** A TCP relay to one server that can stop relaying and start again. */
export interface FreezingProxy {
  /** The loopback port it listens on. */
  port: number;
  /**
   * Stop relaying in both directions: connections (old and new) are accepted and what is sent is held, as
   * the kernel does for a process stopped with SIGSTOP, but nothing is answered.
   */
  freeze(): void;
  /** Deliver what was held, in order, and relay again (as after SIGCONT). */
  thaw(): void;
  close(): Promise<void>;
}

/** A {@link FreezingProxy} on a free loopback port in front of `host:port`. */
export async function freezingProxy(host: string, port: number): Promise<FreezingProxy> {
  let frozen = false;
  const flushes = new Set<() => void>();
  const sockets = new Set<Socket>();
  const relay = (from: Socket, to: Socket): void => {
    const held: Buffer[] = [];
    const flush = (): void => {
      for (const chunk of held.splice(0)) to.write(chunk);
    };
    flushes.add(flush);
    from.on('data', (chunk: Buffer) => (frozen ? held.push(chunk) : to.write(chunk)));
    from.once('close', () => flushes.delete(flush));
  };
  const server = createServer((client) => {
    const upstream = connect(port, host);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => undefined);
      s.once('close', () => {
        sockets.delete(s);
        client.destroy();
        upstream.destroy();
      });
    }
    relay(client, upstream);
    relay(upstream, client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address !== 'object') throw new Error('the proxy has no port');
  return {
    port: address.port,
    freeze: () => {
      frozen = true;
    },
    thaw: () => {
      frozen = false;
      for (const flush of flushes) flush();
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
