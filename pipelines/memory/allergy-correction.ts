/**
 * An allergy corrected in one sentence (trial 9, issue #16 F6: "actually I am not allergic to nuts, it was peanuts"):
 * the allergy told is the one held now and replaces the one denied, so the stored nut allergy is superseded by the
 * peanut one (an UPDATE, linked), not deleted beside an unrelated ADD.
 */

/** "I'm not allergic to nuts, it was / it's / I'm allergic to peanuts". */
const DENIED_THEN_TOLD = /\bI(?:['’]m|\s+am)\s+not\s+(?:actually\s+|really\s+)?allergic\s+to\s+([a-z][a-z -]*?)\s*[,;:\u2013\u2014-]?\s+(?:it\s+(?:was|is|['’]s)|it['’]s|I(?:['’]m|\s+am)\s+allergic\s+to|just|only)\s+(?:to\s+)?([a-z][a-z -]*?)\s*[.!]?$/i;
/** "I'm allergic to peanuts, not nuts". */
const TOLD_NOT_DENIED = /\bI(?:['’]m|\s+am)\s+(?:actually\s+|really\s+)?allergic\s+to\s+([a-z][a-z -]*?)\s*,?\s+not\s+(?:to\s+)?([a-z][a-z -]*?)\s*[.!]?$/i;

/** The allergy told and the one it replaces, as said, or null. */
export function correctedAllergy(sentence: string): { told: string; denied: string } | null {
  const before = DENIED_THEN_TOLD.exec(sentence);
  if (before?.[1] && before[2]) return { told: before[2], denied: before[1] };
  const after = TOLD_NOT_DENIED.exec(sentence);
  return after?.[1] && after[2] ? { told: after[1], denied: after[2] } : null;
}

/** "I'm not allergic to nuts, it was peanuts" told as "I am allergic to peanuts, not nuts"; else `sentence` itself. */
export function withAllergyCorrected(sentence: string): string {
  const m = DENIED_THEN_TOLD.exec(sentence);
  if (!m?.[1] || !m[2]) return sentence;
  return `${sentence.slice(0, m.index)}I am allergic to ${m[2]}, not ${m[1]}`;
}
