import type { IngestedUtterance } from '../interaction/ingest.js';
import type { ServerEventPayloads, ServerEventType } from '../../graph/core/events.js';
import type { MemoryScope } from './context-scope.js';

/** What a turn listener may use of its live session. */
export interface TurnSession {
  readonly tenant: string;
  readonly id: string;
  /** Send an event to the session's client (numbered; dropped while disconnected). */
  send<T extends ServerEventType>(type: T, payload: ServerEventPayloads[T]): void;
  /** The participant who spoke last in this session (the likely asker), if known. */
  lastSpeakerId(): string | null;
  /**
   * Whose memories its pushed context may hold, asked at every search: the session's people under `context_scope:
   * participants`; null (or absent): the whole tenant.
   */
  memoryScope?(): MemoryScope | null | Promise<MemoryScope | null>;
}

/**
 * Follows the turns of one live session. The audio pipeline drives the first three; every stored
 * utterance (recognised or sent as text) reaches `onFinal`. Handlers must not block: start async
 * work and return.
 */
export interface TurnListener {
  /** The user started speaking (barge-in: cancel what is in flight for earlier turns). */
  onSpeechStarted?(turnId: string, audioStartMs: number): void;
  /** A partial transcript of the open turn. */
  onPartial?(turnId: string, text: string): void;
  /** The end-of-turn decision (`vad.speech_stopped` is sent just before this call). */
  onSpeechStopped?(turnId: string): void;
  /** The turn's utterance is stored (`transcript.final` is sent just before this call). */
  onFinal?(turnId: string, stored: IngestedUtterance): void;
  /** The session is going away. */
  close?(): void;
}

/** Makes one listener per live session; plugins add theirs to `app.turnListeners`. */
export type TurnListenerFactory = (session: TurnSession) => TurnListener;
