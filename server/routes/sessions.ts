import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { endSessionEverywhere } from '../ws/idle-sessions.js';
import { isResendOf, resendConflict } from '../../pipelines/interaction/resend-check.js';
import type { Utterance } from '../../graph/types.js';
import type { GraphStore, TranscriptPosition } from '../../graph/graph-store.js';
import { ParleyError } from '../../graph/core/errors.js';
import {
  errorResponse, errorResponses, PostUtterancesBody, PostUtterancesResponse, ref, SessionEndResponse, SessionIdParams,
  TRANSCRIPT_PAGE_DEFAULT, TRANSCRIPT_PAGE_MAX, TranscriptQuery, TranscriptResponse, type UtteranceView,
} from '../protocol/http-schemas.js';

const NO_SESSION = errorResponse('PARLEY_ERR_NOT_FOUND: no such session');
const BAD_ID = errorResponse('PARLEY_ERR_BAD_REQUEST: the session id is not 1-128 of A-Za-z0-9_.:-');
import { utteranceViews } from './views.js';
import { roleLabelWarnings } from './speaker-labels.js';
import { clientTime } from '../protocol/iso-time.js';
import type { UtteranceSource } from '../plugins/metrics.js';

/** Session routes: import utterances, end a session, read its transcript. */
export async function sessionRoutes(app: FastifyInstance): Promise<void> {
  app.post<{ Params: SessionIdParams; Body: PostUtterancesBody }>(
    '/v1/sessions/:session_id/utterances',
    {
      schema: {
        operationId: 'postUtterances', tags: ['sessions'],
        summary: 'Store finished utterances (imported history or client-side ASR)',
        params: SessionIdParams,
        headers: { type: 'object', properties: { 'idempotency-key': { type: 'string', minLength: 1, maxLength: 200, description: 'resending a batch with the same key stores nothing twice; the key used with other utterances or another session is a 422' } } },
        body: ref(PostUtterancesBody),
        response: {
          201: ref(PostUtterancesResponse, { description: 'stored (or already stored: resending is safe, also after the session ended)' }),
          400: errorResponse('PARLEY_ERR_BAD_REQUEST: invalid body or session id'),
          409: errorResponse('PARLEY_ERR_SESSION_ENDED: the session has ended (POST /v1/sessions/{id}/end or session.end) and the batch holds an utterance not stored before (a resend of stored ones answers 201); PARLEY_ERR_UTTERANCE_ID_CONFLICT: an utterance_id is already stored in another session or with another speaker or text (ids are unique per tenant); PARLEY_ERR_CONFLICT: a speaker or addressee name several participants hold, or is the id of an erased participant (an id merged away is stored as its survivor). Nothing of the batch was stored'),
          422: errorResponse('PARLEY_ERR_IDEMPOTENCY_KEY_REUSED: the Idempotency-Key was used for other utterances or another session; nothing was stored'),
          ...errorResponses({ body: true }),
        },
      },
    },
    async (request, reply) => {
      const ids = await storeUtterances(app, request.tenant, request.params.session_id, request.body.utterances, request.headers['idempotency-key'], 'http');
      return reply.status(201).send(withSpeakerWarnings(ids, request.body.utterances));
    },
  );

  app.post<{ Params: SessionIdParams }>(
    '/v1/sessions/:session_id/end',
    {
      schema: {
        operationId: 'endSession', tags: ['sessions'],
        summary: 'End a session: end-of-session consolidation (speaker merge, long-horizon persona); ending it again answers the same end and job. A live session (connected, or waiting for a resume) ends as session.end would, and is freed',
        params: SessionIdParams,
        response: { 202: ref(SessionEndResponse), 400: BAD_ID, 404: NO_SESSION, ...errorResponses({ body: true }) },
      },
    },
    async (request, reply) => {
      const id = request.params.session_id;
      // A socket here ends as session.end would; ending an ended session (or twice at once) is the same end, its
      // time and job; a socket on another server ends when the bus event reaches it (plugins/event-bus.ts).
      const end = await endSessionEverywhere({ registry: app.sessions, deps: app.liveSessionDeps, events: app.events }, request.tenant, id);
      if (!end) throw new ParleyError('PARLEY_ERR_NOT_FOUND', `no session ${id}`);
      return reply.status(202).send({ session_id: id, ended_at: end.endedAt, job_id: end.jobId });
    },
  );

  app.get<{ Params: SessionIdParams; Querystring: TranscriptQuery }>(
    '/v1/sessions/:session_id/transcript',
    {
      schema: {
        operationId: 'getTranscript', tags: ['sessions'],
        summary: "A session's utterances in order, with speaker and addressees, a page at a time",
        params: SessionIdParams,
        querystring: TranscriptQuery,
        response: { 200: ref(TranscriptResponse), 400: BAD_ID, 404: NO_SESSION, ...errorResponses() },
      },
    },
    async (request) => sessionTranscript(app, request.tenant, request.params.session_id, request.query),
  );
}

