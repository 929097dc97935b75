import type { IngestedUtterance } from '../interaction/ingest.js';
import type { MemoryItem } from '../../graph/core/events.js';
import type { TurnListener, TurnSession } from './turn-listener.js';
import type { RetrievalResult, Retriever } from './retriever.js';
import type { MemoryScope } from './context-scope.js';

/** Options for `createTurnRetrieval`. */
export interface TurnRetrievalOptions {
  /**
   * Least time between the starts of two speculative searches of a turn, ms; default 120. A partial is
   * searched at once unless one started more recently; then the latest text is searched when the gap ends.
   */
  minGapMs?: number;
  /** Items per context; default 5. */
  k?: number;
  /** Called with every confirmed (non-speculative) context, e.g. to record query coherence. */
  onConfirmed?: (tenant: string, text: string, items: MemoryItem[]) => void;
  /** Called when a retrieval fails for a reason other than cancellation. */
  onError?: (err: unknown) => void;
}

interface Turn {
  id: string;
  latest: string;
  timer: NodeJS.Timeout | null;
  /** performance.now() when the last search started. */
  lastStart: number | null;
  controller: AbortController | null;
  running: { text: string; promise: Promise<Done | null> } | null;
  done: Done | null;
  lastSentIds: string | null;
  /** performance.now() of the end-of-turn decision (or of the final, for text-only turns). */
  anchor: number | null;
  confirmed: boolean;
  /** A confirmed context is on its way (end of turn and final may both ask for it). */
  confirming: boolean;
  excludeIds: string[];
}

interface Done {
  text: string;
  result: RetrievalResult;
  readyAt: number;
}

const scoped = (scope: MemoryScope | null): { scope?: MemoryScope } => (scope ? { scope } : {});

const isAbort = (err: unknown): boolean => (err as { name?: string } | null)?.name === 'AbortError';

/**
 * Retrieval staged around one live session's turns (VoiceMem): speculative retrieval on partial
 * transcripts (at once, at most one start per `minGapMs`; the latest partial wins, earlier work aborted), `memory.context` with
 * `speculative: true` whenever the top items change, and at the end-of-turn decision a confirmed
 * context: at once when the speculative result for the last partial is ready (`ready_at_ms` ≤ 0),
 * else as soon as the staged retrieval finishes. A new turn aborts the old one (barge-in).
 * Text-only utterances get one confirmed context after they are stored.
 */
