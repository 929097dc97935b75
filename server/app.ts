import { AjvCompiler, type ValidatorFactory } from '@fastify/ajv-compiler';
import swagger from '@fastify/swagger';
import websocket from '@fastify/websocket';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Stores } from '../graph/stores.js';
import type { Config } from './config.js';
import { installJsonBodyParsers } from './json-body.js';
import { createLogger } from './logger.js';
import { authPlugin } from './plugins/auth.js';
import { HTTP_BODY_LIMIT_BYTES, clientErrorHandler, errorHandlerPlugin, frameworkErrors } from './plugins/error-handler.js';
import { eventBusPlugin } from './plugins/event-bus.js';
import { jobsPlugin } from './plugins/jobs.js';
import { metricsPlugin } from './plugins/metrics.js';
import { rateLimitPlugin } from './plugins/rate-limit.js';
import { retrievalPlugin } from './plugins/retrieval.js';
import { modelsPlugin } from './plugins/models.js';
import { storesPlugin } from './plugins/stores.js';
import { consoleRoutes } from './routes/console.js';
import { healthRoutes } from './routes/health.js';
import { interactionRoutes } from './routes/interactions.js';
import { memoryRoutes } from './routes/memories.js';
import { participantRoutes } from './routes/participants.js';
import { personaRoutes } from './routes/persona.js';
import { queryRoutes } from './routes/query.js';
import { sessionRoutes } from './routes/sessions.js';
import { utteranceRoutes } from './routes/utterances.js';
import { forgetRoutes } from './routes/forget.js';
import { streamRoute } from './ws/stream-route.js';
import { mcpRoute } from './mcp/mcp-route.js';
import { asyncApiDocument } from './protocol/asyncapi.js';
import { NAMED_SCHEMAS } from './protocol/http-schemas.js';
import { twilioRoute } from './ws/twilio-route.js';
import { closeFromServer } from './ws/server-close.js';
import { sessionEventRoutes } from './routes/session-events.js';
import { WS_HARD_CAP_BYTES, websocketErrorHandler } from './ws/frame-limits.js';
import type { EventBus } from '../graph/event-bus.js';
import { idleSessionsPlugin } from './ws/idle-sessions.js';

export interface BuildOptions {
  logger?: Logger;
  /** Use these stores instead of opening the configured ones (tests). */
  stores?: Stores;
  /** Load every model at start-up (the real server), so a missing one fails early. Default false. */
  eagerModels?: boolean;
  /**
   * Use this event bus instead of the configured one (`openEventBus`): a process that only reads a kept store
   * (bench/retrieval-locomo.ts asking) passes an in-process bus, which writes nothing to the store's file.
   */
  events?: EventBus;
  /**
   * Clock in ms since the epoch that participant attributes are read at and questions are asked at (`app.clock`; tests
   * move it on); default `Date.now`.
   */
  now?: () => number;
  /**
   * Monotonic clock, ms, that live audio is timed by (`app.audioClock`): when each frame arrived and was taken, so how far
   * a stream runs ahead of real time, how far its workers are behind, and its transcripts' latency. Default
   * `performance.now`; tests drive it.
   */
  audioNow?: () => number;
}

/**
 * Ajv validators that read a request's parts as they arrive: path parameters, query strings and headers
 * are text, so `?limit=5` and `?include_history=true` are coerced to the number and boolean their schema
 * asks for; a JSON body already has types, so it is validated strictly (`{"text":5}` or `{"name":["Bob"]}`
 * is a 400 naming the field, as the WebSocket and MCP interfaces answer, never stored as "5" or "Bob").
 */
function strictBodyValidators(): ValidatorFactory {
  const pool = AjvCompiler();
  return (externalSchemas, options) => {
    const withCoercion = (coerceTypes: 'array' | false) => pool(externalSchemas, {
      ...options, customOptions: { ...options?.customOptions, coerceTypes },
    } as Parameters<ValidatorFactory>[1]);
    const text = withCoercion('array');
    const body = withCoercion(false);
    return (route) => (route.httpPart === 'body' ? body : text)(route);
  };
}

