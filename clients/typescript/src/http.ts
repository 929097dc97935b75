import { errorFromResponse, ParleyError } from './errors.js';
import { SessionEventStream } from './session-events.js';
import { StreamSession, type StreamOptions } from './stream.js';
import { OPERATIONS, type OperationId, type Operations, type Schemas } from './generated/api.js';

/** Retrying a request the server refused with 429 `PARLEY_ERR_RATE_LIMITED`. */
export interface RateLimitRetry {
  /** Retries after the first refusal. Default 2. */
  attempts?: number;
  /**
   * Longest `Retry-After` waited for, ms (default 10 000): a refusal asking for longer is thrown at
   * once, so a caller never waits more than `attempts × maxWaitMs`. A 429 without the header waits 1 s.
   */
  maxWaitMs?: number;
}

/** Options of a `ParleyClient`. */
export interface ParleyClientOptions {
  /** The server, e.g. `http://127.0.0.1:8080` (a trailing slash is fine). */
  baseUrl: string;
  /** An API key of the server's `PARLEY_API_KEYS`; omit when the server has none. */
  apiKey?: string;
  /** Per-request time-out, ms (for `sessionEvents`: until the stream is open). Default 30 000. */
  timeoutMs?: number;
  /** The fetch to use (tests, proxies). Default: Node's global fetch. */
  fetch?: typeof fetch;
  /**
   * After a 429 `PARLEY_ERR_RATE_LIMITED` (the key's tenant is over the server's
   * `PARLEY_RATE_LIMIT_PER_MIN`), wait the server's `Retry-After` and try again, bounded; then the
   * `ParleyError` (code `PARLEY_ERR_RATE_LIMITED`, `status` 429, `retryAfterMs`) is thrown. A refused
   * request did nothing on the server, so every method is retried. Default `{ attempts: 2, maxWaitMs: 10_000 }`;
   * `false` throws the first 429.
   */
  rateLimitRetry?: false | RateLimitRetry;
}

/** One request in flight: its signal (the caller's, plus the time-out) and the time-out's timer. */
interface Exchange {
  res: Response;
  /** Stop the time-out (the body is read, or a stream is open). */
  clearTimeout(): void;
  /** A ParleyError for a failure while reading the body. */
  failure(err: unknown): ParleyError;
  /** Abort the request (and its body). */
  abort(): void;
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new ParleyError('PARLEY_CLIENT_CLOSED', 'aborted', { cause: signal.reason }));
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new ParleyError('PARLEY_CLIENT_CLOSED', 'aborted while waiting to retry', { cause: signal?.reason }));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

type IsEmpty<T> = string extends keyof T ? true : [keyof T] extends [never] ? true : false;
/** What `request(op, args)` needs for one operation: only the parts that operation has. */
export type RequestArgs<Op extends OperationId> =
  & (IsEmpty<Operations[Op]['path']> extends true ? { path?: undefined } : { path: Operations[Op]['path'] })
  & (IsEmpty<Operations[Op]['query']> extends true ? { query?: undefined } : { query?: Operations[Op]['query'] })
  & (IsEmpty<Operations[Op]['headers']> extends true ? { headers?: undefined } : { headers?: Operations[Op]['headers'] })
  & (Operations[Op]['body'] extends undefined ? { body?: undefined } : { body: Operations[Op]['body'] })
  & { signal?: AbortSignal };

/**
 * `baseUrl` as requests are built on it (no trailing slash).
 * @throws ParleyError `PARLEY_CLIENT_BAD_OPTIONS` naming what is wrong: not a URL, no http:// or https://
 * (`localhost:8080`), a query or fragment, or a path ending in /v1 (the operations add it themselves).
 */
