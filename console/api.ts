/** The console's HTTP client: every call carries the API key (kept in sessionStorage) as a Bearer token. */
import type { MemoryItem, ParticipantRefJson } from '../graph/core/events.ts';
import type { Schemas } from '../clients/typescript/src/generated/api.ts';

export type { MemoryItem, ParticipantRefJson };

const KEY_STORAGE = 'parley.api_key';

export function storedKey(): string | null {
  return sessionStorage.getItem(KEY_STORAGE);
}
export function storeKey(key: string | null): void {
  if (key) sessionStorage.setItem(KEY_STORAGE, key);
  else sessionStorage.removeItem(KEY_STORAGE);
}

/** An HTTP error with Parley's error code (`PARLEY_ERR_…`). */
export class ApiError extends Error {
  constructor(readonly status: number, readonly code: string, message: string) {
    super(message);
  }
}

function headers(extra: Record<string, string> = {}): Record<string, string> {
  const key = storedKey();
  return { ...(key ? { authorization: `Bearer ${key}` } : {}), ...extra };
}

async function failure(res: Response): Promise<ApiError> {
  try {
    const body = (await res.json()) as { error?: { code?: string; message?: string } };
    return new ApiError(res.status, body.error?.code ?? 'HTTP', body.error?.message ?? res.statusText);
  } catch {
    return new ApiError(res.status, 'HTTP', res.statusText);
  }
}