/** Build the Parley app without listening: tests inject requests or listen on port 0. */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const app = Fastify({
    loggerInstance: logger,
    bodyLimit: HTTP_BODY_LIMIT_BYTES,
    // Path parameters are up to 200 characters (participant refs: an id, external id or name), each
    // percent-encoded UTF-8 up to 12 bytes; longer ones get a Parley 400 from the schema.
    routerOptions: { maxParamLength: 2400 },
    // Errors met before a route runs (routing, the HTTP parser) answer in the Parley envelope too.
    frameworkErrors,
    clientErrorHandler,
    requestIdHeader: 'x-request-id',
    // Start-up work has its own limits and clear errors (openStoresChecked names the unreachable backend);
    // Fastify's default of 10 s per plugin failed a healthy start on a loaded machine while Neo4j created
    // its indexes ("Plugin did not start in time: 'parley-stores'").
    pluginTimeout: 120_000,
    // verbose: errors carry their schema, so an unknown field's error can name the known ones.
    ajv: { customOptions: { removeAdditional: false, useDefaults: true, verbose: true } },
    schemaController: { compilersFactory: { buildValidator: strictBodyValidators() } },
  });
  try {
    await assemble(app as unknown as FastifyInstance, config, options, logger);
    await app.ready();
  } catch (err) {
    // What opened before the failure (a metrics listener, the stores when a later plugin failed) is closed, so that
    // a caller may try again (the stdio MCP server does) without a port taken or a file left open.
    await app.close().catch(() => undefined);
    throw err;
  }
  return app as unknown as FastifyInstance;
}

/** Register Parley's plugins and routes on `app`, in the order their `onClose` hooks need (last registered closes first). */
async function assemble(app: FastifyInstance, config: Config, options: BuildOptions, logger: Logger): Promise<void> {
  app.decorate('clock', options.now ?? Date.now);
  app.decorate('audioClock', options.audioNow ?? (() => performance.now()));
  await app.register(errorHandlerPlugin);
  installJsonBodyParsers(app);
  for (const schema of NAMED_SCHEMAS) app.addSchema(schema);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Parley',
        version: '1',
        description: 'Real-time voice-memory server. The WebSocket protocol of /v1/stream is described in docs/PROTOCOL.md '
          + 'and, machine-readably, as AsyncAPI 3 at GET /asyncapi.json.',
        license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
      },
      servers: [{ url: '/', description: 'this server' }],
      tags: [
        { name: 'health', description: 'Liveness and readiness probes' },
        { name: 'sessions', description: 'Import utterances, end a session, read its transcript' },
        { name: 'participants', description: 'People Parley knows: profiles, corrections, erasure' },
        { name: 'interactions', description: 'Who said what to whom' },
        { name: 'memories', description: 'Long-term facts and profile facts' },
        { name: 'query', description: 'Ask memory a question' },
      ],
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'An API key of PARLEY_API_KEYS; not needed when none is configured' },
        },
      },
      security: [{ bearer: [] }],
    },
    // Named schemas (`$id`) become components.schemas under that name instead of def-0, def-1…
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
  });
  await app.register(authPlugin, { apiKeys: config.apiKeys, allowedHosts: config.allowedHosts });
  await app.register(metricsPlugin, { config });
  await app.register(rateLimitPlugin, { config });
  // onClose hooks run last-registered first: the stores drain their queue (whose jobs embed text)
  // before the models they use are closed.
  await app.register(modelsPlugin, { config, eager: options.eagerModels ?? false });
  await app.register(storesPlugin, { config, logger, ...(options.stores ? { stores: options.stores } : {}) });
  await app.register(websocket, {
    options: { maxPayload: WS_HARD_CAP_BYTES },
    errorHandler: websocketErrorHandler,
    // Replaces the plugin's default, which closes every socket at once: sessions first finish their
    // queued work and tell their clients, then the remaining sockets close.
    preClose: async function (this: FastifyInstance) {
      if (this.hasDecorator('sessions')) await this.sessions.drainAll(config.shutdownGraceMs);
      for (const client of this.websocketServer.clients) closeFromServer(client, { code: 1001, reason: 'server shutting down', fatal: false });
      await new Promise<void>((resolve) => this.websocketServer.close(() => resolve()));
    },
  });
  await app.register(healthRoutes);
  await app.register(sessionRoutes);
  await app.register(participantRoutes);
  await app.register(interactionRoutes);
  await app.register(memoryRoutes);
  await app.register(streamRoute);
  await app.register(twilioRoute);
  await app.register(sessionEventRoutes);
  await app.register(eventBusPlugin, options.events ? { events: options.events } : {});
  await app.register(idleSessionsPlugin);
  await app.register(jobsPlugin, { logger });
  await app.register(retrievalPlugin);
  await app.register(queryRoutes);
  await app.register(mcpRoute);
  await app.register(utteranceRoutes);
  await app.register(forgetRoutes);
  await app.register(personaRoutes);
  await app.register(consoleRoutes);
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  const asyncApi = asyncApiDocument();
  app.get('/asyncapi.json', { schema: { hide: true } }, async () => asyncApi);
}
