import WebSocket from 'ws';

/** A server event as received. */
export type ServerEvent = Record<string, unknown> & { type: string; seq: number; session_id: string | null };

/**
 * A real WebSocket client that records every event and lets a test wait for the next one matching
 * a predicate (with a generous time-out so a broken server fails the test instead of hanging it).
 */
export class TestWsClient {
  readonly events: ServerEvent[] = [];
  closeCode: number | undefined;
  private waiters: { match: (e: ServerEvent) => boolean; resolve: (e: ServerEvent) => void; from: number }[] = [];
  private closedWaiters: ((code: number) => void)[] = [];

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data, isBinary) => {
      if (isBinary) return;
      const event = JSON.parse(data.toString()) as ServerEvent;
      this.events.push(event);
      for (const w of [...this.waiters]) {
        if (this.events.length - 1 >= w.from && w.match(event)) {
          this.waiters = this.waiters.filter((x) => x !== w);
          w.resolve(event);
        }
      }
    });
    socket.on('close', (code) => {
      this.closeCode = code;
      for (const w of this.closedWaiters) w(code);
    });
  }

  static async connect(url: string, headers: Record<string, string> = {}): Promise<TestWsClient> {
    const socket = new WebSocket(url, { headers });
    const client = new TestWsClient(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
      socket.once('unexpected-response', (req, res) => {
        req.destroy();
        res.destroy();
        reject(new Error(`HTTP ${res.statusCode}`));
      });
    });
    return client;
  }

  sendJson(message: unknown): void {
    this.socket.send(JSON.stringify(message));
  }

  sendRaw(data: string | Buffer): void {
    this.socket.send(data);
  }

  /** The first event (already received or coming) of `type` that matches. */
  async next(type: string, match: (e: ServerEvent) => boolean = () => true, timeoutMs = 10_000): Promise<ServerEvent> {
    const pred = (e: ServerEvent): boolean => e.type === type && match(e);
    const seen = this.events.find(pred);
    if (seen) return seen;
    return this.waitFor(pred, this.events.length, timeoutMs, type);
  }

  /** The next event of `type` received after this call. */
  async nextNew(type: string, match: (e: ServerEvent) => boolean = () => true, timeoutMs = 10_000): Promise<ServerEvent> {
    return this.waitFor((e) => e.type === type && match(e), this.events.length, timeoutMs, type);
  }

  async closed(timeoutMs = 10_000): Promise<number> {
    if (this.closeCode !== undefined) return this.closeCode;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('socket did not close')), timeoutMs);
      this.closedWaiters.push((code) => {
        clearTimeout(timer);
        resolve(code);
      });
    });
  }

  close(): void {
    this.socket.close();
  }

  private waitFor(match: (e: ServerEvent) => boolean, from: number, timeoutMs: number, what: string): Promise<ServerEvent> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${what} event within ${timeoutMs} ms; got ${this.events.map((e) => e.type).join(', ')}`)), timeoutMs);
      this.waiters.push({ match, from, resolve: (e) => { clearTimeout(timer); resolve(e); } });
    });
  }
}
