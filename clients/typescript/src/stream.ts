import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';
import { AudioQueue } from './audio-queue.js';
import { ResumeSchedule } from './resume-policy.js';
import { DEFAULT_RESEND_BUFFER_MS, resendFrom, SentAudio } from './sent-audio.js';
import { queryRefusal, refusedQueryProbe, SentMessages, withUtteranceId, type LostMessage } from './sent-messages.js';
import { errorFromResponse, ParleyError } from './errors.js';
import type { ClientMessage, ClientMessages, ServerEvent, ServerEvents, ServerEventType } from './generated/api.js';
import { MAX_CATCH_UP_MS, type PacingClock, type StreamOptions } from './stream-options.js';

export type { Pacing, PacingClock, StreamOptions } from './stream-options.js';
export type { LostMessage } from './sent-messages.js';

/** Called with each event, and with null once the stream is closed for good. */
type Listener = (event: ServerEvent | null) => void;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const WALL_CLOCK: PacingClock = { now: () => performance.now(), sleep };

/**
 * Close code of a connection refused because its session has ended or is ending (after its fatal
 * `PARLEY_ERR_SESSION_ENDED`): a new session id is needed, so it is never resumed.
 */
export const SESSION_ENDED_CLOSE = 4001;

/** Close codes after which the session is over or belongs to another connection: never resumed. */
const FINAL_CLOSES = new Set([1000, 4000, SESSION_ENDED_CLOSE]);

/**
 * The error of a socket closed with `code` and no fatal `error` before it: `PARLEY_ERR_SESSION_ENDED` for
 * {@link SESSION_ENDED_CLOSE} (even when its `error` frame was lost), else `PARLEY_CLIENT_CLOSED`.
 */
function closedError(code: number, reason: string, when: string): ParleyError {
  const how = `${code}${reason ? ` ${reason}` : ''}`;
  return code === SESSION_ENDED_CLOSE
    ? new ParleyError('PARLEY_ERR_SESSION_ENDED', `the session has ended and cannot be resumed (${how}); start a new session with another id`, { fatal: true, closeCode: code })
    : new ParleyError('PARLEY_CLIENT_CLOSED', `${when} (${how})`, { closeCode: code });
}

/** The non-fatal `error` event that tells the application a query of its was lost in a drop and not sent again. */
function lostEvent(sessionId: string, m: LostMessage): ServerEvents['error'] {
  return {
    type: 'error', session_id: sessionId, seq: 0, code: 'PARLEY_CLIENT_LOST', fatal: false,
    message: `query ${JSON.stringify(m.id)} was sent but the connection dropped before its query.result; ask again`,
    dropped: { type: m.type, id: m.id },
  };
}

/**
 * One session on `GET /v1/stream`. Iterate it (`for await (const e of session)`) for the server's
 * events, typed by `type`; `sendAudio` paces audio; `end()` ends the session and waits for
 * `session.ended`. When the connection drops it reconnects with the same session id (the server
 * resumes the session: same transcript, speakers and event numbering); events the server sent while
 * no connection was up are lost. When the server's audio stream did not survive (a shutdown, a crash, a
 * restart, a resume on another server) it first sends again the audio the server named as not stored
 * (`unstored_from_ms` of the closing error or of the resumed `session.started`), from the last
 * `resendBufferMs` it keeps. `utterance` messages not acknowledged when the connection dropped are sent again
 * (each has an `utterance_id`, the SDK's own when the application gave none, and the server stores an id once);
 * unanswered queries are reported instead (a `PARLEY_CLIENT_LOST` error event each, and {@link lostMessages}).
 */
