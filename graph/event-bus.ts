import type { ServerEventPayloads, ServerEventType } from './core/events.js';
import type { Logger } from 'pino';
import type { TenantId } from './types.js';

/** The logging the buses need (a pino or Fastify logger). */
export type BusLogger = Pick<Logger, 'warn' | 'error'>;

/** One server event for a live session, as `LiveSession.send(type, payload)` takes it. */
export type SessionEvent = {
  [T in ServerEventType]: { type: T; payload: ServerEventPayloads[T] };
}[ServerEventType];

/** An event on the bus: which session it is for, and what to send it. */
export type BusEvent = SessionEvent & { tenant: TenantId; sessionId: string };

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
  publish(tenant: TenantId, sessionId: string, event: SessionEvent): Promise<void>;
  /** Receive every event; returns a function that unsubscribes. */
  subscribe(handler: BusHandler): () => void;
  /**
   * Delete every event this bus keeps for other processes that concerns `tenant` (erasure: an event may quote a person's
   * words). Absent where nothing is kept (in-process, Redis pub/sub).
   */
  forgetTenant?(tenant: TenantId): Promise<void>;
  /** True when publishing and receiving work (subscription established, backend answers). */
  ready(): Promise<boolean>;
  close(): Promise<void>;
}
