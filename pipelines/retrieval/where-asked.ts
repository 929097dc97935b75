import { factEnded, type Fact } from '../../graph/memory-store.js';

/**
 * Where a question asks a person is, by its words: `now` — where they are at present ("Where is Lena now?", "Where is
 * Lena staying?", "Where's Ben at the moment?", "Where is Ana currently?"); `home` — where they live ("Where does Lena
 * live?", "Where is Ben based?", "Where's Ana's home?"; a home word wins: "where does Lena live now?" asks of the home);
 * null — neither (no "where", or no person's whereabouts).
 */
export type WhereAsked = 'now' | 'home' | null;

const HOME = /\b(?:live|lives|living|lived|home|based|reside|resides|residence|hometown)\b/;
const NOW = /\b(?:now|currently|current|at\s+the\s+moment|at\s+present|presently|these\s+days|today|tonight|this\s+(?:week|weekend|month)|staying|stay|visiting|away)\b/;
/** "Where is Lena?", "where's Ben?", "where are they?": the present of "be" asks where someone is. */
const WHERE_IS = /\bwhere(?:\s+(?:is|are|am)\b|['’]s\b|\s+will\s+\w+\s+be\b)/;

export function whereAsked(question: string): WhereAsked {
  const q = question.toLowerCase().replace(/’/g, "'");
  if (!/\bwhere\b/.test(q) && !/\b(?:staying|visiting)\b/.test(q)) return null;
  if (HOME.test(q)) return 'home';
  return NOW.test(q) || WHERE_IS.test(q) ? 'now' : null;
}

/** Slots that say where a person is: their home and a stay beside it. */
const WHERE_SLOTS = new Set(['lives_in', 'staying_in']);

/**
 * A whereabouts question's current places in the order it asks for, each person's apart: for `now`, a stay that
 * holds at `now` (a fact with its own end: "staying in Madrid for two weeks", "living in Lisbon for a month") before
 * the home it interrupts; for `home`, the lasting home before any stay. The places swap positions (and scores)
 * among themselves only: no other item moves, and nothing is added or dropped. `ranked`: best first.
 */
export function inAskedOrder<C extends { kind: string; score: number; f?: Fact }>(ranked: readonly C[], asked: WhereAsked, now: string): C[] {
  const out = [...ranked];
  if (asked === null) return out;
  const place = (c: C): Fact | null => (c.kind === 'fact' && c.f && c.f.slot !== null && WHERE_SLOTS.has(c.f.slot)
    && c.f.validTo === null && !factEnded(c.f, now) ? c.f : null);
  const bySubject = new Map<string, number[]>();
  ranked.forEach((c, i) => {
    const f = place(c);
    if (f) bySubject.set(f.subjectId, [...(bySubject.get(f.subjectId) ?? []), i]);
  });
  const first = (c: C): number => ((place(c)?.validUntil ?? null) !== null ? (asked === 'now' ? 0 : 1) : (asked === 'now' ? 1 : 0));
  for (const at of bySubject.values()) {
    const wanted = at.map((i) => ranked[i]!).sort((a, b) => first(a) - first(b));
    at.forEach((i, j) => { out[i] = { ...wanted[j]!, score: ranked[i]!.score }; });
  }
  return out;
}