export class StreamSession implements AsyncIterable<ServerEvent> {
  /** The session id (the server's, when none was given). */
  sessionId: string;
  /** How many times the connection was re-established. */
  reconnects = 0;
  /** The close code of the last connection to close (undefined while none has). */
  closeCode: number | undefined;
  /**
   * Where the server began shedding audio, per overload episode (`PARLEY_ERR_OVERLOADED` with
   * `shed_from_ms`), ms on the clock of the server process that shed it, oldest first.
   */
  readonly shedFromMs: number[] = [];
  /**
   * Every stretch of audio the server shed and so never heard (`audio.shed`, sent as each overload episode
   * ends), `[fromMs, untilMs)` on the clock of the server process that shed it, oldest first. A turn that was
   * open when shedding began ended there (`vad.speech_stopped` with reason `overload`); what was said in
   * these spans is not in the transcript, and a shutdown's resend (`unstored_from_ms`) starts no later than
   * the first of them after the last stored turn.
   */
  readonly shedSpans: { fromMs: number; untilMs: number }[] = [];
  /** Recent audio sent, for a resend after a server shutdown or crash (`resendBufferMs`). */
  private readonly sentAudio: SentAudio;
  /** `utterance` and `query` messages sent and not yet acknowledged, for a resend or a report after a drop. */
  private readonly sentMessages = new SentMessages();
  /** Set by `PARLEY_ERR_SHUTTING_DOWN`: the server process ends; where its unstored audio begins (null: none). */
  private shutDownFrom: { ms: number | null } | null = null;
  private ws: WebSocket | null = null;
  private readonly queue: AudioQueue;
  private readonly buffered: ServerEvent[] = [];
  private readonly listeners = new Set<Listener>();
  /** Iterators waiting for the next event. */
  private wakers: (() => void)[] = [];
  private outcome: { error: ParleyError | null } | null = null;
  private closing = false;
  /** Ends the resume backoff wait now (set while one is running). */
  private cancelPause: (() => void) | null = null;
  private ended = false;
  private lastFatal: ParleyError | null = null;
  private sawEnded = false;
  /** The `session.ended` received, if any (`end()` after an end made elsewhere answers with it). */
  private endedEvent: ServerEvents['session.ended'] | null = null;
  private pumping = false;
  private drainWaiters: (() => void)[] = [];
  private readonly clock: PacingClock;
  /** When audio `sentMs` 0 was due on the pacing clock: audio `x` is due at `clockStart + x / speed`. */
  private clockStart = 0;
  private sentMs = 0;
  /** When the last audio frame went out (pacing clock), undefined before the first. */
  private lastAudioAt: number | undefined;
  /** Whether a connection is up (its session started); while not, the pump waits on `connectedWaiter`. */
  private connected = false;
  private setConnected: () => void = () => {};
  private connectedWaiter: Promise<void> = new Promise((resolve) => {
    this.setConnected = resolve;
  });

  private constructor(private readonly url: URL, private readonly headers: Record<string, string>, private readonly options: StreamOptions) {
    this.sessionId = options.sessionId ?? '';
    this.queue = new AudioQueue(options.encoding ?? 'pcm_s16le', options.sampleRate ?? 16000, options.frameMs ?? 20);
    this.sentAudio = new SentAudio(options.resendBufferMs ?? DEFAULT_RESEND_BUFFER_MS);
    // Bad resume options are refused now, not at the first reconnect in the middle of a call.
    if (options.resume) new ResumeSchedule(options.resume);
    this.clock = options.clock ?? WALL_CLOCK;
  }

  /** Audio sent again after server shutdowns and crashes (what the server named as not stored), ms. */
  get resentAudioMs(): number {
    return this.sentAudio.resentMs;
  }

  /**
   * Audio server shutdowns named as not stored that was never sent again, ms: older than
   * `resendBufferMs`, or named by a server the stream then could not resume on.
   */
  get lostAudioMs(): number {
    return this.sentAudio.lostMs;
  }

  /** `utterance` messages sent again after reconnects (unacknowledged when the connection dropped). */
  get resentMessages(): number {
    return this.sentMessages.resent;
  }

