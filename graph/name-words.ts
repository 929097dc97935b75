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