export function createTurnRetrieval(retriever: Retriever, session: TurnSession, options: TurnRetrievalOptions = {}): TurnListener {
  const minGapMs = options.minGapMs ?? 120;
  const k = options.k ?? 5;
  const turns = new Map<string, Turn>();
  // Turns already confirmed, remembered after their state is dropped: a final that arrives after the
  // next turn started (a slow recogniser) must not confirm its turn a second time.
  const confirmedIds = new Set<string>();

  const turnOf = (id: string): Turn => {
    let t = turns.get(id);
    if (!t) {
      const done = confirmedIds.has(id);
      t = { id, latest: '', timer: null, lastStart: null, controller: null, running: null, done: null, lastSentIds: null, anchor: null, confirmed: done, confirming: false, excludeIds: [] };
      turns.set(id, t);
    }
    return t;
  };
  const drop = (t: Turn): void => {
    if (t.timer) clearTimeout(t.timer);
    t.controller?.abort();
    turns.delete(t.id);
  };

  const send = (t: Turn, done: Done, speculative: boolean): void => {
    const ids = done.result.items.map((i) => i.id).join(',');
    if (speculative && ids === t.lastSentIds) return;
    t.lastSentIds = ids;
    const ready = t.anchor === null ? 0 : done.readyAt - t.anchor;
    session.send('memory.context', {
      turn_id: t.id, speculative, items: done.result.items, timings: done.result.timings,
      ready_at_ms: Math.round(ready * 10) / 10,
    });
    if (!speculative) {
      t.confirmed = true;
      confirmedIds.add(t.id);
      if (confirmedIds.size > 64) confirmedIds.delete(confirmedIds.values().next().value as string);
      options.onConfirmed?.(session.tenant, done.text, done.result.items);
    }
  };

  const run = (t: Turn, text: string): Promise<Done | null> => {
    t.controller?.abort();
    const controller = new AbortController();
    t.controller = controller;
    t.lastStart = performance.now();
    const askerId = session.lastSpeakerId();
    const search = (scope: MemoryScope | null): Promise<RetrievalResult> => retriever.retrieve({
      tenant: session.tenant, text, k, askerId, excludeIds: t.excludeIds, signal: controller.signal, ...scoped(scope),
    });
    // A scope that needs a read (a pending external id's holder) is waited for; one known now is searched at once.
    const scope = session.memoryScope?.() ?? null;
    const promise = (scope instanceof Promise ? scope.then(search) : search(scope))
      .then((result) => {
        const done: Done = { text, result, readyAt: performance.now() };
        if (t.running?.promise === promise) t.running = null;
        if (!controller.signal.aborted) {
          t.done = done;
          if (t.anchor === null) send(t, done, true);
        }
        return done;
      }, (err: unknown) => {
        if (!isAbort(err)) options.onError?.(err);
        return null;
      });
    t.running = { text, promise };
    return promise;
  };

  const confirm = (t: Turn): void => {
    if (t.confirmed || t.confirming) return;
    const text = t.latest;
    if (!text) return;
    t.confirming = true;
    if (t.done?.text === text) {
      send(t, t.done, false);
      return;
    }
    const pending = t.running?.text === text ? t.running.promise : run(t, text);
    void pending.then((done) => {
      if (done && turns.get(t.id) === t) send(t, done, false);
    });
  };

  return {
    onSpeechStarted(turnId) {
      for (const t of [...turns.values()]) if (t.id !== turnId) drop(t);
      turnOf(turnId);
    },
    onPartial(turnId, text) {
      const t = turnOf(turnId);
      const clean = text.trim();
      if (!clean || clean === t.latest || t.anchor !== null) return;
      t.latest = clean;
      // Search at once, so the context is ready early even when the end of turn follows fast (the
      // pipeline sends a partial as soon as a pause starts). Only a burst of partials (a recogniser
      // catching up on a backlog) waits, and then searches just its latest text. Even "at once" is a
      // timer, so events already queued go first: when the end of turn is among them, the search's
      // synchronous part must not hold up `vad.speech_stopped`, and the decision confirms what is
      // ready instead of starting another search.
      if (t.timer) return;
      const wait = t.lastStart === null ? 0 : Math.max(0, t.lastStart + minGapMs - performance.now());
      t.timer = setTimeout(() => {
        t.timer = null;
        void run(t, t.latest);
      }, wait);
    },
    onSpeechStopped(turnId) {
      const t = turnOf(turnId);
      t.anchor = performance.now();
      if (t.timer) clearTimeout(t.timer);
      t.timer = null;
      // When the search for the latest partial is still pending (a last-moment revision), the
      // context of the previous partial is ready now: confirm it at the decision rather than make
      // the agent wait. Only a turn with no ready context at all waits for its search.
      if (t.done && !t.confirmed && !t.confirming) {
        t.confirming = true;
        send(t, t.done, false);
        return;
      }
      confirm(t);
    },
    onFinal(turnId, stored: IngestedUtterance) {
      const t = turnOf(turnId);
      t.excludeIds = [stored.utterance.id];
      if (t.anchor === null) {
        // Text-only utterance: no end-of-turn decision, anchor on the stored final.
        t.anchor = performance.now();
        t.latest = stored.utterance.text;
      } else if (!t.latest) {
        t.latest = stored.utterance.text;
      }
      confirm(t);
      // Keep only a few finished turns around.
      for (const old of [...turns.values()]) if (old !== t && old.confirmed) turns.delete(old.id);
    },
    close() {
      for (const t of [...turns.values()]) drop(t);
    },
  };
}