  /**
   * Queries sent and never answered before a drop, oldest first (their answer was lost with the connection; utterances
   * are sent again instead). Each was also reported by a non-fatal `error` event `PARLEY_CLIENT_LOST` naming it in
   * `dropped`.
   */
  get lostMessages(): readonly LostMessage[] {
    return this.sentMessages.lost;
  }

  /** Open a session; resolves once the server sent `session.started`, rejects with a ParleyError when refused. */
  static async open(baseUrl: string, apiKey: string | undefined, options: StreamOptions = {}): Promise<StreamSession> {
    const url = new URL(`${baseUrl.replace(/^http/, 'ws').replace(/\/+$/, '')}/v1/stream`);
    const query: Record<string, string> = {
      ...(options.sampleRate !== undefined ? { sample_rate: String(options.sampleRate) } : {}),
      ...(options.encoding !== undefined ? { encoding: options.encoding } : {}),
      ...options.query,
    };
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
    const session = new StreamSession(url, apiKey ? { authorization: `Bearer ${apiKey}` } : {}, options);
    await session.connect();
    return session;
  }

  /** The current socket (for tests that need to break the connection); null while reconnecting. */
  get socket(): WebSocket | null {
    return this.ws;
  }

  /** Queue audio in the declared encoding; it goes out in frames, paced as configured. */
  sendAudio(audio: Uint8Array | ArrayBufferView | ArrayBuffer): void {
    this.assertOpen();
    const bytes = audio instanceof ArrayBuffer ? new Uint8Array(audio) : new Uint8Array(audio.buffer, audio.byteOffset, audio.byteLength);
    this.queue.pushAudio(bytes);
    this.pump();
  }

  /**
   * Send a JSON message; it goes out after the audio queued before it. An `utterance` without `utterance_id` goes out
   * with one of the SDK's (`sdk-` and a UUID), which its `transcript.final` echoes.
   */
  send(message: ClientMessage): void {
    this.assertOpen();
    this.flushHeldAudio(message.type === 'session.end');
    this.queue.pushJson(withUtteranceId(message));
    this.pump();
  }

  /**
   * The whole samples of the partial frame held go out before a message; the bytes of a sample not yet complete wait
   * for the next audio, so audio sent after the message stays aligned. At `session.end` (`final`) such bytes are
   * dropped, and reported as the server reports a frame it drops for that: a non-fatal `PARLEY_ERR_BAD_AUDIO` `error`
   * event (`seq` 0); the `session.end` still goes out.
   */
  private flushHeldAudio(final: boolean): void {
    try {
      this.queue.flush(final);
    } catch (err) {
      if (!(err instanceof ParleyError) || err.code !== 'PARLEY_ERR_BAD_AUDIO') throw err;
      this.deliver({ type: 'error', session_id: this.sessionId, seq: 0, code: err.code, fatal: false, message: err.message });
    }
  }

  /**
   * Ask memory on the socket: sends a `query` (with `id`, or one of the SDK's, `sdk-` and a UUID) behind the audio
   * and messages queued before it, and resolves with its `query.result`. Rejects at once with the server's error
   * (a ParleyError with its `PARLEY_ERR_*` code) when an `error` answers it (an `asker` naming several participants
   * or none, a bad `utterance_id`, a malformed query, a full queue, the session ending), when the stream ends first,
   * or after `timeoutMs` (default 30 000).
   */
  query(message: Omit<ClientMessages['query'], 'type' | 'id'> & { id?: string }, options: { timeoutMs?: number } = {}): Promise<ServerEvents['query.result']> {
    const id = message.id ?? `sdk-${randomUUID()}`;
    // Sent before the wait starts (no answer can arrive in between): when send throws, no wait is left to reject unheard.
    this.send({ ...message, type: 'query', id });
    return this.waitFor('query.result', (e) => e.id === id, options);
  }