function checkedBaseUrl(baseUrl: string): string {
  const bad = (message: string): ParleyError => new ParleyError('PARLEY_CLIENT_BAD_OPTIONS', message);
  if (typeof baseUrl !== 'string' || baseUrl.trim() === '') throw bad('baseUrl is required: the server\'s root, such as http://127.0.0.1:8080');
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw bad(`baseUrl ${JSON.stringify(baseUrl)} is not a URL: give the server's root, such as http://127.0.0.1:8080`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    // `localhost:8080` parses as the scheme "localhost:".
    const hint = /^[\w.-]+:\d+/.test(baseUrl) ? `; did you mean http://${baseUrl}?` : '';
    throw bad(`baseUrl must start with http:// or https://, not ${url.protocol}${hint}`);
  }
  if (url.search || url.hash) throw bad(`baseUrl ${JSON.stringify(baseUrl)} has a query or fragment: give the server's root only`);
  if (/\/v1\/*$/.test(url.pathname)) {
    throw bad(`baseUrl ends in /v1, which every operation adds itself: use ${url.origin}${url.pathname.replace(/\/v1\/*$/, '')}`);
  }
  return url.href.replace(/\/+$/, '');
}

/** Fill a path template such as `/v1/participants/{id}`; every value is percent-encoded. */
export function fillPath(template: string, params: Record<string, string> | undefined): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === '') throw new ParleyError('PARLEY_ERR_BAD_REQUEST', `missing path parameter ${name}`);
    return encodeURIComponent(value);
  });
}

/**
 * Parley's HTTP API. Every method is one operation of /openapi.json (its operationId names the method
 * of `request`); types come from `generated/api.ts`, written from the served document. Errors are
 * thrown as `ParleyError` with the server's code.
 */
export class ParleyClient {
  readonly baseUrl: string;
  private readonly apiKey: string | undefined;
  private readonly timeoutMs: number;
  private readonly fetchImpl: typeof fetch;
  private readonly rateLimitRetry: Required<RateLimitRetry> | false;
  /** How many times a request was sent again after a 429 (for tests and metrics of the caller). */
  rateLimitedRetries = 0;

  constructor(options: ParleyClientOptions) {
    this.baseUrl = checkedBaseUrl(options.baseUrl);
    this.apiKey = options.apiKey;
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.fetchImpl = options.fetch ?? fetch;
    const retry = options.rateLimitRetry ?? {};
    this.rateLimitRetry = retry === false ? false : { attempts: retry.attempts ?? 2, maxWaitMs: retry.maxWaitMs ?? 10_000 };
  }

  /** Call one operation by its operationId. Resolves with the documented success body. */
  async request<Op extends OperationId>(op: Op, args: RequestArgs<Op>): Promise<Operations[Op]['response']> {
    const { res, text, url } = await this.fetchText(op, args, 'application/json');
    let parsed: unknown = undefined;
    try {
      parsed = text.length > 0 ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: reported below
    }
    if (parsed === undefined) throw new ParleyError('PARLEY_CLIENT_BAD_RESPONSE', `${OPERATIONS[op].method} ${url.pathname}: HTTP ${res.status} without a JSON body`, { status: res.status });
    return parsed as Operations[Op]['response'];
  }

  /** Call one operation whose success has no body (204 No Content). Resolves once it succeeded. */
  async requestNoContent<Op extends OperationId>(op: Op, args: RequestArgs<Op>): Promise<void> {
    await this.fetchText(op, args, 'application/json');
  }

  /** The URL and headers of one operation's request. */
  private prepare<Op extends OperationId>(op: Op, args: RequestArgs<Op>, accept: string): { url: URL; headers: Record<string, string>; body: string | undefined } {
    const url = new URL(this.baseUrl + fillPath(OPERATIONS[op].path, args.path as Record<string, string> | undefined));
    for (const [name, value] of Object.entries((args.query ?? {}) as Record<string, unknown>)) {
      if (value !== undefined && value !== null) url.searchParams.set(name, String(value));
    }
    const headers: Record<string, string> = { accept };
    if (this.apiKey) headers.authorization = `Bearer ${this.apiKey}`;
    for (const [name, value] of Object.entries((args.headers ?? {}) as Record<string, string | undefined>)) {
      if (value !== undefined) headers[name] = value;
    }
    let body: string | undefined;
    if (args.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(args.body);
    }
    return { url, headers, body };
  }

  /** One operation up to its whole body as text; error responses are thrown (429s retried first). */
  private async fetchText<Op extends OperationId>(op: Op, args: RequestArgs<Op>, accept: string): Promise<{ res: Response; text: string; url: URL }> {
    const { url, headers, body } = this.prepare(op, args, accept);
    const ex = await this.exchange(OPERATIONS[op].method, url, headers, body, args.signal);
    try {
      return { res: ex.res, text: await ex.res.text(), url };
    } catch (err) {
      throw ex.failure(err);
    } finally {
      ex.clearTimeout();
    }
  }

