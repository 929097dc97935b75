import http from 'node:http';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import WebSocket from 'ws';
import { AudioSession } from '../../pipelines/audio/audio-session.js';
import { repoRoot } from '../../pipelines/models/repo-root.js';
import { TWILIO_CHUNK_BYTES, twilioCall, twilioMessages, type TwilioCall } from '../../scripts/lib/twilio-frames.js';

export { TWILIO_CHUNK_BYTES, twilioCall, twilioMessages, twilioSid, type TwilioCall } from '../../scripts/lib/twilio-frames.js';

/**
 * How much audio reached the speech pipeline, ms: the most any audio session took while the returned
 * reader lives (one call at a time). `restore` puts the audio session's own `push` back.
 */
export function trackReceivedAudio(): { receivedMs: () => number; restore: () => void } {
  let receivedMs = 0;
  const push = AudioSession.prototype.push;
  AudioSession.prototype.push = function (this: AudioSession, ...args: Parameters<typeof push>) {
    const out = push.apply(this, args);
    receivedMs = Math.max(receivedMs, this.positionMs);
    return out;
  };
  return { receivedMs: () => receivedMs, restore: () => { AudioSession.prototype.push = push; } };
}

/** The recorded caller (raw mu-law 8 kHz mono, made by scripts/make-twilio-fixture.sh) and its texts. */
export function twilioFixture(): { audio: Buffer; utterances: string[] } {
  const dir = path.join(repoRoot(), 'test', 'fixtures', 'audio');
  const meta = JSON.parse(readFileSync(path.join(dir, 'twilio-call.json'), 'utf8')) as { utterances: string[] };
  return { audio: readFileSync(path.join(dir, 'twilio-call.ulaw')), utterances: meta.utterances };
}

/** One server-sent event as received. */
export interface SseEvent {
  event: string;
  id: string | null;
  data: Record<string, unknown>;
}

/** A server-sent events subscriber over plain HTTP that records events and knows when the stream ended. */
export class SseClient {
  readonly events: SseEvent[] = [];
  ended = false;
  private buffer = '';
  private listeners: (() => void)[] = [];

  private constructor(private readonly req: http.ClientRequest) {}

  /** Open the stream; resolves once the server confirmed the subscription (its first comment line). */
  static open(url: string, headers: Record<string, string> = {}): Promise<SseClient> {
    return new Promise((resolve, reject) => {
      const req = http.get(url, { headers: { accept: 'text/event-stream', ...headers } });
      const client = new SseClient(req);
      req.on('error', reject);
      req.on('response', (res) => {
        if (res.statusCode !== 200) {
          let body = '';
          res.on('data', (d: Buffer) => { body += d.toString(); });
          res.on('end', () => reject(new Error(`HTTP ${res.statusCode}: ${body}`)));
          return;
        }
        res.setEncoding('utf8');
        let confirmed = false;
        res.on('data', (text: string) => {
          client.buffer += text;
          if (!confirmed && client.buffer.includes(': subscribed')) {
            confirmed = true;
            resolve(client);
          }
          client.parse();
        });
        res.on('end', () => {
          client.ended = true;
          client.notify();
        });
      });
    });
  }

  private parse(): void {
    let cut = this.buffer.indexOf('\n\n');
    while (cut >= 0) {
      const block = this.buffer.slice(0, cut);
      this.buffer = this.buffer.slice(cut + 2);
      let event = 'message';
      let id: string | null = null;
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) continue;
        if (line.startsWith('event: ')) event = line.slice(7);
        else if (line.startsWith('id: ')) id = line.slice(4);
        else if (line.startsWith('data: ')) data.push(line.slice(6));
      }
      if (data.length > 0) this.events.push({ event, id, data: JSON.parse(data.join('\n')) as Record<string, unknown> });
      cut = this.buffer.indexOf('\n\n');
    }
    this.notify();
  }

  private notify(): void {
    for (const l of [...this.listeners]) l();
  }

  /** Wait until `done()` holds (checked on every event), or fail after `timeoutMs`. */
  until(done: () => boolean, timeoutMs: number, what: string): Promise<void> {
    if (done()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const check = (): void => {
        if (!done()) return;
        clearTimeout(timer);
        this.listeners = this.listeners.filter((l) => l !== check);
        resolve();
      };
      const timer = setTimeout(() => {
        this.listeners = this.listeners.filter((l) => l !== check);
        reject(new Error(`timed out waiting for ${what}; got ${this.events.map((e) => e.event).join(', ')}`));
      }, timeoutMs);
      this.listeners.push(check);
    });
  }

  close(): void {
    this.req.destroy();
  }
}

/** A socket to /v1/twilio, open, that records how it was closed. */
export async function connectTwilio(url: string): Promise<{ ws: WebSocket; closed: Promise<{ code: number; reason: string }> }> {
  const ws = new WebSocket(url);
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() }));
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return { ws, closed };
}

/** A Twilio call on a test server: its subscriber stream, its socket, and its frames. */
export interface LiveCall {
  call: TwilioCall;
  /** The call's events (`GET /v1/sessions/{call SID}/events`), subscribed before the call connects. */
  sse: SseClient;
  ws: WebSocket;
  /** How the server's end closed the socket. */
  closed: Promise<{ code: number; reason: string }>;
  /** `connected`, `start` and the media frames, as Twilio sends them (sent already unless `send: false`). */
  frames: Record<string, unknown>[];
  /** The call's `stop` frame, never sent here. */
  stop: Record<string, unknown>;
}

/**
 * Open a Twilio call as the tests of a live call do: a call with fresh SIDs and `params` as its custom parameters, its
 * events subscribed to, its socket connected to `/v1/twilio`; then, unless `send` is false, `connected`, `start` and the
 * media of `audio` (default 100 ms of mu-law silence) sent and `session.started` awaited. `stop` is left to the test.
 */
export async function liveCall(
  server: { httpUrl: string; wsUrl: string },
  options: { params?: Record<string, string>; audio?: Buffer; send?: boolean } = {},
): Promise<LiveCall> {
  const call = twilioCall(options.params ?? {});
  const sse = await SseClient.open(`${server.httpUrl}/v1/sessions/${call.callSid}/events`);
  const { ws, closed } = await connectTwilio(`${server.wsUrl}/v1/twilio`);
  const frames = twilioMessages(call, options.audio ?? Buffer.alloc(TWILIO_CHUNK_BYTES * 5, 0xff));
  const stop = frames.pop()!;
  if (options.send ?? true) {
    for (const m of frames) ws.send(JSON.stringify(m));
    await sse.until(() => sse.events.some((e) => e.event === 'session.started'), 120_000, 'session.started');
  }
  return { call, sse, ws, closed, frames, stop };
}