  /**
   * Resolves when everything queued so far (audio and messages) has been handed to the socket. Rejects with
   * `PARLEY_ERR_BAD_AUDIO` when the audio ends in the middle of a sample: its whole samples go out, the stray byte(s)
   * after them are dropped, and the session goes on (`end()` still ends it). So call it at the end of the audio, or
   * after whole samples.
   */
  async drained(): Promise<void> {
    this.queue.flush(true);
    this.pump();
    if (this.queue.length === 0 && !this.pumping) return;
    await new Promise<void>((resolve) => this.drainWaiters.push(resolve));
  }

  /**
   * End the session: the queued audio goes out, then `session.end`; resolves with `session.ended`
   * (the server has stored the last turn and closes the socket). Audio that ends in the middle of a sample does not
   * stop the end: its whole samples go out, and the stray byte(s) after them are dropped with a non-fatal
   * `PARLEY_ERR_BAD_AUDIO` `error` event.
   */
  async end(options: { timeoutMs?: number } = {}): Promise<ServerEvents['session.ended']> {
    // Ended already (`POST /v1/sessions/{id}/end` ends the socket too): that end is this one.
    if (this.endedEvent) {
      this.ended = true;
      return this.endedEvent;
    }
    // Sent first: a closed stream throws here, before a wait nobody would take the rejection of.
    this.send({ type: 'session.end' });
    this.ended = true;
    return this.waitFor('session.ended', () => true, { timeoutMs: options.timeoutMs ?? 120_000 });
  }

  /** Close the connection without ending the session (it stays resumable on the server for a while). */
  close(): void {
    this.closing = true;
    // A resume's backoff wait (up to a 429's Retry-After) would keep the process alive after close.
    this.cancelPause?.();
    this.ws?.close(1000, 'client closed');
    this.finish(null);
  }

  /**
   * The next event of `type` (matching `match`) from now on, without taking it from the iterator.
   * Rejects with a ParleyError when the stream ends first or after `timeoutMs` (default 30 000). Waiting for a
   * `query.result`, it rejects at once with the server's error when an `error` answers a query `match` waits for
   * (the error names the query's `id`; `match` is shown a `query.result` with that `id` and no evidence). A `match`
   * that throws is taken as not matching.
   */
  waitFor<T extends ServerEventType>(type: T, match: (event: ServerEvents[T]) => boolean = () => true, options: { timeoutMs?: number } = {}): Promise<ServerEvents[T]> {
    const timeoutMs = options.timeoutMs ?? 30_000;
    // A throw in the caller's match (one reading `evidence[0]` of the refusal probe) would escape the event dispatch.
    const matches = (event: ServerEvents[T]): boolean => {
      try {
        return match(event);
      } catch {
        return false;
      }
    };
    return new Promise((resolve, reject) => {
      if (this.outcome) {
        reject(this.outcome.error ?? new ParleyError('PARLEY_CLIENT_CLOSED', `stream closed; no ${type} event will come`));
        return;
      }
      const timer = setTimeout(() => {
        this.listeners.delete(listener);
        reject(new ParleyError('PARLEY_CLIENT_TIMEOUT', `no ${type} event within ${timeoutMs} ms`));
      }, timeoutMs);
      const listener: Listener = (event) => {
        if (event === null) {
          clearTimeout(timer);
          this.listeners.delete(listener);
          reject(this.outcome?.error ?? new ParleyError('PARLEY_CLIENT_CLOSED', `stream closed before ${type}`));
        } else if (event.type === type && matches(event as ServerEvents[T])) {
          clearTimeout(timer);
          this.listeners.delete(listener);
          resolve(event as ServerEvents[T]);
        } else if (type === 'query.result') {
          const refused = queryRefusal(event);
          if (refused && matches(refusedQueryProbe(this.sessionId, refused.id) as ServerEvents[T])) {
            clearTimeout(timer);
            this.listeners.delete(listener);
            reject(refused.error);
          }
        }
      };
      this.listeners.add(listener);
    });
  }

