import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { RawData, WebSocket } from 'ws';
import { ERRORS, ParleyError, toClientError } from '../../graph/core/errors.js';
import { StreamQuery } from '../protocol/ws-messages.js';
import { validateStreamFormat } from '../../pipelines/audio/audio-format.js';
import type { LiveSession, LiveSessionDeps } from './live-session.js';
import { handleClientMessage, parseClientMessage } from './message-handlers.js';
import { SessionRegistry } from './session-registry.js';
import { SessionEventHub } from './session-event-hub.js';
import { checkMessageSize, nameHardCapOnClose } from './frame-limits.js';
import type { TurnListenerFactory } from '../../pipelines/retrieval/turn-listener.js';

declare module 'fastify' {
  interface FastifyInstance {
    sessions: SessionRegistry;
    /** Subscribers to sessions' events besides their sockets (`GET /v1/sessions/{id}/events`). */
    sessionEvents: SessionEventHub;
    /** Add a factory here (in a plugin that depends on `parley-stream`) to follow every session's turns. */
    turnListeners: TurnListenerFactory[];
    /** What live sessions are built from (other session transports, e.g. `/v1/twilio`, reuse it). */
    liveSessionDeps: LiveSessionDeps;
  }
}

function toBuffer(data: RawData): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.from(data);
}

/** Close a socket that never became a session, after telling the client why (the code's close code). */
function refuse(socket: WebSocket, err: ParleyError): void {
  socket.send(JSON.stringify({ type: 'error', session_id: null, seq: 0, code: err.code, message: err.message, fatal: true }));
  socket.close(ERRORS[err.code].wsClose, err.code);
}

/** `GET /v1/stream`: the duplex session protocol of API.md. Decorates `app.sessions`. */
export const streamRoute = fp(async (app: FastifyInstance): Promise<void> => {
  const hub = new SessionEventHub();
  const deps: LiveSessionDeps = {
    hub,
    config: app.config,
    models: app.models,
    stores: app.stores,
    ingest: app.ingest,
    metrics: app.metrics,
    logger: app.log,
    queueLimit: app.config.sessionQueueLimit,
    // Looked up per call: the retrieval plugin registers after this one.
    memoryQuery: (tenant, input) => app.memoryQuery(tenant, input),
  };
  const registry = new SessionRegistry(deps, {
    resumeMs: app.config.sessionResumeMs,
    maxConnected: app.config.maxSessions,
    maxConnectedPerTenant: app.config.maxSessionsPerTenant,
    maxResumable: app.config.maxResumableSessions,
  }, app.log);
  app.decorate('sessions', registry);
  app.decorate('sessionEvents', hub);
  app.decorate('liveSessionDeps', deps);
  app.decorate('turnListeners', registry.listenerFactories);

  app.get(
    '/v1/stream',
    { websocket: true, schema: { querystring: StreamQuery, summary: 'Duplex audio and event stream (WebSocket)' } },
    async (socket, request) => {
      // Before any await: a message over the hard cap may arrive while the session opens.
      nameHardCapOnClose(socket);
      const query = request.query as Record<string, unknown>;
      let session: LiveSession;
      try {
        const format = validateStreamFormat({
          encoding: query.encoding as string | undefined,
          sampleRate: query.sample_rate as string | undefined,
          channels: query.channels as string | undefined,
        });
        const sessionId = (query.session_id as string | undefined) ?? `s_${crypto.randomUUID().replaceAll('-', '')}`;
        registry.admit(request.tenant, sessionId);
        const opened = await registry.open(request.tenant, sessionId);
        session = opened.session;
        if (typeof query.external_id === 'string') session.pendingExternalId = query.external_id;
        session.attach(socket, format, opened.resumed);
      } catch (err) {
        const { code, message } = toClientError(err);
        refuse(socket, new ParleyError(code, message));
        return;
      }

      socket.on('message', (data: RawData, isBinary: boolean) => {
        if (isBinary) {
          try {
            checkMessageSize(data);
            session.voice.push(toBuffer(data));
          } catch (err) {
            const { code, message } = toClientError(err);
            session.sendError(code, message);
          }
          return;
        }
        // A refused text message is answered in its place behind the earlier ones (arrival order).
        let task: () => Promise<void>;
        try {
          checkMessageSize(data);
          const { type, message } = parseClientMessage(toBuffer(data).toString('utf8'));
          task = () => handleClientMessage(session, deps, type, message);
        } catch (err) {
          task = () => Promise.reject(err);
        }
        session.enqueue(task);
      });
      socket.on('close', () => {
        session.detach(socket);
        if (!session.ended && !session.connected) registry.disconnected(session);
      });
      socket.on('error', (err) => session.log.warn({ err: err.message }, 'socket error'));
    },
  );
}, { name: 'parley-stream', dependencies: ['parley-stores', 'parley-metrics', 'parley-models', '@fastify/websocket'] });