/**
 * The answer to a stored batch: the ids, and `warnings` (only when there is one) for speaker labels that are a
 * role ("user", "customer"…) rather than a person: see `roleLabelWarnings`.
 */
export function withSpeakerWarnings(ids: string[], utterances: PostUtterancesBody['utterances']): { utterance_ids: string[]; warnings?: string[] } {
  const warnings = roleLabelWarnings(utterances.map((u) => u.speaker));
  return warnings.length > 0 ? { utterance_ids: ids, warnings } : { utterance_ids: ids };
}

/**
 * Store finished utterances in a session: what `POST /v1/sessions/{id}/utterances` and the MCP
 * `add_utterances` tool both run (the same checks, the same idempotency). Returns the utterance ids.
 */
export async function storeUtterances(
  app: FastifyInstance,
  tenant: string,
  sessionId: string,
  utterances: PostUtterancesBody['utterances'],
  idempotencyKeyValue: string | string[] | undefined,
  source: UtteranceSource,
): Promise<string[]> {
  for (const [i, u] of utterances.entries()) {
    if (u.text.trim() === '') throw new ParleyError('PARLEY_ERR_BAD_REQUEST', `utterances[${i}].text is blank: an utterance needs words`);
    if (u.speaker.trim() === '') throw new ParleyError('PARLEY_ERR_BAD_REQUEST', `utterances[${i}].speaker is blank`);
    if (u.start_ms !== undefined && u.end_ms !== undefined && u.end_ms < u.start_ms) {
      throw new ParleyError('PARLEY_ERR_BAD_REQUEST', `utterances[${i}]: end_ms is before start_ms`);
    }
  }
  const key = idempotencyKey(idempotencyKeyValue);
  // Each utterance is checked against its stored namesake in ingest; a stored utterance one past
  // this batch's end means the key was first sent with a longer batch.
  if (key && await app.stores.graph.getUtterance(tenant, `${key}-${utterances.length}`)) {
    throw new ParleyError('PARLEY_ERR_IDEMPOTENCY_KEY_REUSED',
      'this Idempotency-Key was already used for a longer batch; nothing was stored: send new utterances with a new key');
  }
  const inputs = utterances.map((u, i) => ({
    ...(u.utterance_id ? { id: u.utterance_id } : key ? { id: `${key}-${i}`, idFromKey: true } : {}),
    speaker: u.speaker, text: u.text,
    ...(u.addressees ? { addressees: u.addressees } : {}),
    startMs: u.start_ms ?? null, endMs: u.end_ms ?? null,
    ...(u.time ? { time: clientTime(u.time, `utterances[${i}].time`, app.clock()) } : {}),
  }));
  // An ended session takes no more utterances (as a live session refuses them after session.end); a
  // resend of a batch it stored before its end answers as the first try did (the ids, or its conflict).
  if ((await app.stores.graph.getSession(tenant, sessionId))?.endedAt) {
    return resentToEndedSession(app, tenant, sessionId, inputs);
  }
  const stored = await app.ingest.ingest(tenant, sessionId, inputs);
  app.metrics.utterancesStored.inc({ source }, stored.filter((s) => !s.resent).length);
  return stored.map((s) => s.utterance.id);
}

/**
 * A batch sent to an ended session: when every utterance of it is already stored (each by its
 * `utterance_id` or `Idempotency-Key`), a resend, answered with their ids as the first try was, and
 * with the first try's conflict when one differs; else a 409 `PARLEY_ERR_SESSION_ENDED`. Stores nothing.
 */
async function resentToEndedSession(
  app: FastifyInstance, tenant: string, sessionId: string, inputs: { id?: string; idFromKey?: boolean; speaker: string; text: string }[],
): Promise<string[]> {
  const endedError = new ParleyError('PARLEY_ERR_SESSION_ENDED', `session ${sessionId} has ended; store new utterances in a new session`);
  const ids = inputs.flatMap((i) => (i.id ? [i.id] : []));
  if (new Set(ids).size !== ids.length) throw new ParleyError('PARLEY_ERR_BAD_REQUEST', 'an utterance id appears twice in one batch');
  const stored: Utterance[] = [];
  for (const input of inputs) {
    const u = input.id ? await app.stores.graph.getUtterance(tenant, input.id) : null;
    if (!u) throw endedError;
    stored.push(u);
  }
  for (const [i, input] of inputs.entries()) {
    if (!(await isResendOf(app.stores.graph, tenant, sessionId, input, stored[i]!))) throw resendConflict(input, stored[i]!, sessionId);
  }
  return stored.map((u) => u.id);
}