  /**
   * Server events in order, across reconnects; ends after the socket closes for good (throws if by an
   * error). Events wait here until taken, so a long session should be iterated; with more than one
   * iterator, each event goes to one of them.
   */
  async *[Symbol.asyncIterator](): AsyncIterator<ServerEvent> {
    for (;;) {
      const next = this.buffered.shift();
      if (next) {
        yield next;
        continue;
      }
      if (this.outcome) {
        if (this.outcome.error) throw this.outcome.error;
        return;
      }
      await new Promise<void>((resolve) => {
        this.wakers.push(resolve);
      });
    }
  }

  private assertOpen(): void {
    if (this.ended) throw new ParleyError('PARLEY_ERR_SESSION_ENDED', 'end() was called on this session');
    if (this.outcome) throw this.outcome.error ?? new ParleyError('PARLEY_CLIENT_CLOSED', 'the stream is closed');
  }

  private deliver(event: ServerEvent): void {
    if (event.type === 'session.ended') {
      this.sawEnded = true;
      this.endedEvent = event;
    }
    this.buffered.push(event);
    for (const l of [...this.listeners]) l(event);
    for (const wake of this.wakers.splice(0)) wake();
  }

  private finish(error: ParleyError | null): void {
    if (this.outcome) return;
    if (this.shutDownFrom) {
      // The server named audio it did not store and no later server got it again: that audio is lost.
      const lost = this.sentAudio.abandon(this.shutDownFrom.ms);
      this.shutDownFrom = null;
      if (lost > 0 && error) error = new ParleyError(error.code, `${error.message}; ${Math.round(lost)} ms of audio the server named as not stored (unstored_from_ms) was not resent`, { cause: error.cause, ...(error.closeCode !== undefined ? { closeCode: error.closeCode } : {}), fatal: error.fatal });
    }
    this.outcome = { error };
    for (const l of [...this.listeners]) l(null);
    for (const wake of this.wakers.splice(0)) wake();
    for (const w of this.drainWaiters.splice(0)) w();
    this.setConnected();
  }

