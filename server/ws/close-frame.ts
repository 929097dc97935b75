import { ERRORS, type ErrorCode } from '../../graph/core/errors.js';

/** The most bytes of UTF-8 a close frame's reason holds (RFC 6455: 125 bytes of payload, less the 2-byte code). */
export const MAX_CLOSE_REASON_BYTES = 123;

const ELLIPSIS = '…';

/**
 * `text` as a close reason: whole when it fits in {@link MAX_CLOSE_REASON_BYTES}, else cut at the last
 * word boundary that leaves room for "…" (a single word too long for the frame is cut between characters).
 * Every socket Parley closes gets its reason through this.
 */
export function fitCloseReason(text: string): string {
  if (Buffer.byteLength(text) <= MAX_CLOSE_REASON_BYTES) return text;
  const room = MAX_CLOSE_REASON_BYTES - Buffer.byteLength(ELLIPSIS);
  let cut = '';
  let bytes = 0;
  for (const ch of text) {
    bytes += Buffer.byteLength(ch);
    if (bytes > room) break;
    cut += ch;
  }
  const space = cut.lastIndexOf(' ');
  if (space > 0) cut = cut.slice(0, space);
  return `${cut.replace(/[\s,;:.(-]+$/u, '')}${ELLIPSIS}`;
}

/** The close reason of a refusal: `<code>: <message>`, fitted by {@link fitCloseReason}. */
export function closeReason(code: ErrorCode, message: string): string {
  return fitCloseReason(`${code}: ${message}`);
}

/**
 * The close code of a socket refused with `code`: its code in the error table, on every socket route. None
 * is a normal closure (1000): a refused resume of an ended session closes with 4001, its own code, so a
 * client tells it from a session that ended while it was connected (`session.ended`, then 1000).
 */
export function refusalCloseCode(code: ErrorCode): number {
  return ERRORS[code].wsClose;
}
