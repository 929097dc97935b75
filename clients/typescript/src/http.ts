import { errorFromResponse, ParleyError } from './errors.js';
import { StreamSession, type StreamOptions } from './stream.js';
import { OPERATIONS, type OperationId, type Operations, type Schemas } from './generated/api.js';

/** Options of a `ParleyClient`. */
export interface ParleyClientOptions {
  /** The server, e.g. `http://127.0.0.1:8080` (a trailing slash is fine). */
  baseUrl: string;
  /** An API key of the server's `PARLEY_API_KEYS`; omit when the server has none. */
  apiKey?: string;
  /** Per-request time-out, ms. Default 30 000. */
  timeoutMs?: number;
  /** The fetch to use (tests, proxies). Default: Node's global fetch. */
  fetch?: typeof fetch;
}

type IsEmpty<T> = string extends keyof T ? true : [keyof T] extends [never] ? true : false;
/** What `request(op, args)` needs for one operation: only the parts that operation has. */
export type RequestArgs<Op extends OperationId> =
  & (IsEmpty<Operations[Op]['path']> extends true ? { path?: undefined } : { path: Operations[Op]['path'] })
  & (IsEmpty<Operations[Op]['query']> extends true ? { query?: undefined } : { query?: Operations[Op]['query'] })
  & (IsEmpty<Operations[Op]['headers']> extends true ? { headers?: undefined } : { headers?: Operations[Op]['headers'] })
  & (Operations[Op]['body'] extends undefined ? { body?: undefined } : { body: Operations[Op]['body'] })
  & { signal?: AbortSignal };

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

  constructor(options: ParleyClientOptions) {
    let url: URL;
    try {
      url = new URL(options.baseUrl);
    } catch {
      throw new ParleyError('PARLEY_ERR_BAD_REQUEST', `baseUrl is not a URL: ${options.baseUrl}`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new ParleyError('PARLEY_ERR_BAD_REQUEST', `baseUrl must be http: or https:, not ${url.protocol}`);
    }
    this.baseUrl = url.href.replace(/\/+$/, '');
    this.apiKey = options.apiKey;
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.fetchImpl = options.fetch ?? fetch;
  }

  /** Call one operation by its operationId. Resolves with the documented success body. */
  async request<Op extends OperationId>(op: Op, args: RequestArgs<Op>): Promise<Operations[Op]['response']> {
    const { method, path } = OPERATIONS[op];
    const url = new URL(this.baseUrl + fillPath(path, args.path as Record<string, string> | undefined));
    for (const [name, value] of Object.entries((args.query ?? {}) as Record<string, unknown>)) {
      if (value !== undefined && value !== null) url.searchParams.set(name, String(value));
    }
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.apiKey) headers.authorization = `Bearer ${this.apiKey}`;
    for (const [name, value] of Object.entries((args.headers ?? {}) as Record<string, string | undefined>)) {
      if (value !== undefined) headers[name] = value;
    }
    let body: string | undefined;
    if (args.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(args.body);
    }
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const signal = args.signal ? AbortSignal.any([args.signal, timeout]) : timeout;
    let res: Response;
    let text: string;
    try {
      res = await this.fetchImpl(url, { method, headers, ...(body !== undefined ? { body } : {}), signal });
      text = await res.text();
    } catch (err) {
      const what = timeout.aborted ? `no answer within ${this.timeoutMs} ms` : (err as Error).message;
      throw new ParleyError(timeout.aborted ? 'PARLEY_CLIENT_TIMEOUT' : 'PARLEY_CLIENT_NETWORK', `${method} ${url.pathname}: ${what}`, { cause: err });
    }
    let parsed: unknown = undefined;
    try {
      parsed = text.length > 0 ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: reported below
    }
    if (!res.ok) throw errorFromResponse(res.status, parsed, text);
    if (parsed === undefined) throw new ParleyError('PARLEY_CLIENT_BAD_RESPONSE', `${method} ${url.pathname}: HTTP ${res.status} without a JSON body`, { status: res.status });
    return parsed as Operations[Op]['response'];
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

  /** A session's utterances in order. */
  transcript(sessionId: string): Promise<Schemas['Transcript']> {
    return this.request('getTranscript', { path: { session_id: sessionId } });
  }

  async participants(): Promise<Schemas['Participant'][]> {
    return (await this.request('listParticipants', {})).participants;
  }

  participant(id: string): Promise<Schemas['Participant']> {
    return this.request('getParticipant', { path: { id } });
  }

  updateParticipant(id: string, patch: Schemas['ParticipantPatch']): Promise<Schemas['Participant']> {
    return this.request('updateParticipant', { path: { id }, body: patch });
  }

  /** Erase a participant everywhere (profile, utterances, memories, voiceprints). */
  eraseParticipant(id: string): Promise<Schemas['ParticipantErased']> {
    return this.request('eraseParticipant', { path: { id } });
  }

  async interactions(query: Operations['listInteractions']['query'] = {}): Promise<Schemas['Utterance'][]> {
    return (await this.request('listInteractions', { query })).interactions;
  }

  async memories(query: Operations['listMemories']['query'] = {}): Promise<Schemas['Memory'][]> {
    return (await this.request('listMemories', { query })).memories;
  }

  updateMemory(id: string, patch: Schemas['MemoryPatch']): Promise<Schemas['Memory']> {
    return this.request('updateMemory', { path: { id }, body: patch });
  }

  deleteMemory(id: string): Promise<Schemas['MemoryDeleted']> {
    return this.request('deleteMemory', { path: { id } });
  }

  /** Open a session on `GET /v1/stream` (audio in, events out); resolves once the server started it. */
  stream(options: StreamOptions = {}): Promise<StreamSession> {
    return StreamSession.open(this.baseUrl, this.apiKey, options);
  }

  /** Ask memory a question. */
  query(body: Schemas['QueryRequest']): Promise<Schemas['QueryResponse']> {
    return this.request('queryMemory', { body });
  }
}
