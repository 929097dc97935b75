import type { BusEvent, BusHandler, BusLogger, BusMessage, EventBus } from './event-bus.js';
import type { TenantId } from './types.js';

/** Calls every handler with the event, isolating handler failures from each other. */
export function dispatch(handlers: Iterable<BusHandler>, event: BusEvent, logger?: BusLogger): void {
  for (const handler of handlers) {
    try {
      handler(event);
    } catch (err) {
      logger?.warn({ err: (err as Error).message, type: event.type }, 'event handler failed');
    }
  }
}

/** The embedded event bus: one process, handlers called on the next microtask in publish order. */
export class MemoryEventBus implements EventBus {
  private readonly handlers = new Set<BusHandler>();
  private closed = false;

  constructor(private readonly logger?: BusLogger) {}

  async publish(tenant: TenantId, sessionId: string, event: BusMessage): Promise<void> {
    if (this.closed) throw new Error('event bus is closed');
    // Copy through JSON so in-process delivery sees exactly what a networked bus would deliver.
    const copy = JSON.parse(JSON.stringify({ ...event, tenant, sessionId })) as BusEvent;
    await Promise.resolve();
    dispatch([...this.handlers], copy, this.logger);
  }

  subscribe(handler: BusHandler): () => void {
    this.handlers.add(handler);
    return () => this.handlers.delete(handler);
  }

  async ready(): Promise<boolean> {
    return !this.closed;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.handlers.clear();
  }
}