/**
 * One page of a session's utterances in the order they were said (`time`, ties by `seq`; `GET /v1/sessions/{id}/transcript`,
 * MCP `get_transcript`): at most `limit` (default 1,000) after `cursor` or `after_seq`, and where the next page starts
 * (`next_cursor`, `next_after_seq`; null on the last page); 404 when there is no such session.
 */
export async function sessionTranscript(
  app: FastifyInstance, tenant: string, sessionId: string, page: TranscriptQuery = {},
): Promise<{ session_id: string; metadata: Record<string, unknown>; utterances: UtteranceView[]; next_cursor: string | null; next_after_seq: number | null }> {
  const session = await app.stores.graph.getSession(tenant, sessionId);
  if (!session) throw new ParleyError('PARLEY_ERR_NOT_FOUND', `no session ${sessionId}`);
  const limit = Math.min(page.limit ?? TRANSCRIPT_PAGE_DEFAULT, TRANSCRIPT_PAGE_MAX);
  const after = await transcriptPageStart(app.stores.graph, tenant, sessionId, page);
  // One more than the page holds says whether another page follows.
  const read = await app.stores.graph.getTranscript(tenant, sessionId, { ...(after ? { after } : {}), limit: limit + 1 });
  const utterances = read.slice(0, limit);
  const last = read.length > limit ? utterances[utterances.length - 1]! : null;
  return {
    session_id: sessionId, metadata: session.metadata, utterances: await utteranceViews(app.stores.graph, tenant, utterances),
    next_cursor: last ? encodeTranscriptCursor(last) : null, next_after_seq: last ? last.seq : null,
  };
}

/**
 * Where a transcript page starts: after the place `cursor` holds (opaque to clients: the last utterance's time and seq),
 * or after the stored utterance numbered `after_seq` (0: from the start). Both at once, a cursor this API did not give,
 * or an `after_seq` no stored utterance of the session has (erased since) are a 400.
 */
async function transcriptPageStart(graph: GraphStore, tenant: string, sessionId: string, page: TranscriptQuery): Promise<TranscriptPosition | undefined> {
  if (page.cursor !== undefined && page.after_seq !== undefined) {
    throw new ParleyError('PARLEY_ERR_BAD_REQUEST', 'give cursor or after_seq, not both');
  }
  if (page.cursor !== undefined) return decodeTranscriptCursor(page.cursor);
  if (!page.after_seq) return undefined;
  // The newest stored utterance numbered up to after_seq: that one itself, unless it was erased.
  const [at] = await graph.recentUtterances(tenant, sessionId, 1, page.after_seq + 1);
  if (at?.seq !== page.after_seq) {
    throw new ParleyError('PARLEY_ERR_BAD_REQUEST',
      `after_seq ${page.after_seq}: session ${sessionId} holds no utterance with that seq (erased since?); page with cursor, which survives erasures, or read from the start`);
  }
  return { time: at.time, seq: at.seq };
}

function encodeTranscriptCursor(u: TranscriptPosition): string {
  return Buffer.from(JSON.stringify([u.time, u.seq])).toString('base64url');
}

function decodeTranscriptCursor(cursor: string): TranscriptPosition {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2 && typeof value[0] === 'string' && Number.isSafeInteger(value[1])) {
      return { time: value[0], seq: value[1] as number };
    }
  } catch {
    // not JSON: refused below
  }
  throw new ParleyError('PARLEY_ERR_BAD_REQUEST', 'cursor is not a next_cursor this API gave');
}

/**
 * Ids for a batch sent with an `Idempotency-Key` header (utterances without their own
 * `utterance_id` become `ik_<digest>-<index>`), so resending the batch stores nothing twice.
 */
function idempotencyKey(header: string | string[] | undefined): string | null {
  if (header === undefined) return null;
  const value = Array.isArray(header) ? header[0] ?? '' : header;
  if (value.length < 1 || value.length > 200) {
    throw new ParleyError('PARLEY_ERR_BAD_REQUEST', 'Idempotency-Key must be 1 to 200 characters');
  }
  return `ik_${createHash('sha256').update(value).digest('hex').slice(0, 32)}`;
}
