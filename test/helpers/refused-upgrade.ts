import WebSocket from 'ws';

/** The HTTP answer to a WebSocket upgrade the server refused before opening a socket (rejects when it was accepted). */
export function refusedUpgrade(url: string): Promise<{ status: number; body: { error: { code: string; message: string } } }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    ws.on('open', () => {
      ws.close();
      reject(new Error(`the upgrade of ${url} was accepted`));
    });
    ws.on('unexpected-response', (_req, res) => {
      let text = '';
      res.on('data', (d: Buffer) => { text += d.toString(); });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as { error: { code: string; message: string } } }));
    });
    ws.on('error', () => undefined);
  });
}
