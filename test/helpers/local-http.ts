import { once } from 'node:events';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** An HTTP server on a free loopback port (a stand-in for a download host). */
export async function serveLocally(handler: RequestListener): Promise<{ server: Server; base: string }> {
  const server = createServer(handler);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/**
 * A local download host serving `files` by URL path (`/a/b.bin` → its bytes, with `content-length`);
 * any other path is 404. The map stays live: a test adds, replaces or clears files as it goes.
 */
export async function serveFiles(files: Map<string, Buffer>): Promise<{ server: Server; base: string }> {
  return serveLocally((req, res) => {
    const body = files.get(req.url ?? '');
    if (!body) { res.statusCode = 404; res.end(); return; }
    res.setHeader('content-length', String(body.length));
    res.end(body);
  });
}
