/** One server event as it goes out: the JSON text /v1/stream sends, plus its type and number. */
export interface HubEvent {
  type: string;
  seq: number;
  json: string;
}

type Listener = (event: HubEvent) => void;

/**
 * Fans a session's server events out to subscribers other than the session's own socket (server-sent
 * events on `GET /v1/sessions/{id}/events`), by tenant and session id. A subscription may start
 * before the session does (subscribe by the Twilio call SID, then the call comes in).
 */
export class SessionEventHub {
  private readonly listeners = new Map<string, Set<Listener>>();

  constructor(
    /** Most subscribers of one session. */
    readonly maxPerSession = 16,
  ) {}

  /** Whether anyone listens to this session. */
  has(tenant: string, sessionId: string): boolean {
    return (this.listeners.get(this.key(tenant, sessionId))?.size ?? 0) > 0;
  }

  /**
   * Follow a session's events; returns the function that stops following.
   * @returns null when the session already has `maxPerSession` subscribers.
   */
  subscribe(tenant: string, sessionId: string, listener: Listener): (() => void) | null {
    const key = this.key(tenant, sessionId);
    let set = this.listeners.get(key);
    if (!set) {
      set = new Set();
      this.listeners.set(key, set);
    }
    if (set.size >= this.maxPerSession) return null;
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.listeners.get(key) === set) this.listeners.delete(key);
    };
  }

  publish(tenant: string, sessionId: string, event: HubEvent): void {
    const set = this.listeners.get(this.key(tenant, sessionId));
    if (!set) return;
    for (const listener of [...set]) listener(event);
  }

  private key(tenant: string, sessionId: string): string {
    return `${tenant}\u0000${sessionId}`;
  }
}
