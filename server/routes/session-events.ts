import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { ParleyError } from '../../graph/core/errors.js';
import { errorResponse, errorResponses, SessionIdParams } from '../protocol/http-schemas.js';

/** A comment line every this often keeps proxies from closing an idle stream. */
const HEARTBEAT_MS = 15_000;

const EventsQuery = Type.Object({
  token: Type.Optional(Type.String({ description: 'API key, for clients that cannot set headers (EventSource)' })),
}, { additionalProperties: false });

/**
 * `GET /v1/sessions/{session_id}/events`: the session's server events as server-sent events, the same
 * JSON payloads `/v1/stream` sends (`event:` the type, `id:` its `seq`). For transports whose socket
 * carries no events back (`/v1/twilio`), or a second listener of any session. May be opened before
 * the session starts (a Twilio call SID is known from the webhook); the stream ends after
 * `session.ended`, at once for a session that has already ended.
 */
export async function sessionEventRoutes(app: FastifyInstance): Promise<void> {
  const open = new Set<() => void>();
  app.addHook('preClose', async () => {
    for (const end of [...open]) end();
  });

  app.get<{ Params: SessionIdParams }>('/v1/sessions/:session_id/events', {
    schema: {
      operationId: 'followSessionEvents', tags: ['sessions'],
      summary: 'Follow a session\'s server events (server-sent events), subscribable before the session starts',
      params: SessionIdParams,
      querystring: EventsQuery,
      response: { 200: {
          description: 'server-sent events: `event: <type>`, `id: <seq>`, `data: <JSON as on /v1/stream>`; ends after `session.ended` (for a session already ended: that one event, at once)',
          content: { 'text/event-stream': { schema: Type.String() } },
        }, 400: errorResponse('PARLEY_ERR_BAD_REQUEST: the session id is not 1 to 128 letters, digits, "_", ".", ":" or "-", or an unknown query parameter'), ...errorResponses() },
    },
  }, async (request, reply) => {
    const { tenant } = request;
    const sessionId = request.params.session_id;
    const raw = reply.raw;
    let ended = false;
    const end = (): void => {
      if (ended) return;
      ended = true;
      clearInterval(heartbeat);
      stop?.();
      open.delete(end);
      raw.end();
    };
    const stop = app.sessionEvents.subscribe(tenant, sessionId, (event) => {
      if (ended) return;
      raw.write(`event: ${event.type}\nid: ${event.seq}\ndata: ${event.json}\n\n`);
      if (event.type === 'session.ended') end();
    });
    if (!stop) {
      throw new ParleyError('PARLEY_ERR_OVERLOADED', `session ${sessionId} already has ${app.sessionEvents.maxPerSession} subscribers`);
    }
    reply.hijack();
    raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    // Tells the client the subscription is in place (so a call may be placed now).
    raw.write(`: subscribed to ${sessionId}\n\n`);
    const heartbeat = setInterval(() => raw.write(': keep-alive\n\n'), HEARTBEAT_MS);
    heartbeat.unref();
    open.add(end);
    // The response closes when the client goes away (or after `end`).
    raw.on('close', end);
    // Subscribed to a session that has already ended: nothing more will come, so say so and close. A live
    // session still ending here sends its own session.ended (a session waiting for a resume too: its end frees it).
    const record = await app.stores.graph.getSession(tenant, sessionId).catch(() => null);
    const live = app.sessions.get(tenant, sessionId);
    if (!ended && record?.endedAt && (!live || live.ended)) {
      const json = JSON.stringify({ type: 'session.ended', session_id: sessionId, seq: record.lastEventSeq });
      raw.write(`: session ${sessionId} ended at ${record.endedAt}\n\nevent: session.ended\nid: ${record.lastEventSeq}\ndata: ${json}\n\n`);
      end();
    }
  });
}
