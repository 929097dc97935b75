import type WebSocket from 'ws';
import { ParleyError, StreamSession, type ServerEvent as SdkServerEvent, type StreamOptions } from '../../clients/typescript/src/index.js';
import { encodeMulaw, encodeS16le } from '../../pipelines/audio/pcm-codecs.js';

/**
 * 16 kHz speech as a phone line carries it: 8 kHz by averaging sample pairs (a crude low-pass), then `silenceS`
 * seconds of silence so the last turn ends.
 */
function phoneBand(wide: Float32Array, silenceS = 1.2): Float32Array {
  const narrow = new Float32Array(Math.floor(wide.length / 2) + Math.round(8000 * silenceS));
  for (let i = 0; i + 1 < wide.length; i += 2) narrow[i / 2] = (wide[i]! + wide[i + 1]!) / 2;
  return narrow;
}

/**
 * A phone line into `/v1/stream` of `wsUrl`: session `sessionId` at 8 kHz μ-law, paced at real time, saying the
 * 16 kHz `samples` as a phone line carries them; resolves once session.started came and the audio all went out.
 * `query`: more query parameters (`external_id=…&agent=…`, encoded).
 */
export async function speakOnPhoneLine(wsUrl: string, sessionId: string, samples: Float32Array, query = ''): Promise<TestWsClient> {
  const c = await TestWsClient.connect(`${wsUrl}/v1/stream?session_id=${sessionId}${query === '' ? '' : `&${query}`}`, {},
    { pacing: 'realtime', frameMs: 100, speed: 1, sampleRate: 8000, encoding: 'mulaw' });
  await c.next('session.started');
  c.sendAudio(encodeMulaw(phoneBand(samples)));
  await c.drained();
  return c;
}

/** How long a test waits for an event by default (see `next`). */
const EVENT_WAIT_MS = 60_000;

/** A server event as received (loosely typed, so tests can read any field). */
export type ServerEvent = Record<string, unknown> & { type: string; seq: number; session_id: string | null };

/**
 * A test's view of one /v1/stream connection, on the SDK's `StreamSession` (no resume: a test sees
 * every drop). It records every event and lets a test wait for the next one matching a predicate
 * (with a generous time-out so a broken server fails the test instead of hanging it). Malformed
 * frames, which the SDK never sends, go out on the raw socket with `sendRaw`.
 */
export class TestWsClient {
  readonly events: ServerEvent[] = [];
  closeCode: number | undefined;
  private waiters: { match: (e: ServerEvent) => boolean; resolve: (e: ServerEvent) => void; from: number }[] = [];
  private closedWaiters: ((code: number) => void)[] = [];

  private constructor(readonly session: StreamSession | null, refusal?: ParleyError) {
    if (refusal) {
      // Refused after the upgrade: the server sent a fatal error, then closed.
      this.record({ type: 'error', session_id: null, seq: 0, code: refusal.code, message: refusal.message, fatal: true });
      this.onClose(refusal.closeCode ?? 1006);
      return;
    }
    void (async () => {
      try {
        for await (const event of session!) this.record(event as SdkServerEvent & ServerEvent);
      } catch {
        // a drop or fatal error: the close code tells the test
      }
      this.onClose(session!.closeCode ?? 1006);
    })();
  }

  /** The SDK session's socket (null once closed), for tests that break the connection on purpose. */
  get socket(): WebSocket {
    const ws = this.session?.socket;
    if (!ws) throw new Error('no open socket');
    return ws;
  }

  /**
   * Connect to a `ws://…/v1/stream?…` URL. Resolves once the server started the session, or with a
   * refused client (its `error` event and close code recorded) when the server refused it after
   * the upgrade; rejects with the SDK's ParleyError when the upgrade itself is refused (401…).
   */
  static async connect(url: string, headers: Record<string, string> = {}, options: StreamOptions = {}): Promise<TestWsClient> {
    const parsed = new URL(url);
    const query = Object.fromEntries(parsed.searchParams);
    const sessionId = query.session_id;
    delete query.session_id;
    const apiKey = /^Bearer\s+(\S+)$/i.exec(headers.authorization ?? '')?.[1];
    const base = `${parsed.protocol === 'wss:' ? 'https' : 'http'}://${parsed.host}`;
    try {
      const session = await StreamSession.open(base, apiKey, {
        resume: false, pacing: 'none', ...(sessionId ? { sessionId } : {}), query, ...options,
      });
      return new TestWsClient(session);
    } catch (err) {
      if (err instanceof ParleyError && err.fatal) return new TestWsClient(null, err);
      throw err;
    }
  }

  /** Audio through the SDK's pacer (as the connect options say: `pacing`, `speed`, `frameMs`). */
  sendAudio(audio: Uint8Array): void {
    this.session!.sendAudio(audio);
  }

  /**
   * Speak 16 kHz samples through the SDK's pacer, followed by `silenceS` seconds of silence (so the
   * last turn ends), and resolve once it all went out. The connect options set the pace.
   */
  async speak(samples: Float32Array, silenceS = 1.2): Promise<void> {
    const padded = new Float32Array(samples.length + Math.round(16000 * silenceS));
    padded.set(samples);
    this.sendAudio(encodeS16le(padded));
    await this.drained();
  }

  /** Resolves once the audio given to `sendAudio` has all gone out. */
  drained(): Promise<void> {
    return this.session!.drained();
  }

  sendJson(message: unknown): void {
    this.socket.send(JSON.stringify(message));
  }

  sendRaw(data: string | Buffer): void {
    this.socket.send(data);
  }

  /**
   * The first event (already received or coming) of `type` that matches. Waits up to a minute by default: on a busy
   * machine (CI shares its cores) a query or a first transcript can take well over 10 s; a waiting test costs nothing.
   */
  async next(type: string, match: (e: ServerEvent) => boolean = () => true, timeoutMs = EVENT_WAIT_MS): Promise<ServerEvent> {
    const pred = (e: ServerEvent): boolean => e.type === type && match(e);
    const seen = this.events.find(pred);
    if (seen) return seen;
    return this.waitFor(pred, this.events.length, timeoutMs, type);
  }

  /** The next event of `type` received after this call. */
  async nextNew(type: string, match: (e: ServerEvent) => boolean = () => true, timeoutMs = EVENT_WAIT_MS): Promise<ServerEvent> {
    return this.waitFor((e) => e.type === type && match(e), this.events.length, timeoutMs, type);
  }

  async closed(timeoutMs = EVENT_WAIT_MS): Promise<number> {
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
    this.session?.close();
  }

  private record(event: ServerEvent): void {
    this.events.push(event);
    for (const w of [...this.waiters]) {
      if (this.events.length - 1 >= w.from && w.match(event)) {
        this.waiters = this.waiters.filter((x) => x !== w);
        w.resolve(event);
      }
    }
  }

  private onClose(code: number): void {
    this.closeCode = code;
    for (const w of this.closedWaiters) w(code);
  }

  private waitFor(match: (e: ServerEvent) => boolean, from: number, timeoutMs: number, what: string): Promise<ServerEvent> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${what} event within ${timeoutMs} ms; got ${this.events.map((e) => e.type).join(', ')}`)), timeoutMs);
      this.waiters.push({ match, from, resolve: (e) => { clearTimeout(timer); resolve(e); } });
    });
  }
}