  /**
   * Send a request until it is not refused with 429 (as `rateLimitRetry` allows); resolves once a
   * 2xx response's headers are in, with its body unread. Error responses are thrown as ParleyError.
   */
  private async exchange(method: string, url: URL, headers: Record<string, string>, body: string | undefined, signal: AbortSignal | undefined): Promise<Exchange> {
    for (let attempt = 0; ; attempt++) {
      const ex = await this.attempt(method, url, headers, body, signal);
      if (ex.res.ok) return ex;
      let error: ParleyError;
      try {
        const text = await ex.res.text();
        let parsed: unknown = null;
        try { parsed = JSON.parse(text); } catch { /* not JSON */ }
        error = errorFromResponse(ex.res.status, parsed, text, ex.res.headers.get('retry-after'));
      } catch (err) {
        throw ex.failure(err);
      } finally {
        ex.clearTimeout();
      }
      await this.waitToRetry(error, attempt, signal);
    }
  }

  /** Wait out a 429's `Retry-After` when `rateLimitRetry` allows another attempt; else throw `error`. */
  private async waitToRetry(error: unknown, attempt: number, signal: AbortSignal | undefined): Promise<void> {
    const retry = this.rateLimitRetry;
    if (!(error instanceof ParleyError) || error.code !== 'PARLEY_ERR_RATE_LIMITED' || !retry || attempt >= retry.attempts) throw error;
    const wait = error.retryAfterMs ?? 1_000;
    if (wait > retry.maxWaitMs) throw error;
    this.rateLimitedRetries += 1;
    await sleep(wait, signal);
  }

