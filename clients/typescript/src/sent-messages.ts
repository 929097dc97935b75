import { randomUUID } from 'node:crypto';
import type { Outgoing } from './audio-queue.js';
import { ParleyError } from './errors.js';
import type { ClientMessage, ClientMessages, ServerEvent, ServerEvents } from './generated/api.js';

/** A JSON message as queued and sent: the object handed to the socket, and its wire text. */
export type SentJson = Extract<Outgoing, { kind: 'json' }>;

/** A query sent to a server that never answered it: its answer was lost with the connection (ask again). */
export interface LostMessage {
  type: 'query';
  /** The query's `id`. */
  id: string;
  /** The message object itself, as the application passed it to `send`. */
  message: ClientMessages['query'];
}

/**
 * `message` as the SDK sends it: an `utterance` without `utterance_id` gets one of the client's own (`sdk-` and a
 * random UUID; the server stores an id once and echoes it in `transcript.final`), so every utterance is acknowledged
 * by its id and can be sent again safely after a drop. Any other message is returned as it is.
 */
export function withUtteranceId(message: ClientMessage): ClientMessage {
  if (message.type !== 'utterance' || message.utterance_id !== undefined) return message;
  return { ...message, utterance_id: `sdk-${randomUUID()}` };
}

/**
 * The query an `error` event answers (the server names its `id` on every error answering a query: refused, failed, or
 * dropped by a full queue), with that error as a ParleyError to reject its waiter with; null for any other event.
 */
export function queryRefusal(event: ServerEvent): { id: string; error: ParleyError } | null {
  if (event.type !== 'error') return null;
  const id = event.id ?? (event.dropped?.type === 'query' ? event.dropped.id : undefined);
  return id === undefined ? null : { id, error: new ParleyError(event.code, event.message, { fatal: event.fatal }) };
}

/**
 * What `match` of `waitFor('query.result', match)` is shown to learn whether it waits for query `id`: that id with no
 * evidence (the query was refused, so no evidence exists).
 */
export function refusedQueryProbe(sessionId: string, id: string): ServerEvents['query.result'] {
  return { type: 'query.result', session_id: sessionId, seq: 0, id, evidence: [], answerable: false, rounds: 0, timings: {} };
}

/**
 * An unacknowledged utterance: the message as sent, the socket it last went out on, its place in that socket's sends,
 * and whether it went out before (a resend: an acknowledgement may answer the earlier send).
 */
interface PendingUtterance {
  sent: SentJson;
  socket: number;
  order: number;
  resent: boolean;
}

/**
 * The `utterance` and `query` messages handed to a socket and not yet acknowledged (`transcript.final`,
 * `query.result`, an `error` answering a query (its `id`), or an `error` whose `dropped` names them), kept as the objects sent. When the connection drops,
 * any of them may be lost with it (a server crash loses what it had not stored). On the resume, the utterances are
 * sent again (every one has an `utterance_id`, see {@link withUtteranceId}: the server stores an id once, so a resend
 * of one it did store is only acknowledged again); a query cannot be, its answer was lost with the connection: it is
 * reported instead ({@link LostMessage}).
 *
 * Acknowledgements go by `utterance_id` only, whichever socket they come on: a late `transcript.final` of an old
 * socket acknowledges exactly its own utterance. The server handles a socket's messages in arrival order and answers
 * a refused one with an `error` in its place that names no id (a bad field, the session ended): so when an utterance
 * sent once is acknowledged on the socket it went out on, those sent before it on that socket and still waiting were
 * refused, and are forgotten (the application saw the error; a resend would be refused again). The acknowledgement of
 * a resent one proves nothing of the others: it may answer its earlier send, handled late. Only unacknowledged
 * messages are kept: acknowledged ids, and turns spoken rather than sent, are never remembered.
 */
export class SentMessages {
  /** Unacknowledged utterances: utterance_id → where and how it was last sent; in the order first sent. */
  private readonly utterances = new Map<string, PendingUtterance>();
  /** Unanswered queries by id. */
  private readonly queries = new Map<string, ClientMessages['query']>();
  /** The socket now sending: 0 for the first, one more at each resume. */
  private socket = 0;
  /** Messages recorded so far (orders the sends of one socket). */
  private sends = 0;
  /** Utterances sent again after reconnects (all reconnects together). */
  resent = 0;
  /** Every query reported lost so far, oldest first. */
  readonly lost: LostMessage[] = [];

  /** The number of the socket now sending (pass it to {@link acknowledge} with that socket's events). */
  get currentSocket(): number {
    return this.socket;
  }

  /** How many utterances and queries wait for an acknowledgement. */
  get pending(): number {
    return this.utterances.size + this.queries.size;
  }

  /** A JSON message went out on the current socket (as sent, with its `utterance_id`: {@link withUtteranceId}). */
  record(sent: SentJson): void {
    const { message } = sent;
    if (message.type === 'utterance' && message.utterance_id !== undefined) {
      const resent = this.utterances.has(message.utterance_id);
      this.utterances.set(message.utterance_id, { sent, socket: this.socket, order: ++this.sends, resent });
    } else if (message.type === 'query') {
      this.queries.set(message.id, message);
    }
  }

  /** An event from the server, received on socket `socket` ({@link currentSocket} when it was up): what it acknowledges is no longer pending. */
  acknowledge(event: ServerEvent, socket: number): void {
    if (event.type === 'transcript.final') {
      const acked = this.utterances.get(event.utterance_id);
      if (!acked) return;
      this.utterances.delete(event.utterance_id);
      if (acked.socket !== socket || acked.resent) return;
      for (const [id, p] of this.utterances) if (p.socket === socket && p.order < acked.order) this.utterances.delete(id);
    } else if (event.type === 'query.result') {
      this.queries.delete(event.id);
    } else if (event.type === 'error') {
      // Refused, failed or dropped: the application was told by that error; nothing to resend or report.
      const refused = queryRefusal(event);
      if (refused) this.queries.delete(refused.id);
      const utteranceId = event.dropped?.type === 'utterance' ? event.dropped.utterance_id : undefined;
      if (utteranceId !== undefined) this.utterances.delete(utteranceId);
    }
  }

  /**
   * A new connection is up (it becomes the current socket): the utterances to send again, in the order first sent,
   * and the queries now given up on (recorded in {@link lost}).
   */
  resume(): { resend: SentJson[]; lost: LostMessage[] } {
    this.socket += 1;
    const resend = [...this.utterances.values()].map((p) => p.sent);
    this.resent += resend.length;
    const lost = [...this.queries.values()].map((message): LostMessage => ({ type: 'query', id: message.id, message }));
    this.queries.clear();
    this.lost.push(...lost);
    return { resend, lost };
  }
}