  /** One connection attempt: resolves on `session.started`. */
  private connect(): Promise<void> {
    const url = new URL(this.url);
    this.lastFatal = null;
    if (this.sessionId) url.searchParams.set('session_id', this.sessionId);
    return new Promise<void>((resolve, reject) => {
      const ws = new WebSocket(url, { headers: this.headers });
      let started = false;
      /** Messages given up on at this connection's start: reported after its session.started. */
      let lost: LostMessage[] = [];
      /** This connection's number for acknowledgements (`SentMessages.currentSocket` once it is up). */
      let socket = -1;
      const timer = setTimeout(() => {
        ws.terminate();
        reject(new ParleyError('PARLEY_CLIENT_TIMEOUT', `no session.started within ${this.options.openTimeoutMs ?? 15_000} ms`));
      }, this.options.openTimeoutMs ?? 15_000);
      ws.once('unexpected-response', (req, res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => { text += chunk; });
        res.on('end', () => {
          clearTimeout(timer);
          req.destroy();
          let body: unknown = null;
          try { body = JSON.parse(text); } catch { /* not JSON */ }
          reject(errorFromResponse(res.statusCode ?? 0, body, text, res.headers['retry-after']));
        });
      });
      ws.on('error', (err) => {
        if (started) return;
        clearTimeout(timer);
        reject(new ParleyError('PARLEY_CLIENT_NETWORK', `cannot connect to ${url.origin}: ${err.message}`, { cause: err }));
      });
      ws.on('message', (data, isBinary) => {
        if (isBinary) return;
        let event: ServerEvent;
        try {
          event = JSON.parse(data.toString()) as ServerEvent;
        } catch {
          return;
        }
        if (event.type === 'error' && event.fatal) {
          // A refusal (bad format, no free slot) is followed by the close: reported with its code.
          this.lastFatal = new ParleyError(event.code, event.message, { fatal: true });
        }
        if (event.type === 'error' && event.code === 'PARLEY_ERR_OVERLOADED' && event.shed_from_ms !== undefined) {
          this.shedFromMs.push(event.shed_from_ms);
        }
        if (event.type === 'audio.shed') this.shedSpans.push(...event.spans.map((x) => ({ fromMs: x.from_ms, untilMs: x.until_ms })));
        if (event.type === 'error' && event.code === 'PARLEY_ERR_SHUTTING_DOWN') {
          this.shutDownFrom = { ms: event.unstored_from_ms ?? null };
        }
        if (event.type === 'session.started' && !started) {
          started = true;
          // A resume on a new audio stream (a crash, a restart, another server) names where nothing of the old one is stored.
          const storedTo = event.resumed && event.unstored_from_ms !== undefined ? event.unstored_from_ms : null;
          const newStream = this.shutDownFrom !== null || storedTo !== null;
          let resentMs = 0;
          // Unacknowledged messages may have been lost with the connection: utterances go first (the server
          // stores an id once), queries are reported below.
          const messages = this.sentMessages.resume();
          socket = this.sentMessages.currentSocket;
          this.queue.unshift(messages.resend);
          if (newStream) {
            // A new audio stream: the audio the old one did not store goes first, on the new one's clock.
            const resend = this.sentAudio.takeFrom(resendFrom(this.shutDownFrom, storedTo));
            resentMs = resend.reduce((ms, f) => ms + f.ms, 0);
            this.queue.unshift(resend);
            this.shutDownFrom = null;
          }
          lost = messages.lost;
          clearTimeout(timer);
          const id = (event.config as { session_id?: unknown }).session_id;
          if (typeof id === 'string') this.sessionId = id;
          this.ws = ws;
          this.connected = true;
          // Pacing continues from here, ahead by the audio to catch up on (held during the outage, resent).
          const now = this.clock.now();
          const catchUp = event.resumed === true ? this.catchUpMs(now, newStream, resentMs) : 0;
          this.clockStart = now - (this.sentMs + catchUp) / this.speed;
          this.setConnected();
          resolve();
        }
        if (started) {
          this.sentMessages.acknowledge(event, socket);
          this.deliver(event);
          for (const m of lost.splice(0)) this.deliver(lostEvent(this.sessionId, m));
        }
      });
      ws.on('close', (code, reason) => {
        clearTimeout(timer);
        this.closeCode = code;
        if (!started) {
          const fatal = this.lastFatal;
          reject(fatal
            ? new ParleyError(fatal.code, fatal.message, { fatal: true, closeCode: code })
            : closedError(code, reason.toString(), 'closed before session.started'));
          return;
        }
        if (this.ws === ws) {
          this.ws = null;
          this.connected = false;
          this.connectedWaiter = new Promise((resolve) => {
            this.setConnected = resolve;
          });
        }
        void this.onDrop(code, reason.toString());
      });
    });
  }

  /** The socket closed after the session started: finish, or reconnect and resume. */
  private async onDrop(code: number, reason: string): Promise<void> {
    const resume = this.options.resume ?? {};
    const sawEnd = this.sawEnded;
    if (this.closing || sawEnd || this.lastFatal || FINAL_CLOSES.has(code) || resume === false) {
      const error = this.closing || sawEnd ? null
        : this.lastFatal
          ? new ParleyError(this.lastFatal.code, this.lastFatal.message, { fatal: true, closeCode: code })
          : closedError(code, reason, 'connection closed');
      this.finish(error);
      return;
    }
    const schedule = new ResumeSchedule(resume);
    let last: unknown = null;
    for (let wait = schedule.next(); wait !== null; wait = schedule.next()) {
      await this.pause(wait);
      if (this.closing) return;
      try {
        await this.connect();
        if (this.closing) {
          // close() came while connecting: the new socket is not the one it closed.
          this.ws?.close(1000, 'client closed');
          return;
        }
        this.reconnects += 1;
        this.pump();
        return;
      } catch (err) {
        last = err;
        if (err instanceof ParleyError && err.code === 'PARLEY_ERR_SESSION_ENDED') {
          // Ended while this stream was away (over HTTP, by another connection): said as such, never tried again.
          this.finish(new ParleyError(err.code, `the session ended while the stream was disconnected: ${err.message}`, {
            fatal: true, cause: err, ...(err.closeCode !== undefined ? { closeCode: err.closeCode } : {}),
          }));
          return;
        }
        if (err instanceof ParleyError && !err.retryable && err.code !== 'PARLEY_CLIENT_CLOSED') break;
        // A 429 says when to come back: not sooner.
        if (err instanceof ParleyError && err.retryAfterMs !== undefined) schedule.atLeast(err.retryAfterMs);
      }
    }
    const tried = `${schedule.attempts} attempt${schedule.attempts === 1 ? '' : 's'} in ${(schedule.elapsedMs / 1000).toFixed(1)} s`;
    this.finish(new ParleyError('PARLEY_CLIENT_CLOSED', `connection lost (${code}) and not resumed (${tried}): ${(last as Error | null)?.message ?? 'no attempt'}`, { cause: last }));
  }

  /** A backoff wait of `ms` that close() ends at once (its timer then no longer holds the process). */
  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.cancelPause = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.cancelPause = done;
    });
  }

  /**
   * How much audio a resumed connection sends at once before pacing goes on in real time, ms: what pacing
   * is behind the live clock (the audio held during the outage) plus what is resent, within the server's
   * catch-up allowance: the whole {@link MAX_CATCH_UP_MS} on a new audio stream (after a shutdown), else
   * the gap since the last frame sent (the server measures it the same way), at most that. Audio beyond
   * it goes out in real time after it, as before.
   */
  private catchUpMs(now: number, newStream: boolean, resentMs: number): number {
    const allowance = newStream ? MAX_CATCH_UP_MS : this.lastAudioAt === undefined ? 0 : Math.min(now - this.lastAudioAt, MAX_CATCH_UP_MS);
    const behind = Math.max(0, (now - this.clockStart) * this.speed - this.sentMs);
    return Math.max(0, Math.min(behind + resentMs, allowance));
  }

  /** Audio ms per wall-clock ms: `speed` when paced in real time, else 1 (`fast` counts its lead in real time). */
  private get speed(): number {
    return (this.options.pacing ?? 'realtime') === 'realtime' ? this.options.speed ?? 1 : 1;
  }

  /** Send queued items in order, pacing audio. One pump at a time. */
  private pump(): void {
    if (this.pumping) return;
    this.pumping = true;
    void this.pumpLoop().finally(() => {
      this.pumping = false;
      if (this.queue.length === 0 || this.outcome) for (const w of this.drainWaiters.splice(0)) w();
      else this.pump();
    });
  }

  private async pumpLoop(): Promise<void> {
    const pacing = this.options.pacing ?? 'realtime';
    const maxLead = this.options.maxLeadMs ?? 4_000;
    for (let item = this.queue.peek(); item && !this.outcome; item = this.queue.peek()) {
      const ws = this.ws;
      if (!ws || ws.readyState !== WebSocket.OPEN) {
        // Closing: its close event (then a reconnect) comes shortly; disconnected: wait for the reconnect.
        await (this.connected ? sleep(10) : this.connectedWaiter);
        continue;
      }
      if (item.kind === 'audio' && pacing !== 'none') {
        const lead = pacing === 'fast' ? maxLead : 0;
        const wait = this.clockStart + (this.sentMs - lead) / this.speed - this.clock.now();
        if (wait > 0) {
          await this.clock.sleep(wait);
          continue;
        }
      }
      this.queue.shift();
      ws.send(item.kind === 'audio' ? item.data : item.text);
      if (item.kind === 'json') this.sentMessages.record(item);
      if (item.kind === 'audio') {
        this.sentMs += item.ms;
        this.lastAudioAt = this.clock.now();
        this.sentAudio.record(item);
      }
    }
  }
}
