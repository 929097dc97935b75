import type { ClientMessage, ServerEvent } from './generated/api.js';

/** A message sent to a server that never acknowledged it and that the SDK could not send again safely. */
export interface LostMessage {
  type: 'utterance' | 'query';
  /** A query's `id`. */
  id?: string;
  /** An utterance's text (an utterance without `utterance_id`: it may or may not have been stored). */
  text?: string;
}

/**
 * The `utterance` and `query` messages handed to a socket and not yet acknowledged (`transcript.final`,
 * `query.result`, or an `error` whose `dropped` names them). When the connection drops, any of them may be
 * lost with it (a server crash loses what it had not stored). On the resume, those with an
 * `utterance_id` are sent again: the server stores an utterance id once, so a resend of one it did store is
 * only acknowledged again. The others cannot be resent safely: an utterance without an id might be stored
 * twice, and a query's answer was lost with the connection. They are reported instead ({@link LostMessage}).
 */
export class SentMessages {
  /** Unacknowledged utterances with an id: utterance_id → the message as sent. */
  private readonly withId = new Map<string, string>();
  /** Unacknowledged utterances without one, oldest first (acknowledged by a `transcript.final` with their text). */
  private readonly withoutId: string[] = [];
  /** Unanswered queries by id. */
  private readonly queries = new Set<string>();
  /** Utterances sent again after reconnects (all reconnects together). */
  resent = 0;
  /** Everything reported lost so far, oldest first. */
  readonly lost: LostMessage[] = [];

  /** A JSON message went out on the socket (as sent). */
  record(text: string): void {
    const message = JSON.parse(text) as ClientMessage;
    if (message.type === 'utterance') {
      if (message.utterance_id !== undefined) this.withId.set(message.utterance_id, text);
      else this.withoutId.push(message.text.trim());
    } else if (message.type === 'query') {
      this.queries.add(message.id);
    }
  }

  /** An event from the server: what it acknowledges is no longer pending. */
  acknowledge(event: ServerEvent): void {
    if (event.type === 'transcript.final') {
      if (this.withId.delete(event.utterance_id)) return;
      const i = this.withoutId.indexOf(event.text.trim());
      if (i >= 0) this.withoutId.splice(i, 1);
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
  resume(): { resend: string[]; lost: LostMessage[] } {
    const resend = [...this.withId.values()];
    this.resent += resend.length;
    const lost: LostMessage[] = [
      ...this.withoutId.map((text): LostMessage => ({ type: 'utterance', text })),
      ...[...this.queries].map((id): LostMessage => ({ type: 'query', id })),
    ];
    this.withoutId.length = 0;
    this.queries.clear();
    this.lost.push(...lost);
    return { resend, lost };
  }
}
