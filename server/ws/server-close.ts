import type { WebSocket } from 'ws';
import { fitCloseReason } from './close-frame.js';

/** Why the server ended a connection. */
export interface ServerClose {
  /** The close code sent. */
  code: number;
  /** The close reason, as given (the frame carries it fitted by `fitCloseReason`). */
  reason: string;
  /**
   * Whether it ended for an error the connection cannot go on after (a fatal `error`, a refusal, another connection
   * taking the session over); false for a normal end (`session.ended`) or a shutdown.
   */
  fatal: boolean;
}

const closes = new WeakMap<WebSocket, ServerClose>();

/**
 * Close `socket` from the server's side and record why, for its route's `close` handler ({@link serverClose}). Every
 * socket route (`/v1/stream`, `/v1/twilio`) and the live session close their sockets through this; the first reason
 * given is kept (a second close of a closing socket changes nothing).
 */
export function closeFromServer(socket: WebSocket, close: ServerClose): void {
  if (!closes.has(socket)) closes.set(socket, close);
  socket.close(close.code, fitCloseReason(close.reason));
}

/**
 * How the server ended `socket`, or undefined when it did not (the client closed it, or the connection dropped): a
 * route tells a client that left, which may come back, from one the server sent away.
 */
export function serverClose(socket: WebSocket): ServerClose | undefined {
  return closes.get(socket);
}
