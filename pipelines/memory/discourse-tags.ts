/**
 * Discourse tags ("by the way", "anyway", "you know", "I mean", "so yeah", "to be honest", "honestly"): said
 * to steer a conversation, they are no part of what it tells, and a fact written down keeps none of them (text5, issue #16
 * item 2: "Ana loves tennis Tom know" came from "i love tennis you know"). Left out where they open or close a clause,
 * before the rules read the turn; inside a clause they may carry meaning ("I'll come anyway", "she answered honestly")
 * and stay. "Actually" is no tag here: it tells a change of mind ("Actually, I won't order the curtains" cancels the plan;
 * changes.ts `CHANGE_OF_MIND`), and the rules leave it out of the fact's text themselves.
 */

/** Tags that open or close a clause wherever they stand. */
const TAG = String.raw`by\s+the\s+way|you\s+know|I\s+mean|so\s+yeah|to\s+be\s+honest|to\s+tell\s+(?:you\s+)?the\s+truth`;
/** Tags also read as adverbs ("I'll come anyway", "she answered honestly"): left out only where a clause opens, or after a comma. */
const ADVERB_TAG = String.raw`anyway|anyhow|honestly`;
/** Words before which "you know" and "I mean" are the verb itself ("do you know", "let you know", "what I mean"). */
const VERB_BEFORE = String.raw`(?<!\b(?:do|did|does|don['’]t|didn['’]t|doesn['’]t|if|let|will|would|to|what|how|that|as|whether|I)\s+)`;
/** Where a clause opens: the text's start, a stop, a comma, or "and" / "but". */
const OPENS = String.raw`(^|[.!?;:]\s+|,\s*|\b(?:and|but)\s+)`;
/** A subject a clause opens with, unpunctuated speech: "i said by the way i'm allergic". */
const SUBJECT = String.raw`(?:I|I['’](?:m|ve|ll|d)|we|we['’](?:re|ve|ll|d)|my|our|he|she|they|he['’]s|she['’]s|they['’]re|it['’]s)\b`;

const OPENING = new RegExp(String.raw`${OPENS}(?:${TAG}|${ADVERB_TAG})\b(?:\s*,)?\s*(?=\S)(?!it\b)`, 'gi');
const BEFORE_SUBJECT = new RegExp(String.raw`(\S)\s+${VERB_BEFORE}(?:${TAG})\s+(?=${SUBJECT})`, 'gi');
/** Hedges said after what they hedge ("I'm a good listener, I guess"): tags where they close a clause, verbs elsewhere. */
const HEDGE = String.raw`I\s+guess|I\s+suppose`;
/** Verbs "honestly" tells how one did ("she answered honestly"): after them it is an adverb, not a tag. */
const HONESTLY_VERB = String.raw`(?<!\b(?:\w+ed|answer|speak|spoke|say|said|tell|told|talk|act|live|play|deal|dealt|behave|write|wrote)\s+)`;
const CLOSING = new RegExp(String.raw`(?:,\s*(?:${TAG}|${ADVERB_TAG}|${HEDGE})|\s+${VERB_BEFORE}(?:${TAG}|${HEDGE})|\s+${HONESTLY_VERB}honestly)\s*(?=[,;]|[.!?]*\s*$)`, 'gi');

/**
 * "no dora i said i'm allergic to peanuts": a correction said again, its lead ("no", the name called, "I said") no part
 * of what it tells. Only before a first-person clause: "I said I would help" reports a promise and stays.
 */
const SAID_AGAIN = /^(?:no|nope)\b,?\s*(?:[a-z]+\s*,?\s+)?I\s+said,?\s+(?=I['’]m\b|I\s+am\b)/i;

/** `text` without the discourse tags that open or close its clauses; the rest as said. */
export function withoutDiscourseTags(text: string): string {
  let out = text;
  // Tags said one after another ("so yeah, to be honest, I…") go one per pass.
  for (let pass = 0; pass < 3; pass++) {
    const next = out.replace(SAID_AGAIN, '').replace(OPENING, '$1').replace(BEFORE_SUBJECT, '$1 ').replace(CLOSING, '');
    if (next === out) break;
    out = next;
  }
  // "I moved there, you know.": the stop stays; a clause left empty leaves no comma behind.
  return out.replace(/^[\s,]+/, '').replace(/,\s*([,.!?;])/g, '$1').replace(/\s{2,}/g, ' ').trim();
}

/**
 * Words that open a sentence before what it tells ("Well, …", "Oh and also …", "Plus, …", "Heads up, …"): no part of a
 * fact written from it. One list for every rule that writes a sentence as a fact (trial12 F17: "Also, Ana is allergic to
 * penicillin" kept the "Also" the statement rule left out, as each rule had a list of its own).
 */
const LEADING_WORDS = /^(?:(?:well|so|yeah|yes|oh|ok|okay|actually|honestly|and|but|also|plus|anyway|heads up|by the way|btw|just so you know|fyi)\b[\s,]*)+/i;

/** `said` without the words that open it before what it tells ({@link LEADING_WORDS}) and the stops that end it. */
export function withoutLeadingWords(said: string): string {
  return said.replace(/[.!]+$/, '').replace(LEADING_WORDS, '');
}
