import type { FastifyRequest } from 'fastify';
import type { RawData, WebSocket } from 'ws';
import { ParleyError } from '../../graph/core/errors.js';

/**
 * Parley's limit on one WebSocket message, 1 MiB: far above the largest valid one (1 s of 48 kHz
 * `f32le` audio is 188 KiB; an utterance's text is at most 10,000 characters). A larger message gets
 * a non-fatal `PARLEY_ERR_FRAME_TOO_LARGE` and is dropped; the session goes on.
 */
export const MAX_WS_MESSAGE_BYTES = 1024 * 1024;

/**
 * The transport's hard cap (the `ws` `maxPayload`), 8 MiB: a message above it is refused from its
 * frame header, before it is buffered, and the socket closes with 1009. It bounds what one socket
 * can make the server hold in memory.
 */
export const WS_HARD_CAP_BYTES = 8 * 1024 * 1024;

/** Bytes in a received message, however `ws` delivered it. */
export function messageBytes(data: RawData): number {
  if (Array.isArray(data)) return data.reduce((n, b) => n + b.byteLength, 0);
  return data.byteLength;
}

/**
 * Refuse a message over Parley's limit ({@link MAX_WS_MESSAGE_BYTES}) with a non-fatal
 * `PARLEY_ERR_FRAME_TOO_LARGE`: the caller drops it and the session goes on.
 */
export function checkMessageSize(data: RawData): void {
  const bytes = messageBytes(data);
  if (bytes > MAX_WS_MESSAGE_BYTES) {
    throw new ParleyError('PARLEY_ERR_FRAME_TOO_LARGE', `message of ${bytes} bytes is over the limit of ${MAX_WS_MESSAGE_BYTES} bytes; it was dropped`);
  }
}

/** The close reason for a message over the hard cap (at most 123 bytes, as a close frame allows). */
export const HARD_CAP_CLOSE_REASON = `PARLEY_ERR_FRAME_TOO_LARGE: message over ${WS_HARD_CAP_BYTES} bytes`;

/**
 * `ws` closes a socket whose message exceeds its `maxPayload` ({@link WS_HARD_CAP_BYTES}) with 1009
 * and no reason, and offers no hook to give one; this names the limit in that close.
 */
export function nameHardCapOnClose(socket: WebSocket): void {
  const close = socket.close.bind(socket);
  socket.close = (code?: number, reason?: string | Buffer): void => {
    close(code, code === 1009 && (reason === undefined || reason.length === 0) ? HARD_CAP_CLOSE_REASON : reason);
  };
}

/**
 * The `@fastify/websocket` `errorHandler`. `ws` answers a protocol error (a message over the hard cap:
 * 1009) with a close frame and ends the connection once that frame is written. The plugin's default
 * handler terminated the socket at once, which cut off a close frame still queued behind earlier
 * events: the client saw 1006 and no reason. Such a socket is left to `ws`; an error thrown by a route
 * handler still terminates its socket.
 */
export function websocketErrorHandler(error: Error, socket: WebSocket, request: FastifyRequest): void {
  if (socket.readyState === socket.CLOSING) {
    request.log.warn({ err: error.message }, 'websocket closing after a protocol error');
    return;
  }
  request.log.error({ err: error }, 'websocket handler failed');
  socket.terminate();
}
