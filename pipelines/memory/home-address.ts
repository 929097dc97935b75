/**
 * "I live at twelve Baker Street in Manchester": a home told by its address. The town fills the home slot (so "I moved
 * to Leeds" replaces it), and the fact keeps the address as said.
 */

/** A home told by its address: the address as said, and the town, when one follows ("… in Manchester"). */
export interface HomeAddress {
  address: string;
  town: string | null;
}

const LIVE_AT = /\b(?:I|we)(?:\s+now|\s+currently|\s+still)?(?:\s+live|\s+am\s+living|\s+are\s+living|['’]m\s+living|['’]re\s+living)\s+at\s+(.+)$/i;
/** An address names a number or a street word: "twelve Baker Street", "12 Baker St", "flat 3, Rose Court". */
const ADDRESS = /\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred)\b|\b(?:street|st|road|rd|lane|ln|avenue|ave|drive|close|court|crescent|way|place|square|terrace|gardens|grove|hill|row|walk|mews|park)\b/i;

/** True when `said` reads as an address: it names a number or a street word ("12 Baker St", "flat 3, Rose Court"). */
export function namesAddress(said: string): boolean {
  return ADDRESS.test(said);
}

/**
 * The home `sentence` tells by its address ("I live at 12 Baker Street in Manchester"), or null. `cut` trims what follows
 * the town ("in Manchester with my sister" → "Manchester"; the caller's place cutter).
 */
export function homeAddress(sentence: string, cut: (said: string) => string): HomeAddress | null {
  const said = LIVE_AT.exec(sentence)?.[1];
  if (!said) return null;
  const at = said.search(/\s+in\s+(?!the\s+(?:morning|evening|afternoon|summer|winter)\b)/i);
  const address = (at >= 0 ? said.slice(0, at) : cut(said)).replace(/[,.;!?]+$/, '').trim();
  if (!address || !ADDRESS.test(address)) return null;
  const town = at >= 0 ? cut(said.slice(at).replace(/^\s+in\s+/i, '')).replace(/[,.;!?]+$/, '').trim() : '';
  return { address, town: town || null };
}
