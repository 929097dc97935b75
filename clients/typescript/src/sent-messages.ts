import type { Outgoing } from './audio-queue.js';
import type { ClientMessages, ServerEvent } from './generated/api.js';

/** A JSON message as queued and sent: the object the application passed to `send`, and its wire text. */
export type SentJson = Extract<Outgoing, { kind: 'json' }>;

/** A message sent to a server that never acknowledged it and that the SDK could not send again safely. */
export interface LostMessage {
  type: 'utterance' | 'query';
  /** A query's `id`. */
  id?: string;
  /** An utterance's text (an utterance without `utterance_id`: it may or may not have been stored). */
  text?: string;
  /** The message object itself, as the application passed it to `send` (tells apart two with the same text). */
  message: ClientMessages['utterance'] | ClientMessages['query'];
}

/**
 * The `utterance` and `query` messages handed to a socket and not yet acknowledged (`transcript.final`,
 * `query.result`, or an `error` whose `dropped` names them), kept as the objects sent. When the connection drops,
 * any of them may be lost with it (a server crash loses what it had not stored). On the resume, those with an
 * `utterance_id` are sent again: the server stores an utterance id once, so a resend of one it did store is
 * only acknowledged again. The others cannot be resent safely: an utterance without an id might be stored
 * twice, and a query's answer was lost with the connection. They are reported instead ({@link LostMessage}).
 *
 * An utterance without an id is acknowledged by order, never by its text: the server answers a socket's messages in
 * the order they arrive, so the `transcript.final` of a text utterance (one whose `utterance_id` is no id of the
 * client's and whose `turn_id` no voice event announced) answers the oldest one still waiting. Two with the same
 * text are two messages, and a spoken turn that says the same words acknowledges neither.
 */
export class SentMessages {
  /** Unacknowledged utterances with an id: utterance_id → the message as sent. */
  private readonly withId = new Map<string, SentJson>();
  /** Every utterance id the client sent (a second acknowledgement of one is not taken for an id-less utterance's). */
  private readonly ownIds = new Set<string>();
  /** Unacknowledged utterances without one, oldest first. */
  private readonly withoutId: ClientMessages['utterance'][] = [];
  /** Turns announced by a voice event (`vad.speech_started`, `transcript.partial`): spoken, not sent as text. */
  private readonly voiceTurns = new Set<string>();
  /** Unanswered queries by id. */
  private readonly queries = new Map<string, ClientMessages['query']>();
  /** Utterances sent again after reconnects (all reconnects together). */
  resent = 0;
  /** Everything reported lost so far, oldest first. */
  readonly lost: LostMessage[] = [];

  /** A JSON message went out on the socket (as sent). */
  record(sent: SentJson): void {
    const { message } = sent;
    if (message.type === 'utterance') {
      if (message.utterance_id === undefined) {
        this.withoutId.push(message);
        return;
      }
      this.withId.set(message.utterance_id, sent);
      this.ownIds.add(message.utterance_id);
    } else if (message.type === 'query') {
      this.queries.set(message.id, message);
    }
  }

  /** An event from the server: what it acknowledges is no longer pending. */
  acknowledge(event: ServerEvent): void {
    if (event.type === 'vad.speech_started' || event.type === 'transcript.partial') {
      this.voiceTurns.add(event.turn_id);
    } else if (event.type === 'transcript.final') {
      if (this.ownIds.has(event.utterance_id)) this.withId.delete(event.utterance_id);
      else if (!this.voiceTurns.delete(event.turn_id)) this.withoutId.shift();
    } else if (event.type === 'query.result') {
      this.queries.delete(event.id);
    } else if (event.type === 'error' && event.dropped) {
      // A full queue dropped it: the application was told by that error; nothing to resend or report.
      const { type, id, utterance_id: utteranceId } = event.dropped;
      if (type === 'query' && id !== undefined) this.queries.delete(id);
      if (type === 'utterance' && utteranceId !== undefined) this.withId.delete(utteranceId);
    }
  }

  /**
   * A new connection is up: the messages to send again (with an utterance_id, in the order first sent),
   * and those now given up on (recorded in {@link lost}).
   */
  resume(): { resend: SentJson[]; lost: LostMessage[] } {
    const resend = [...this.withId.values()];
    this.resent += resend.length;
    const lost: LostMessage[] = [
      ...this.withoutId.map((message): LostMessage => ({ type: 'utterance', text: message.text.trim(), message })),
      ...[...this.queries.values()].map((message): LostMessage => ({ type: 'query', id: message.id, message })),
    ];
    this.withoutId.length = 0;
    this.queries.clear();
    this.lost.push(...lost);
    return { resend, lost };
  }
}
