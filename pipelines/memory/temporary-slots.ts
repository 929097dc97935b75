/**
 * Temporary values outside residence (rules 30): a state said with its end that the other rules leave as a plain
 * statement ("I'm on a juice cleanse for a few days", "I'm working as a lifeguard for two weeks", "I'm temping at a law
 * firm until Friday", "I'm on leave until January", "Leela and I are on a break until the new year") fills the slot its
 * lasting form fills (`diet`, `occupation`, `works_at`, `status`, `relationship`), so a present-tense question gets it
 * before the lasting value it interrupts and a lasting question the lasting value (pipelines/retrieval/where-asked.ts).
 */

import { DONE, GONE, PLAYED } from './standing-slots.js';
import { STAY_SLOT } from './stays.js';

/**
 * Slots whose values interrupt the lasting value of another slot, by that slot: a stay (`staying_in`) interrupts the
 * home (`lives_in`), a leave or sabbatical (`status`) the occupation. Any other slot's temporary values interrupt its
 * own lasting ones ("working at Hooli until Friday", `works_at` with an end, interrupts "I work at Initech").
 */
const INTERRUPTS: Readonly<Record<string, string>> = { [STAY_SLOT]: 'lives_in', status: 'occupation' };

/** The slot whose lasting value a value of `slot` interrupts, or replaces: `lives_in` for `staying_in`, else as given. */
export function lastingSlotOf(slot: string): string {
  return INTERRUPTS[slot] ?? slot;
}

/** Slots of one family by their prefix: every `sport:*` slot is one family (rules 31), "playing tennis this month" interrupts "I play football". */
const FAMILY_PREFIXES: ReadonlyArray<[prefix: string, family: string]> = [['sport:', 'sport']];

/**
 * The family of `slot`: the values that interrupt one another, read together by the present/lasting order
 * (pipelines/retrieval/where-asked.ts): a stay and the home (`lastingSlotOf`), every sport.
 */
export function slotFamily(slot: string): string {
  return FAMILY_PREFIXES.find(([prefix]) => slot.startsWith(prefix))?.[1] ?? lastingSlotOf(slot);
}

/** Slots whose values are temporary by their nature, said with an end or not: a status ("on strike", "on leave"; rules 31). */
const TEMPORARY_BY_NATURE: ReadonlySet<string> = new Set(['status']);

/** Whether a value of `slot` is temporary by its nature, with no end of its own said. */
export function temporaryByNature(slot: string): boolean {
  return TEMPORARY_BY_NATURE.has(slot);
}

/** What a temporary state fills: the slot its lasting form fills, and its value as said. */
export interface TemporarySlot {
  slot: string;
  value: string;
  /** The memory's kind: a profile value, or a sport's preference (rules 31); absent: profile. */
  kind?: 'preference';
}

const BE = String.raw`\b(?:I|[Ww]e)(?:['’]m|\s+am|['’]re|\s+are)(?:\s+(?:currently|still|now|just|also))?`;
/** Where a value ends: an end said, a clause boundary. */
const STOP = String.raw`(?=\s+(?:for|until|till|til|through|thru|this|next|over|during|while|and|but|so|because)\b|\s*[,.;!?]|\s*$)`;
const DIET_WORD = String.raw`(?:diet|cleanse|detox|fast)`;

const RULES: ReadonlyArray<{ slot: string; re: RegExp }> = [
  // "on a juice cleanse", "on a low-carb diet", "fasting", "doing keto".
  { slot: 'diet', re: new RegExp(String.raw`${BE}\s+(?:on\s+(?:a|an)\s+((?:[\w-]+\s+){0,2}?${DIET_WORD})\b|(fasting)\b|doing\s+(keto|paleo|whole30|intermittent\s+fasting|(?:a|an)\s+(?:[\w-]+\s+){0,2}?${DIET_WORD}\b))`, 'i') },
  // "working as a lifeguard".
  { slot: 'occupation', re: new RegExp(String.raw`${BE}\s+(?:working|employed)\s+as\s+(?:a|an)\s+([a-z][a-z -]*?)${STOP}`) },
  // "temping at a law firm", "covering at the clinic", "filling in at the café".
  { slot: 'works_at', re: new RegExp(String.raw`${BE}\s+(?:temping|covering|filling\s+in|helping\s+out|subbing)\s+(?:at|for|in)\s+((?:the|a|an)\s+[a-z][^,.;!?]*?)${STOP}`) },
  // "on leave", "on paternity leave", "on sabbatical", "off work on sick leave", "on strike" (rules 31).
  { slot: 'status', re: new RegExp(String.raw`${BE}\s+(?:off\s+work\s+)?(?:out\s+)?(on\s+(?:[a-z]+\s+)?(?:leave|sabbatical|furlough|strike))\b`) },
  // "Leela and I are on a break", "we're taking a break".
  { slot: 'relationship', re: /\b(?:[A-Z][a-z]+\s+and\s+I|[Ww]e)\s+(?:are|['’]re)\s+((?:on|taking)\s+a\s+break)\b/ },
  // "playing tennis this month", "doing yoga for a few weeks", "swimming until March": a sport for a time (rules 31).
  { slot: 'sport', re: new RegExp(String.raw`${BE}\s+(?:playing\s+(${PLAYED})|doing\s+(${DONE})|(${GONE}))${STOP}`, 'i') },
];

/** The slot and value a first-person temporary state fills by its words; null when none of the rules reads it. */
export function temporarySlot(sentence: string): TemporarySlot | null {
  if (/\?\s*$/.test(sentence)) return null;
  for (const { slot, re } of RULES) {
    const m = re.exec(sentence);
    const said = m?.slice(1).find((g) => g !== undefined)?.trim();
    if (said && slot === 'sport') {
      const value = said.toLowerCase().replace(/\s+/g, ' ');
      return { slot: `sport:${value.replace(/ /g, '_')}`, value, kind: 'preference' };
    }
    if (said) return { slot, value: said.replace(/^(?:a|an)\s+/i, '').replace(/^taking\s+/i, 'on ').toLowerCase() };
  }
  return null;
}
