/**
 * "I live at twelve Baker Street in Manchester": a home told by its address. The town fills the home slot (so "I moved
 * to Leeds" replaces it), and the fact keeps the address as said.
 */
import { addressAs } from './address.js';

/** A home told by its address: the address as said, and the town, when one follows ("… in Manchester"). */
export interface HomeAddress {
  address: string;
  town: string | null;
}

const LIVE_AT = /\b(?:I|we)(?:\s+now|\s+currently|\s+still)?(?:\s+live|\s+am\s+living|\s+are\s+living|['’]m\s+living|['’]re\s+living)\s+at\s+(.+)$/i;

/**
 * The home `sentence` tells by its address ("I live at 12 Baker Street in Manchester"), or null. `cut` trims what follows
 * the town ("in Manchester with my sister" → "Manchester"; the caller's place cutter).
 */
export function homeAddress(sentence: string, cut: (said: string) => string): HomeAddress | null {
  const said = LIVE_AT.exec(sentence)?.[1];
  if (!said) return null;
  const at = said.search(/\s+in\s+(?!the\s+(?:morning|evening|afternoon|summer|winter)\b)/i);
  const address = addressAs(at >= 0 ? said.slice(0, at) : cut(said));
  if (!address) return null;
  const town = at >= 0 ? cut(said.slice(at).replace(/^\s+in\s+/i, '')).replace(/[,.;!?]+$/, '').trim() : '';
  return { address, town: town || null };
}
