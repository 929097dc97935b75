import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { ParleyError } from './errors.js';
import type { ServerEvent } from './generated/api.js';

/**
 * A session's server events from `GET /v1/sessions/{id}/events` (server-sent events, parsed by
 * eventsource-parser): the same typed events `/v1/stream` sends, for a session whose own socket
 * carries none back (a Twilio call) or a second listener of any session. Iterate it once; the
 * iterator ends after `session.ended`, or quietly after `close()` (or the caller's signal aborted),
 * and throws a `ParleyError` when the connection breaks. Not resumed: events sent while no
 * connection is up are lost.
 */
export class SessionEventStream implements AsyncIterable<ServerEvent> {
  private iterated = false;
  private closed = false;

  /** @internal Made by `ParleyClient.sessionEvents`, once the server answered 200. */
  constructor(
    /** The session followed. */
    readonly sessionId: string,
    private readonly body: ReadableStream<Uint8Array>,
    private readonly abort: () => void,
    private readonly signal: AbortSignal | undefined,
  ) {}

  /** Stop following: the iterator ends without an error, the connection is closed. Idempotent. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.abort();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<ServerEvent> {
    if (this.iterated) throw new ParleyError('PARLEY_CLIENT_CLOSED', 'a SessionEventStream can be iterated once');
    this.iterated = true;
    const pending: EventSourceMessage[] = [];
    const parser = createParser({ onEvent: (message) => pending.push(message) });
    const decoder = new TextDecoder();
    const reader = this.body.getReader();
    try {
      for (;;) {
        let chunk: Awaited<ReturnType<typeof reader.read>>;
        try {
          chunk = await reader.read();
        } catch (err) {
          if (this.closed || this.signal?.aborted) return;
          throw new ParleyError('PARLEY_CLIENT_NETWORK', `events of session ${this.sessionId}: ${(err as Error).message}`, { cause: err });
        }
        if (chunk.done) break;
        parser.feed(decoder.decode(chunk.value, { stream: true }));
        for (let message = pending.shift(); message; message = pending.shift()) {
          const event = parseEvent(message, this.sessionId);
          yield event;
          if (event.type === 'session.ended') return;
        }
      }
      if (this.closed || this.signal?.aborted) return;
      throw new ParleyError('PARLEY_CLIENT_CLOSED', `events of session ${this.sessionId}: the server closed the stream before session.ended`);
    } finally {
      this.close();
      reader.releaseLock();
    }
  }
}

function parseEvent(message: EventSourceMessage, sessionId: string): ServerEvent {
  let event: unknown;
  try {
    event = JSON.parse(message.data);
  } catch (err) {
    throw new ParleyError('PARLEY_CLIENT_BAD_RESPONSE', `events of session ${sessionId}: an event whose data is not JSON`, { cause: err });
  }
  if (typeof event !== 'object' || event === null || typeof (event as { type?: unknown }).type !== 'string') {
    throw new ParleyError('PARLEY_CLIENT_BAD_RESPONSE', `events of session ${sessionId}: an event without a type`);
  }
  return event as ServerEvent;
}
