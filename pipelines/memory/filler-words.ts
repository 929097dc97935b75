/**
 * Hesitations and laughs said between words ("um", "umm", "uh", "erm", "lol", "haha"): the one list of them that both
 * the memory text rules (left out of a fact, rules 38: `withoutFillers`) and the evidence rules (a turn of them alone
 * holds no content: `hasContent`) read. Lower-case forms of regular-expression source.
 */
const FORMS = ['uu*m+', 'uu*h+', 'er+m+', 'lol', 'ha(?:ha)+'];

/** A form also matching its capitalised spelling ("Um"), never an acronym in capitals ("UM", "UH"). */
const capitalisable = (form: string): string => `[${form[0]}${form[0]!.toUpperCase()}]${form.slice(1)}`;

/** A filler in running text, with the comma after it and the space that follows (lower case or capitalised only). */
export const SPOKEN_FILLER = new RegExp(`(?<![\\w'’-])(?:${FORMS.map(capitalisable).join('|')})(?![\\w'’-]),?\\s*`, 'g');

const WHOLE = new RegExp(`^(?:${FORMS.join('|')})$`);

/** Whether a lower-case word is a filler ("ummm", "hahaha"). */
export function isFillerWord(word: string): boolean {
  return WHOLE.test(word);
}
