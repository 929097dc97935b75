/**
 * What reads as an address, shared by the home told by its address (home-address.ts: "I live at twelve Baker Street in
 * Manchester") and the addresses stated or asked for (delivery-address.ts: "my delivery address is 5 Hill Road, Bristol").
 */

const UNITS = 'one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve';
const TENS = 'twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety';
/** An address names a number or a street word: "twelve Baker Street", "12 Baker St", "flat 3, Rose Court". */
const ADDRESS = new RegExp(String.raw`\d|\b(?:${UNITS}|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|${TENS}|hundred)\b`
  + String.raw`|\b(?:street|st|road|rd|lane|ln|avenue|ave|drive|close|court|crescent|way|place|square|terrace|gardens|grove|hill|row|walk|mews|park)\b`, 'i');
/** An address that opens with its number ("12 Park Road", "flat 3, Rose Court", "twelve Baker Street"). */
const NUMBERED = new RegExp(String.raw`^(?:(?:flat|apartment|apt|unit)\s+\w+|\d+[a-z]?|${UNITS}|[a-z]+teen|${TENS})\b`, 'i');

/** True when `said` reads as an address: it names a number or a street word ("12 Baker St", "flat 3, Rose Court"). */
export function namesAddress(said: string): boolean {
  return ADDRESS.test(said);
}

/**
 * `said` as an address, its trailing punctuation off, or null when it does not read as one (`namesAddress`); with
 * `numbered`, it must also open with its number ("12 Park Road", not "Park Road").
 */
export function addressAs(said: string, numbered = false): string | null {
  const address = said.replace(/[\s,.;!?]+$/, '').trim();
  return address && (!numbered || NUMBERED.test(address)) && namesAddress(address) ? address : null;
}
