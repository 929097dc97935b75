/**
 * The words of a name or of a text as name lookups see them: runs of letters and digits, lower-cased,
 * a trailing possessive removed ("Ana's" → "ana") and other apostrophes dropped ("O'Brien" → "obrien").
 * Stores index the words of every name and alias with this function, and callers look names up by the
 * words of their text with it, so both sides split and fold a word the same way.
 */
export function nameWords(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu) ?? []).map((w) => w.replace(/['’]s$/, '').replace(/['’]/g, ''));
}

/** The distinct words of a participant's name and aliases. */
export function participantNameWords(name: string | null, aliases: readonly string[]): string[] {
  return [...new Set([name, ...aliases].flatMap((n) => (n ? nameWords(n) : [])))];
}

/**
 * The index words under which a name that occurs in `text` as a whole word may be stored: the text's
 * `nameWords`, and besides every run of letters and digits and every two runs joined by one
 * apostrophe, since a name may stand inside a longer apostrophe word of the text ("l'Ana", "Ben'll").
 */
export function textNameWords(text: string): string[] {
  const lower = text.toLowerCase();
  const words = new Set(nameWords(lower));
  for (const [run] of lower.matchAll(/[\p{L}\p{N}]+(?:['’][\p{L}\p{N}]+)*/gu)) {
    const pieces = run.split(/['’]/);
    pieces.forEach((piece, i) => {
      words.add(piece);
      if (i > 0) words.add(pieces[i - 1] + piece);
    });
  }
  return [...words];
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Whether one of `names` (of two characters or more, blanks aside) occurs in `text` as whole words,
 * not inside a longer word, ignoring case. A substring test screens each name before the whole-word
 * pattern is built.
 */
export function namedInText(text: string, names: readonly (string | null)[]): boolean {
  const lower = text.toLowerCase();
  return names.some((n) => !!n && n.trim().length > 1 && lower.includes(n.toLowerCase())
    && new RegExp(`(^|[^\\p{L}\\p{N}])${escapeRegExp(n)}($|[^\\p{L}\\p{N}])`, 'iu').test(text));
}
