import type { ServerEventPayloads, ServerEventType } from './core/events.js';
import type { Logger } from 'pino';
import type { TenantId } from './types.js';

/** The logging the buses need (a pino or Fastify logger). */
export type BusLogger = Pick<Logger, 'debug' | 'info' | 'warn' | 'error'>;

/** One server event for a live session, as `LiveSession.send(type, payload)` takes it. */
export type SessionEvent = {
  [T in ServerEventType]: { type: T; payload: ServerEventPayloads[T] };
}[ServerEventType];

/**
 * A notice for every live session of the tenant on whichever process holds it (published with session id
 * `ALL_SESSIONS`), never sent to a client: a participant was erased, named by `erasedIdKey` of its id (the
 * SHA-256, not the id), so live speaker trackers forget that voice's participant.
 */
export interface ParticipantErasedNotice {
  type: 'participant.erased';
  payload: { erased_key: string };
}

/**
 * A notice for the process that holds a session's live audio stream, never sent to a client: live session `owner`
 * (on the publishing process) took the session's audio stream over in the store (`GraphStore.takeAudioStream`), so an
 * earlier holder on another process stops at once instead of at its next turn.
 */
export interface StreamTakenNotice {
  type: 'stream.taken';
  payload: { owner: string };
}

/** The session id of a notice for every live session of the tenant. */
export const ALL_SESSIONS = '*';

/** What the bus carries: an event for one session's client, or a notice between processes. */
export type BusMessage = SessionEvent | ParticipantErasedNotice | StreamTakenNotice;

/** An event on the bus: which session it is for, and what to send it. */
export type BusEvent = BusMessage & { tenant: TenantId; sessionId: string };

/** Called for every event published by any process on the same bus. Must not throw (errors are logged). */
export type BusHandler = (event: BusEvent) => void;

/**
 * Delivers session events (e.g. `memory.updated` from a consolidation worker, `speaker.merged`) to
 * whichever process holds the session's socket. Delivery is at most once and best effort: durable
 * state lives in the stores, the bus only tells live clients about it. Implementations: in-process
 * (embedded) and Redis pub/sub (networked).
 */
export interface EventBus {
  /** Publish to every subscriber of every process on this bus. */
  publish(tenant: TenantId, sessionId: string, event: BusMessage): Promise<void>;
  /** Receive every event; returns a function that unsubscribes. */
  subscribe(handler: BusHandler): () => void;
  /**
   * Begin connecting, where the bus connects over the network (Redis): once the process has started, after
   * `subscribe`, so that a connect timeout does not run out while start-up keeps the event loop busy. Absent where
   * there is nothing to connect.
   */
  start?(): void;
  /**
   * Delete every event this bus keeps for other processes that concerns `tenant` (erasure: an event may quote a person's
   * words). Absent where nothing is kept (in-process, Redis pub/sub).
   */
  forgetTenant?(tenant: TenantId): Promise<void>;
  /**
   * Whether a worker process (`npm run worker`) that takes background jobs is open on this bus now. Absent where the
   * bus does not know its members (in-process, Redis pub/sub: ask the job queue).
   */
  workersAlive?(): Promise<boolean>;
  /** True when publishing and receiving work (subscription established, backend answers). */
  ready(): Promise<boolean>;
  close(): Promise<void>;
}
