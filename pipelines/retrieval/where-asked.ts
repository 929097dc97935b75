import { factEnded, type Fact } from '../../graph/memory-store.js';
import { STAY_SLOT } from '../memory/stays.js';
import { slotFamily, temporaryByNature } from '../memory/temporary-slots.js';

/**
 * Whether a question asks what holds at present or what lasts, by its words, for any slot of a person: `present` —
 * "Where is Lena now?", "Where is Lena staying?", "Where's Ben at the moment?", "Where is Sam working this week?",
 * "What is Omar eating these days?"; `lasting` — "Where does Lena live?", "Where is Ben based?", "Where does Sam work?",
 * "Who is Sam's employer?", "What is Raj's profession?", "What does Ines usually eat?", "What is Hal's usual diet?" (a lasting word wins: "where does
 * Lena live now?" asks of the home); null — neither.
 */
export type ValidityAsked = 'present' | 'lasting' | null;

/** Words of a lasting value: a home, an employer, a job, a habit, a long-term plan. */
const LASTING = new RegExp([
  String.raw`\b(?:live|lives|lived|living|home|based|reside|resides|residence|hometown)\b`,
  String.raw`\b(?:employer|job|occupation|profession|career|for\s+a\s+living)\b`,
  String.raw`\b(?:do|does)\s+(?:\w+\s+){1,2}work\b`, String.raw`\bworks\b`,
  String.raw`\b(?:usually|usual|normally|generally|typically|typical|ordinarily|long[-\s]term|in\s+general)\b`,
].join('|'));
/** Words of the present: now, a stretch of time that includes it. */
const PRESENT = /\b(?:now|currently|current|at\s+the\s+moment|at\s+present|presently|these\s+days|nowadays|today|tonight|this\s+(?:week|weekend|month))\b/;
/**
 * Words of the present in a whereabouts question only ("where" or a stay word in it): a stay, being away, and the present
 * of "be" ("Where is Lena?", "where's Ben?", "where are they?"). Elsewhere they ask nothing of time ("how does Gina stay
 * confident?", "what did Caroline take away from the book?").
 */
const WHERE_PRESENT = /\b(?:staying|stay|visiting|away)\b|\bwhere(?:\s+(?:is|are|am)\b|'s\b|\s+will\s+\w+\s+be\b)/;

export function validityAsked(question: string): ValidityAsked {
  const q = question.toLowerCase().replace(/’/g, "'");
  if (LASTING.test(q)) return 'lasting';
  if (PRESENT.test(q)) return 'present';
  return (/\bwhere\b/.test(q) || /\b(?:staying|visiting)\b/.test(q)) && WHERE_PRESENT.test(q) ? 'present' : null;
}

/**
 * A question's current values in the order it asks for, each person's slot family apart: for `present`, a temporary value
 * that holds at `now` (a fact with its own end ahead: "staying in Madrid for two weeks", "working at Hooli until Friday",
 * "vegan for a month") before the lasting value it interrupts; for `lasting`, the lasting value first. The values swap
 * positions (and scores) among themselves only: no other item moves, and nothing is added or dropped. `ranked`: best first.
 */
export function inAskedOrder<C extends { kind: string; score: number; f?: Fact }>(ranked: readonly C[], asked: ValidityAsked, now: string): C[] {
  const out = [...ranked];
  if (asked === null) return out;
  // A state said ahead (rules 30) is no value of the slot before it begins.
  const value = (c: C): Fact | null => (c.kind === 'fact' && c.f && c.f.slot !== null && c.f.validTo === null && !factEnded(c.f, now)
    && !(Date.parse(c.f.validFrom) > Date.parse(now)) ? c.f : null);
  const groups = new Map<string, number[]>();
  ranked.forEach((c, i) => {
    const f = value(c);
    if (!f || f.slot === null) return;
    // A slot's family: the values that interrupt one another (a stay and the home, every sport; `slotFamily`).
    const key = `${f.subjectId}\u0000${slotFamily(f.slot)}`;
    groups.set(key, [...(groups.get(key) ?? []), i]);
  });
  // A value with its own end, or of a slot temporary by its nature (a status: `temporaryByNature`).
  const temporary = (f: Fact | null): boolean => f !== null && (f.validUntil !== null || (f.slot !== null && temporaryByNature(f.slot)));
  const first = (c: C): number => (temporary(value(c)) ? (asked === 'present' ? 0 : 1) : (asked === 'present' ? 1 : 0));
  for (const at of groups.values()) {
    if (at.length < 2) continue;
    const wanted = at.map((i) => ranked[i]!).sort((a, b) => first(a) - first(b));
    at.forEach((i, j) => { out[i] = { ...wanted[j]!, score: ranked[i]!.score }; });
  }
  return out;
}

/** A whereabouts question: "where", or "what/which city (town, country, place)". */
const ASKS_WHERE = /\bwhere\b|\b(?:what|which)\s+(?:city|town|country|place|part)\b/;
/** Words of a home. */
const HOME = /\b(?:live|lives|living|home|based|reside|resides|residence|hometown)\b/;
/** Words of a workplace. */
const WORKPLACE = /\b(?:work|works|working|employed)\b/;
/** A question about the past by its verb ("Where did Ana live?", "where was Ben working?"): what holds now is not asked. */
const PAST_VERB = /\b(?:did|was|were|had|used|lived|worked)\b/;
/** Where someone is: "where is Zoe (now)?", "where's Ben?", "where are they at the moment?". */
const WHERE_IS = /\bwhere(?:\s+(?:is|are)\b|'s\b)/;

/**
 * The slots whose current values answer a question about a person's whereabouts, by its words, best first (empty: none):
 * "Where does Ana live (now)?", "Where is Ben based?", "What city does Zoe live in?" → the home (`lives_in`) and a
 * stay that interrupts it (`staying_in`); "Where is Zoe (now / at the moment)?" with no other content word
 * (`contentWords`: the question's words, names and temporal cues left out) → the stay first, then the home; "Where
 * does Ben work?" → the workplace (`works_at`). A question in the past tense ("Where did Ana live?") asks none of them.
 */
export function askedSlots(question: string, contentWords: readonly string[]): string[] {
  const q = question.toLowerCase().replace(/’/g, "'");
  if (!ASKS_WHERE.test(q) || PAST_VERB.test(q)) return [];
  if (HOME.test(q)) return ['lives_in', STAY_SLOT];
  if (WORKPLACE.test(q)) return ['works_at'];
  return contentWords.length === 0 && WHERE_IS.test(q) ? [STAY_SLOT, 'lives_in'] : [];
}