export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(path, {
    method,
    headers: headers(body !== undefined ? { 'content-type': 'application/json' } : {}),
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  if (!res.ok) throw await failure(res);
  // 204 No Content (the forgetting routes): there is no body to read.
  if (res.status === 204) return undefined as T;
  return (await res.json()) as T;
}

/**
 * Whether this server's API needs a key, asked of the console's own open file (no key, so never a 401); `null` when
 * that file does not answer (an older server): the page then learns it from the first API call, as before.
 */
export async function keyRequired(): Promise<boolean | null> {
  try {
    const res = await fetch('/console/auth.json', { cache: 'no-store' });
    if (!res.ok) return null;
    const body = (await res.json()) as { key_required?: unknown };
    return typeof body.key_required === 'boolean' ? body.key_required : null;
  } catch {
    return null;
  }
}

/** A binary resource (an audio span) as an object URL the page can play. */
export async function blobUrl(path: string): Promise<string> {
  const res = await fetch(path, { headers: headers() });
  if (!res.ok) throw await failure(res);
  return URL.createObjectURL(await res.blob());
}

/** The WebSocket URL of /v1/stream on this server, with the key as `?token=` (browsers cannot set headers). */
export function streamUrl(sessionId: string): string {
  const u = new URL('/v1/stream', location.href);
  u.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
  u.searchParams.set('session_id', sessionId);
  u.searchParams.set('sample_rate', '16000');
  u.searchParams.set('encoding', 'pcm_s16le');
  const key = storedKey();
  if (key) u.searchParams.set('token', key);
  return u.toString();
}

/** HTTP types, generated from the server's /openapi.json for @parley/client (`npm run gen:client`). */
export type Participant = Schemas['Participant'];
export type Utterance = Schemas['Utterance'];
export type Fact = Schemas['Memory'];
export type PersonaNode = Schemas['PersonaNode'];
export type QueryAnswer = Schemas['QueryResponse'];

/** The tenant's first 5,000 participants, oldest first (one page at the API's largest size). */
export const listParticipants = async (): Promise<Participant[]> =>
  (await api<Schemas['ParticipantList']>('GET', '/v1/participants?limit=5000')).participants;

export const renameParticipant = (id: string, name: string | null): Promise<Participant> =>
  api<Participant>('PATCH', `/v1/participants/${encodeURIComponent(id)}`, { name });

export const eraseParticipant = (id: string): Promise<Schemas['ParticipantErased']> =>
  api('DELETE', `/v1/participants/${encodeURIComponent(id)}`);

/** Forget one utterance and the memories only from it (`DELETE /v1/utterances/{id}`, an addition to v1; 204). */
export const forgetUtterance = (id: string): Promise<void> => api('DELETE', `/v1/utterances/${encodeURIComponent(id)}`);

/** Forget a whole session (`DELETE /v1/sessions/{id}`, an addition to v1; 204); a live session is a 409. */
export const forgetSession = (sessionId: string): Promise<void> => api('DELETE', `/v1/sessions/${encodeURIComponent(sessionId)}`);

export const getParticipant = (id: string): Promise<Participant> => api('GET', `/v1/participants/${encodeURIComponent(id)}`);

export const getPersona = async (id: string): Promise<PersonaNode[]> =>
  (await api<Schemas['PersonaResponse']>('GET', `/v1/participants/${encodeURIComponent(id)}/persona`)).persona;

/** The most items the console reads from one paged listing (`/v1/memories`, `/v1/interactions`). */
export const LIST_CAP = 5000;
/** Items per request: the API's largest page. */
const PAGE_SIZE = 1000;

/** What a paged listing gave: its first items (up to {@link LIST_CAP}), and whether it had more. */
export interface Listing<T> {
  items: T[];
  /** True when the listing went on past the cap: the page says it shows only the first {@link LIST_CAP}. */
  truncated: boolean;
}

/**
 * Read `path?params` page after page, following `next_cursor` with the same filters, until the listing ends or more
 * than `cap` items are read (one past the cap, so that a listing of exactly `cap` items is not called cut).
 */
export async function readPages<P extends { next_cursor: string | null }, T>(
  path: string, params: URLSearchParams, items: (page: P) => T[], cap = LIST_CAP,
): Promise<Listing<T>> {
  const all: T[] = [];
  const ids = new Set<string>();
  const cursors = new Set<string>();
  const p = new URLSearchParams(params);
  // A cursor seen before (a proxy or cache repeating a page) or more requests than the cap can need ends the read:
  // it never spins. An item met again (a listing that grew while it was read shifts offset pages) is shown once.
  for (let request = 0; request < Math.ceil(cap / PAGE_SIZE) + 10; request++) {
    p.set('limit', String(Math.min(PAGE_SIZE, cap + 1 - all.length)));
    const page = await api<P>('GET', `${path}?${p}`);
    for (const item of items(page)) {
      const id = (item as { id?: unknown }).id;
      if (typeof id === 'string') {
        if (ids.has(id)) continue;
        ids.add(id);
      }
      all.push(item);
    }
    if (page.next_cursor === null || all.length > cap || cursors.has(page.next_cursor)) break;
    cursors.add(page.next_cursor);
    p.set('cursor', page.next_cursor);
  }
  return { items: all.slice(0, cap), truncated: all.length > cap };
}

/** Memories, newest first (a search's ranking with `q`), up to {@link LIST_CAP}. */
export function listFacts(filter: { participant?: string; q?: string; history?: boolean }): Promise<Listing<Fact>> {
  const p = new URLSearchParams();
  if (filter.participant) p.set('participant', filter.participant);
  if (filter.q) p.set('q', filter.q);
  if (filter.history) p.set('include_history', 'true');
  return readPages('/v1/memories', p, (page: Schemas['MemoryList']) => page.memories);
}

/** Utterances, newest first, of one session or of all, up to {@link LIST_CAP}. */
export function listInteractions(sessionId: string | null): Promise<Listing<Utterance>> {
  const p = new URLSearchParams();
  if (sessionId) p.set('session_id', sessionId);
  return readPages('/v1/interactions', p, (page: Schemas['InteractionList']) => page.interactions);
}

/** A session seen in the newest turns: its id and the time of its newest turn. */
export interface RecentSession { id: string; lastTurn: string }

/**
 * The sessions of the tenant's newest turns (one page of `/v1/interactions`, the API's largest), newest first, at most
 * `max`. The API lists no sessions of its own; every turn carries its `session_id`.
 */
export async function recentSessions(max = 30): Promise<RecentSession[]> {
  const page = await api<Schemas['InteractionList']>('GET', `/v1/interactions?limit=${PAGE_SIZE}`);
  const seen = new Map<string, string>();
  for (const u of page.interactions) {
    if (seen.size >= max) break;
    if (!seen.has(u.session_id)) seen.set(u.session_id, u.time);
  }
  return [...seen].map(([id, lastTurn]) => ({ id, lastTurn }));
}

/** The notice shown when a listing was cut at {@link LIST_CAP}, e.g. "showing the first 5,000 facts". */
export const cutNotice = (what: string): string => `showing the first ${LIST_CAP.toLocaleString('en')} ${what}`;

export const getUtterance = (id: string): Promise<Utterance> => api('GET', `/v1/utterances/${encodeURIComponent(id)}`);

export const ask = (question: string, sessionId: string | null): Promise<QueryAnswer> =>
  api('POST', '/v1/query', { question, k: 8, ...(sessionId ? { session_id: sessionId } : {}) });

/** A participant's display name: their name, else a short label from the id. */
export function displayName(p: { id: string; name: string | null } | null | undefined): string {
  if (!p) return 'unknown';
  return p.name ?? `Speaker ${p.id.replace(/^p_/, '').slice(0, 4)}`;
}
