import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { RawData, WebSocket } from 'ws';
import { ParleyError, toClientError } from '../../graph/core/errors.js';
import { StreamQuery } from '../protocol/ws-messages.js';
import { clientTime, isoTime } from '../protocol/iso-time.js';
import { validateStreamFormat, type StreamFormat } from '../../pipelines/audio/audio-format.js';
import type { LiveSession, LiveSessionDeps } from './live-session.js';
import { endedError, handleClientMessage, parseClientMessage, requestEnd } from './message-handlers.js';
import { SessionRegistry } from './session-registry.js';
import { SessionEventHub } from './session-event-hub.js';
import type { DroppedMessage } from './session-queue.js';
import { checkMessageSize, messageBytes, nameHardCapOnClose, WS_HARD_CAP_BYTES } from './frame-limits.js';
import type { TurnListenerFactory } from '../../pipelines/retrieval/turn-listener.js';
import { CONSOLIDATION_JOB } from '../../pipelines/memory/consolidate.js';
import { ConsolidationWorkers } from './consolidation-workers.js';
import { keepSessionAgents, resolveAgents } from './session-agents.js';
import { voiceprintsAllowed } from '../config.js';
import { refusalCloseCode } from './close-frame.js';
import { closeFromServer, serverClose } from './server-close.js';

declare module 'fastify' {
  interface FastifyInstance {
    sessions: SessionRegistry;
    /** Subscribers to sessions' events besides their sockets (`GET /v1/sessions/{id}/events`). */
    sessionEvents: SessionEventHub;
    /** Add a factory here (in a plugin that depends on `parley-stream`) to follow every session's turns. */
    turnListeners: TurnListenerFactory[];
    /** What live sessions are built from (other session transports, e.g. `/v1/twilio`, reuse it). */
    liveSessionDeps: LiveSessionDeps;
    /** The clock live audio is timed by, ms (`BuildOptions.audioNow`; default `performance.now`). */
    audioClock: () => number;
  }
}

/** Most bytes of messages held for a session while it opens (before `session.started`); more are dropped. */
const EARLY_BYTES_MAX = WS_HARD_CAP_BYTES;

function toBuffer(data: RawData): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.from(data);
}

/** Close a socket that never became a session, after telling the client why (the code's close code). */
function refuse(socket: WebSocket, err: ParleyError): void {
  socket.send(JSON.stringify({ type: 'error', session_id: null, seq: 0, code: err.code, message: err.message, fatal: true }));
  closeFromServer(socket, { code: refusalCloseCode(err.code), reason: err.code, fatal: true });
}

/** A valid client message as a full queue's `error` names it when it drops it. */
function describeMessage(type: string, message: unknown): DroppedMessage {
  const { utterance_id: utteranceId, id } = message as { utterance_id?: unknown; id?: unknown };
  return {
    type,
    ...(typeof utteranceId === 'string' ? { utterance_id: utteranceId } : {}),
    ...(type === 'query' && typeof id === 'string' ? { id } : {}),
  };
}

/**
 * One client frame into its session: audio to the voice side, text messages into the queue (refusals in their place).
 * `arrivedAt` (`LiveSessionDeps.audioNow`): when a frame held while the session opened came in; default now.
 */
function take(session: LiveSession, deps: LiveSessionDeps, data: RawData, isBinary: boolean, arrivedAt?: number): void {
  if (isBinary) {
    try {
      checkMessageSize(data);
      session.takeAudio(toBuffer(data), arrivedAt);
    } catch (err) {
      const { code, message } = toClientError(err);
      session.sendError(code, message);
    }
    return;
  }
  // A refused text message is answered in its place behind the earlier ones (arrival order).
  let task: () => Promise<void>;
  let about: DroppedMessage | undefined;
  let text: string | undefined;
  try {
    checkMessageSize(data);
    text = toBuffer(data).toString('utf8');
    const { type, message } = parseClientMessage(text);
    if (type === 'session.end') {
      requestEnd(session, deps);
      return;
    }
    about = describeMessage(type, message);
    // After session.end (or an end over HTTP) nothing more is taken: refused in its place, nothing stored.
    if (session.ending !== null || session.ended) throw endedError(session, type);
    task = () => handleClientMessage(session, deps, type, message);
  } catch (err) {
    task = () => Promise.reject(err);
  }
  // Every error answering a query names its id, a malformed query's too, so a client waiting for it stops waiting.
  const query = about ? about.id : queryIdOf(text);
  session.enqueue(task, { ...(about ? { about } : {}), ...(query === undefined ? {} : { query }) });
}

