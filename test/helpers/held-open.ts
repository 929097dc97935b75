import type { GraphStore } from '../../graph/graph-store.js';

/** Holds a session's opening: its store read waits until the test releases it. */
export interface HeldOpen {
  /** Resolves once the session's store read reached the gate (the server is opening it). */
  reached: Promise<void>;
  /** Let the store read, and every later one of the session, go on. */
  release: () => void;
}

/**
 * A slow, networked store for `/v1/stream` tests that must send while a session opens: `graph.getSession` (which
 * opening a session awaits) is wrapped so that, for a session id passed to the returned `holdOpen`, it waits until
 * that hold is released. Other sessions read as usual.
 */
export function slowSessionReads(graph: GraphStore): (sessionId: string) => HeldOpen {
  const slow = new Map<string, { reached: () => void; gate: Promise<void> }>();
  const getSession = graph.getSession.bind(graph);
  graph.getSession = async (tenant, id) => {
    const hold = slow.get(id);
    if (hold) {
      hold.reached();
      await hold.gate;
    }
    return getSession(tenant, id);
  };
  return (sessionId) => {
    let release!: () => void;
    let reached!: () => void;
    const gate = new Promise<void>((resolve) => { release = resolve; });
    const reachedP = new Promise<void>((resolve) => { reached = resolve; });
    slow.set(sessionId, { reached, gate });
    return { reached: reachedP, release: () => { slow.delete(sessionId); release(); } };
  };
}

/** A promise the test opens when it chooses (`open`), to hold a step of the code under test until then. */
export function gate(): { promise: Promise<void>; open: () => void } {
  let open = (): void => undefined;
  const promise = new Promise<void>((resolve) => { open = resolve; });
  return { promise, open };
}