  /** One fetch with the time-out running until `clearTimeout`. */
  private async attempt(method: string, url: URL, headers: Record<string, string>, body: string | undefined, signal: AbortSignal | undefined): Promise<Exchange> {
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, this.timeoutMs);
    const failure = (err: unknown): ParleyError => {
      if (err instanceof ParleyError) return err;
      const what = timedOut ? `no answer within ${this.timeoutMs} ms` : (err as Error).message;
      return new ParleyError(timedOut ? 'PARLEY_CLIENT_TIMEOUT' : 'PARLEY_CLIENT_NETWORK', `${method} ${url.pathname}: ${what}`, { cause: err });
    };
    try {
      const res = await this.fetchImpl(url, {
        method, headers, ...(body !== undefined ? { body } : {}),
        signal: signal ? AbortSignal.any([signal, controller.signal]) : controller.signal,
      });
      return { res, clearTimeout: () => clearTimeout(timer), failure, abort: () => controller.abort() };
    } catch (err) {
      clearTimeout(timer);
      throw failure(err);
    }
  }

  /** `GET /healthz`: the process is up (needs no key). */
  health(): Promise<Schemas['Health']> {
    return this.request('getHealth', {});
  }

  /** `GET /readyz`: every store and the queue answer; a server that is not ready throws (503). */
  readiness(): Promise<Schemas['Readiness']> {
    return this.request('getReadiness', {});
  }

  /** Store finished utterances; with `idempotencyKey`, resending the batch stores nothing twice. */
  postUtterances(sessionId: string, utterances: Schemas['PostUtterancesRequest']['utterances'], options: { idempotencyKey?: string } = {}): Promise<Schemas['PostUtterancesResponse']> {
    return this.request('postUtterances', {
      path: { session_id: sessionId },
      body: { utterances },
      ...(options.idempotencyKey ? { headers: { 'idempotency-key': options.idempotencyKey } } : {}),
    });
  }

  /** End a session over HTTP: queues end-of-session consolidation. */
  endSession(sessionId: string): Promise<Schemas['SessionEnd']> {
    return this.request('endSession', { path: { session_id: sessionId } });
  }

  /**
   * One page of a session's utterances in the order they were said (default 1,000; `next_cursor` says where the next
   * page starts, null on the last). {@link transcriptAll} reads every page.
   */
  transcript(sessionId: string, query: Operations['getTranscript']['query'] = {}): Promise<Schemas['Transcript']> {
    return this.request('getTranscript', { path: { session_id: sessionId }, query });
  }

  /** Every utterance of a session in the order they were said, read page by page. */
  async transcriptAll(sessionId: string, pageSize?: number): Promise<Schemas['Utterance'][]> {
    const all: Schemas['Utterance'][] = [];
    let cursor: string | null | undefined;
    do {
      const page: Schemas['Transcript'] = await this.transcript(sessionId, { ...(cursor ? { cursor } : {}), ...(pageSize ? { limit: pageSize } : {}) });
      all.push(...page.utterances);
      cursor = page.next_cursor;
    } while (cursor);
    return all;
  }

  /** Every participant of the tenant, oldest first, read page by page (see {@link participantsPage}). */
  async participants(pageSize?: number): Promise<Schemas['Participant'][]> {
    const all: Schemas['Participant'][] = [];
    let cursor: string | null | undefined;
    do {
      const page: Schemas['ParticipantList'] = await this.participantsPage({ ...(cursor ? { cursor } : {}), ...(pageSize ? { limit: pageSize } : {}) });
      all.push(...page.participants);
      cursor = page.next_cursor;
    } while (cursor);
    return all;
  }

  /** One page of the participant list (default 1,000); `next_cursor` asks for the next, null on the last. */
  participantsPage(query: Operations['listParticipants']['query'] = {}): Promise<Schemas['ParticipantList']> {
    return this.request('listParticipants', { query });
  }

  participant(id: string): Promise<Schemas['Participant']> {
    return this.request('getParticipant', { path: { id } });
  }

  /** The participant after the patch; `same_name`: the others holding a name it set, a name a lookup then finds ambiguous. */
  updateParticipant(id: string, patch: Schemas['ParticipantPatch']): Promise<Schemas['ParticipantPatched']> {
    return this.request('updateParticipant', { path: { id }, body: patch });
  }

  /**
   * Merge participant `id` into `into` (each an id, external_id or name), as the end-of-session speaker merge
   * does: utterances, interactions, facts, persona and voiceprints move to `into`; `id` is gone afterwards.
   */
  mergeParticipant(id: string, into: string): Promise<Schemas['ParticipantMerged']> {
    return this.request('mergeParticipant', { path: { id }, body: { into } });
  }

  /**
   * Erase a participant: their profile, utterances, kept audio, voiceprints, memories (and any fact whose text names
   * them), persona, and their keyword, vector and entity-index entries. Other people's utterances stay, with the
   * person's distinctive names and the identifying details they gave (address, phone, email, date of birth,
   * account/order numbers) replaced by `[erased]` and indexed again; a surname alone, a name a living participant
   * shares, and what others said of them without those details stay (docs/PROTOCOL.md, "Erasure").
   */
  eraseParticipant(id: string): Promise<Schemas['ParticipantErased']> {
    return this.request('eraseParticipant', { path: { id } });
  }

  /**
   * Forget one utterance (an addition to v1): its text, audio, edges and vectors, and the memories that came only from
   * it; a memory with another source stays without it. A `PARLEY_ERR_NOT_FOUND` error for an unknown id.
   */
  forgetUtterance(id: string): Promise<void> {
    return this.requestNoContent('forgetUtterance', { path: { id } });
  }

  /**
   * Forget a whole session (an addition to v1): every utterance of it as {@link forgetUtterance} does, and its stream
   * state. A live session is refused (`PARLEY_ERR_CONFLICT`, 409): end it first.
   */
  forgetSession(sessionId: string): Promise<void> {
    return this.requestNoContent('forgetSession', { path: { session_id: sessionId } });
  }

  /** One page of interactions, newest first (`limit`, default 100); see {@link interactionsPage} for the rest. */
  async interactions(query: Operations['listInteractions']['query'] = {}): Promise<Schemas['Utterance'][]> {
    return (await this.interactionsPage(query)).interactions;
  }

  /** One page of interactions with its `next_cursor`: pass it as `cursor` (same filters) for the next; null on the last. */
  interactionsPage(query: Operations['listInteractions']['query'] = {}): Promise<Schemas['InteractionList']> {
    return this.request('listInteractions', { query });
  }

  /** Every interaction the filters match, newest first, read page by page (`limit` is the page size). */
  async allInteractions(query: Omit<Operations['listInteractions']['query'], 'cursor'> = {}): Promise<Schemas['Utterance'][]> {
    return this.allPages((cursor) => this.interactionsPage({ ...query, ...cursor }), (page) => page.interactions);
  }

  /** One page of memories (`limit`, default 100); see {@link memoriesPage} for the rest. */
  async memories(query: Operations['listMemories']['query'] = {}): Promise<Schemas['Memory'][]> {
    return (await this.memoriesPage(query)).memories;
  }

  /** One page of memories with its `next_cursor`: pass it as `cursor` (same filters) for the next; null on the last. */
  memoriesPage(query: Operations['listMemories']['query'] = {}): Promise<Schemas['MemoryList']> {
    return this.request('listMemories', { query });
  }

  /** Every memory the filters match, read page by page (`limit` is the page size). */
  async allMemories(query: Omit<Operations['listMemories']['query'], 'cursor'> = {}): Promise<Schemas['Memory'][]> {
    return this.allPages((cursor) => this.memoriesPage({ ...query, ...cursor }), (page) => page.memories);
  }

  /** The items of every page `read` gives, following `next_cursor` until it is null. */
  private async allPages<P extends { next_cursor: string | null }, T>(
    read: (cursor: { cursor?: string }) => Promise<P>, items: (page: P) => T[],
  ): Promise<T[]> {
    const all: T[] = [];
    let cursor: string | null = null;
    do {
      const page: P = await read(cursor ? { cursor } : {});
      all.push(...items(page));
      cursor = page.next_cursor;
    } while (cursor);
    return all;
  }

  updateMemory(id: string, patch: Schemas['MemoryPatch']): Promise<Schemas['Memory']> {
    return this.request('updateMemory', { path: { id }, body: patch });
  }

  deleteMemory(id: string): Promise<Schemas['MemoryDeleted']> {
    return this.request('deleteMemory', { path: { id } });
  }

  /**
   * Open a session on `GET /v1/stream` (audio in, events out); resolves once the server started it.
   * An upgrade refused with 429 is retried as `rateLimitRetry` allows.
   */
  async stream(options: StreamOptions = {}): Promise<StreamSession> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await StreamSession.open(this.baseUrl, this.apiKey, options);
      } catch (err) {
        await this.waitToRetry(err, attempt, undefined);
      }
    }
  }

  /** One utterance, with speaker and addressees. */
  utterance(id: string): Promise<Schemas['Utterance']> {
    return this.request('getUtterance', { path: { id } });
  }

  /**
   * The utterance's kept audio span: a WAV file (16 kHz 16-bit mono). Throws PARLEY_ERR_NOT_FOUND
   * when no audio is kept for it (no voice, no consent, or `PARLEY_AUDIO_RETENTION_DAYS` removed it).
   */
  async utteranceAudio(id: string, options: { signal?: AbortSignal } = {}): Promise<Uint8Array> {
    const { url, headers } = this.prepare('getUtteranceAudio', { path: { id } }, 'audio/wav');
    const ex = await this.exchange('GET', url, headers, undefined, options.signal);
    try {
      return new Uint8Array(await ex.res.arrayBuffer());
    } catch (err) {
      throw ex.failure(err);
    } finally {
      ex.clearTimeout();
    }
  }

  /** A participant's persona: traits, preferences and affect, with their evidence. */
  persona(id: string, query: Operations['getParticipantPersona']['query'] = {}): Promise<Schemas['PersonaResponse']> {
    return this.request('getParticipantPersona', { path: { id }, query });
  }

  /**
   * Follow a session's server events over server-sent events (`GET /v1/sessions/{id}/events`):
   * resolves once the subscription is in place (it may precede the session, e.g. a Twilio call about
   * to be placed), with a typed async iterator of the same events `/v1/stream` sends. Stop with
   * `close()` or the signal.
   */
  async sessionEvents(sessionId: string, options: { signal?: AbortSignal } = {}): Promise<SessionEventStream> {
    const { url, headers } = this.prepare('followSessionEvents', { path: { session_id: sessionId } }, 'text/event-stream');
    const ex = await this.exchange('GET', url, headers, undefined, options.signal);
    ex.clearTimeout();
    const body = ex.res.body;
    if (!body) throw new ParleyError('PARLEY_CLIENT_BAD_RESPONSE', `GET ${url.pathname}: HTTP ${ex.res.status} without a body`);
    return new SessionEventStream(sessionId, body, ex.abort, options.signal);
  }

  /** Ask memory a question. */
  query(body: Schemas['QueryRequest']): Promise<Schemas['QueryResponse']> {
    return this.request('queryMemory', { body });
  }
}
