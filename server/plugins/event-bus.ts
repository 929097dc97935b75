import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ALL_SESSIONS, type EventBus } from '../../graph/event-bus.js';
import { RedisEventBus } from '../../graph/redis/redis-event-bus.js';
import { SqliteEventBus } from '../../graph/sqlite/sqlite-event-bus.js';
import type { Config } from '../config.js';
import { endLiveSession } from '../ws/message-handlers.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Session events from any process (workers, other servers) to the socket that holds the session. */
    events: EventBus;
  }
}

/**
 * The bus the config asks for: Redis pub/sub when the queue is on Redis (workers elsewhere), else
 * the embedded file's (`DATA_DIR/parley.db`), which `npm run worker` on the same file shares
 * (`role` names this process in the file's `bus_members` table).
 */
export function openEventBus(config: Config, logger: FastifyInstance['log'], role: 'server' | 'worker' = 'server'): EventBus {
  const log = logger.child({ component: 'event-bus' });
  return config.queue === 'redis'
    ? new RedisEventBus({ url: config.redisUrl, prefix: config.redisPrefix, logger: log })
    : SqliteEventBus.open(path.join(config.dataDir, 'parley.db'), { logger: log, role });
}

/**
 * Decorates `app.events` and delivers every event on it to the live session it names, if this
 * process holds that session (`app.sessions`); other processes ignore it.
 */
export const eventBusPlugin = fp(
  async (app: FastifyInstance, opts: { events?: EventBus }) => {
    const events = opts.events ?? openEventBus(app.config, app.log);
    app.decorate('events', events);
    app.sessions.onStreamTaken = (tenant, id, owner) => events.publish(tenant, id, { type: 'stream.taken', payload: { owner } });
    const stop = events.subscribe((event) => {
      // A participant erased (by hand, perhaps on another server): every live session of the tenant forgets it.
      if (event.type === 'participant.erased') {
        for (const s of app.sessions.ofTenant(event.tenant)) {
          s.participantRetired({ erasedKey: event.payload.erased_key }).catch((err: Error) => app.log.warn({ err: err.message }, 'could not forget an erased participant'));
        }
        return;
      }
      // A session's audio stream taken over (perhaps on another server): a live session here that held it stops now.
      if (event.type === 'stream.taken') {
        app.sessions.streamTaken(event.tenant, event.sessionId, event.payload.owner)
          .catch((err: Error) => app.log.warn({ err: err.message, session: event.sessionId }, 'could not check who holds the session\'s audio stream'));
        return;
      }
      // Forgetting utterances (perhaps on another server): every live session of the tenant learns what memories changed.
      if (event.sessionId === ALL_SESSIONS && event.type === 'memory.updated') {
        for (const s of app.sessions.ofTenant(event.tenant)) s.send(event.type, event.payload);
        return;
      }
      const session = app.sessions.get(event.tenant, event.sessionId);
      // Merged by hand: the event names each session the merged participant spoke or was addressed in. A live
      // session here that holds them as an agent (`?agent=`, or an earlier version's list) learns of it too, though they
      // have not spoken in it yet.
      if (event.type === 'speaker.merged') {
        for (const s of app.sessions.ofTenant(event.tenant)) {
          if (s === session || !(s.agents.has(event.payload.from) || s.legacyAgents.has(event.payload.from))) continue;
          s.participantRetired(event.payload).catch((err: Error) => app.log.warn({ err: err.message }, 'could not apply a merge to a live session\'s agents'));
        }
      }
      if (!session) return;
      // Merged by hand: the session's speaker tracker attributes that voice's later turns to the survivor.
      if (event.type === 'speaker.merged') {
        session.participantRetired(event.payload).catch((err: Error) => app.log.warn({ err: err.message }, 'could not apply a merge to the live session'));
      }
      // Ended over HTTP on another server: the socket here ends as session.end would (it sends session.ended itself).
      if (event.type === 'session.ended') {
        endLiveSession(session, app.liveSessionDeps, 'it was ended on another server').catch((err: Error) => app.log.warn({ err: err.message }, 'could not end the live session'));
        return;
      }
      // The bus carries the same (type, payload) pairs `send` takes; the union is correlated by construction.
      (session.send as (type: string, payload: unknown) => void)(event.type, event.payload);
    });
    // Connected once the app is ready: a connection begun while start-up work (schemas compiled, models loaded) keeps
    // the event loop busy would see its connect timeout run out though Redis answered.
    app.addHook('onReady', async () => {
      events.start?.();
    });
    app.addHook('onClose', async () => {
      stop();
      await events.close();
    });
  },
  { name: 'parley-event-bus', dependencies: ['parley-stream'] },
);