/** The `id` of a text frame that is a `query` (valid or not) with a string `id`; undefined for anything else. */
function queryIdOf(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== 'object' || parsed === null) return undefined;
    const { type, id } = parsed as { type?: unknown; id?: unknown };
    return type === 'query' && typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
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
    audioNow: app.audioClock,
    clock: app.clock,
    queueLimit: app.config.sessionQueueLimit,
    // Looked up per call: the retrieval plugin registers after this one.
    memoryQuery: (tenant, input) => app.memoryQuery(tenant, input),
    workers: new ConsolidationWorkers({
      runHere: app.config.runJobs,
      // Looked up per call too: the event bus registers after this plugin.
      ask: async () => {
        if (app.config.queue === 'redis') {
          const { queue } = app.stores;
          return queue.liveWorkers ? (await queue.liveWorkers(CONSOLIDATION_JOB)) > 0 : null;
        }
        return app.events.workersAlive ? app.events.workersAlive() : null;
      },
      logger: app.log,
    }),
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

  /** Each upgrade's `?agent=` participant ids, resolved before the upgrade. */
  const streamAgents = new WeakMap<FastifyRequest, string[]>();
  app.get(
    '/v1/stream',
    {
      websocket: true,
      schema: { querystring: StreamQuery, summary: 'Duplex audio and event stream (WebSocket)' },
      // Before the upgrade, as the schema's checks: a `start_time` past what HTTP's `time` allows is an HTTP 400.
      preHandler: async (request) => {
        const { start_time: startTime, agent, external_id: externalId } = request.query as { start_time?: string; agent?: string[]; external_id?: string };
        if (startTime !== undefined) clientTime(startTime, 'start_time', app.clock());
        if (agent === undefined) return;
        const check = { voiceprints: voiceprintsAllowed(app.config, request.tenant), ...(externalId !== undefined ? { externalId } : {}) };
        streamAgents.set(request, await resolveAgents(app.stores.graph, request.tenant, agent, check));
      },
    },
    async (socket, request) => {
      // Before any await: a message over the hard cap may arrive while the session opens.
      nameHardCapOnClose(socket);
      const query = request.query as Record<string, unknown>;
      // Listeners before any await too: opening the session reads the store (over the network with
      // networked stores), and what the client sends meanwhile waits for it, in order; a close meanwhile is seen.
      let session: LiveSession | null = null;
      let closed = false;
      // Each with its arrival time: audio held here keeps it, so it is not taken for audio sent faster than real time.
      const early: { data: RawData; isBinary: boolean; at: number }[] = [];
      let earlyBytes = 0;
      let earlyShed = 0;
      socket.on('message', (data: RawData, isBinary: boolean) => {
        if (session) {
          take(session, deps, data, isBinary);
          return;
        }
        // Bounded: a flood while the session opens cannot make the server hold more than this.
        const bytes = messageBytes(data);
        if (earlyBytes + bytes > EARLY_BYTES_MAX) {
          earlyShed += 1;
          return;
        }
        earlyBytes += bytes;
        early.push({ data, isBinary, at: deps.audioNow() });
      });
      socket.on('close', (code: number) => {
        closed = true;
        if (!session) return;
        session.detach(socket);
        // A client the server sent away for an error may still resume (unlike a Twilio call): it waits like any drop.
        const ended = serverClose(socket);
        session.log.debug({ code, byServer: ended !== undefined, fatal: ended?.fatal ?? false }, 'stream connection closed');
        if (!session.ended && !session.connected) registry.disconnected(session);
      });
      socket.on('error', (err) => (session?.log ?? request.log).warn({ err: err.message }, 'socket error'));
      let opened: { session: LiveSession; resumed: boolean };
      let format: StreamFormat;
      try {
        format = validateStreamFormat({
          encoding: query.encoding as string | undefined,
          sampleRate: query.sample_rate as string | undefined,
          channels: query.channels as string | undefined,
        });
        const sessionId = (query.session_id as string | undefined) ?? `s_${crypto.randomUUID().replaceAll('-', '')}`;
        registry.admit(request.tenant, sessionId);
        opened = await registry.open(request.tenant, sessionId);
      } catch (err) {
        const { code, message } = toClientError(err);
        refuse(socket, new ParleyError(code, message));
        return;
      }
      const live = opened.session;
      if (typeof query.external_id === 'string') live.pendingExternalId = query.external_id;
      // A reconnect naming no agents keeps the session's.
      const agents = streamAgents.get(request);
      if (agents) {
        live.agents = new Set(agents);
        // Kept with the session: a question on it once it is no longer live here is scoped with them (`queryScope`).
        try {
          await keepSessionAgents(app.stores, request.tenant, live.id, agents);
        } catch (err) {
          const { code, message } = toClientError(err);
          refuse(socket, new ParleyError(code, message));
          if (!live.ended && !live.connected) registry.disconnected(live);
          return;
        }
      }
      if (!closed) {
        const startTime = typeof query.start_time === 'string' ? Date.parse(isoTime(query.start_time, 'start_time')) : undefined;
        live.attach(socket, format, opened.resumed, startTime === undefined ? {} : { startTime });
        session = live;
      }
      // What came while it opened, in arrival order (handled even when the client has gone: as after any drop).
      for (const { data, isBinary, at } of early.splice(0)) take(live, deps, data, isBinary, at);
      if (earlyShed > 0) {
        live.sendError('PARLEY_ERR_OVERLOADED', `${earlyShed} messages sent before session.started were dropped: more than ${EARLY_BYTES_MAX} bytes waited while the session opened`);
      }
      // Gone while the session opened: it holds no live slot, and waits for a resume like any dropped session.
      if (closed && !live.ended && !live.connected) registry.disconnected(live);
    },
  );
}, { name: 'parley-stream', dependencies: ['parley-stores', 'parley-metrics', 'parley-models', '@fastify/websocket'] });
