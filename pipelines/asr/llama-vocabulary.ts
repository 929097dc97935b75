/**
 * The Llama SentencePiece vocabulary (32,000 pieces) that Moonshine's decoder writes in, as the
 * `llama-tokenizer-js` package ships it (the package moonshine-js decodes with), and SentencePiece
 * detokenisation: `▁` is a space, `<0xNN>` pieces are raw UTF-8 bytes.
 */

/** U+2581, SentencePiece's word-boundary mark. */
const SPACE_MARK = '\u2581';

let pieces: Promise<readonly string[]> | undefined;

/** The vocabulary's pieces by id (loaded once, ~100 ms). */
export function llamaPieces(): Promise<readonly string[]> {
  pieces ??= import('llama-tokenizer-js').then((m) => m.default.vocabById);
  return pieces;
}

/** Join SentencePiece pieces into text: byte pieces decoded as UTF-8, `▁` as spaces, trimmed. */
export function piecesToText(tokens: readonly string[]): string {
  const bytes: number[] = [];
  const encoder = new TextEncoder();
  for (const piece of tokens) {
    const byte = /^<0x([0-9A-Fa-f]{2})>$/.exec(piece);
    if (byte) bytes.push(parseInt(byte[1]!, 16));
    else for (const b of encoder.encode(piece)) bytes.push(b);
  }
  return new TextDecoder().decode(Uint8Array.from(bytes)).replaceAll(SPACE_MARK, ' ').trim();
}

/**
 * Text as `AsrFinal.text` wants it: lower case, punctuation (hyphens included) replaced by spaces,
 * apostrophes kept only inside words ("don't", not quotes), words separated by single spaces.
 */
export function asrText(text: string): string {
  return text.toLowerCase().replace(/’/g, "'")
    .replace(/[^\p{L}\p{N}']+/gu, ' ')
    .replace(/(?<!\p{L})'|'(?!\p{L})/gu, ' ')
    .trim().replace(/ +/g, ' ');
}
