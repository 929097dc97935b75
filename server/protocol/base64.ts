/**
 * Standard-alphabet base64 (RFC 4648 §4), padding optional, whitespace allowed between groups. Whitespace is matched
 * in one place only, so a long refused payload is rejected in linear time (no backtracking between two `\s*`).
 */
const BASE64 = /^[A-Za-z0-9+/\s]*(?:=\s*){0,2}$/;

/**
 * Whether `text` is standard base64: `Buffer.from(text, 'base64')` never fails, it drops the characters it does
 * not know, so a payload of another encoding would decode to noise instead of an error.
 */
export function isBase64(text: string): boolean {
  return BASE64.test(text);
}
