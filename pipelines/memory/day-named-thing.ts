/**
 * A thing named by its day: "cancel my Thursday cleaning", "our Saturday dinner reservation", "my Friday morning yoga
 * class" (trial12 F11, a dental front desk). The day stood inside the noun phrase, so the date was written there ("…cancel
 * Maria Gomez's on Thursday 10 December 2026 cleaning") and the thing was lost to what the plan is about (no object).
 * Said as "my cleaning on Thursday", every rule reads it as that sentence already is.
 */
import type { Wink } from '../wink.js';
import { givenNamePrevalence } from '../speaker/given-names.js';
import { isApposedName } from './relation-apposition.js';
import { WEEKDAY_NAME } from './months.js';

const WEEKDAY = new RegExp(`^${WEEKDAY_NAME}$`, 'i');
/** A weekday's name anywhere in a text. */
const WEEKDAY_WORD = new RegExp(String.raw`\b${WEEKDAY_NAME}\b`, 'i');
const PART_OF_DAY = /^(?:morning|afternoon|evening|night)$/i;
/** What may name the thing: a possessive or "the" ("this Friday's…" and "next Friday's…" say which week: left as said). */
const OWNER = /^(?:my|our|your|his|her|their|the)$/i;

interface Tok { word: string; pos: string; space: string }

/**
 * True when `t`, at place `k` of the phrase after the day, is a word of the thing: a noun or adjective, or a first "-ing"
 * word; never a name or a title's word ("the Sunday Times", "the Friday Maria called", a recogniser's "the friday ben
 * called": `text` tells its case), which a name may only qualify ("my appointment with Dr Lee").
 */
function thingWord(t: Tok, k: number, text: string): boolean {
  if (WEEKDAY.test(t.word) || PART_OF_DAY.test(t.word) || t.pos === 'PROPN' || isApposedName(t.word, text)) return false;
  // "my Thursday cleaning": the tagger reads "cleaning" as a verb.
  return ['NOUN', 'ADJ'].includes(t.pos) || (k === 0 && t.pos === 'VERB' && /ing$/i.test(t.word));
}

/** A possessive: only after one may a name qualify the thing ("my Friday Pilates class"; "the Sunday Times crossword" is a title's). */
const POSSESSIVE = /^(?:my|our|your|his|her|their)$/i;

/**
 * Where the thing named by its day, starting at `j` after the owner `owner`, ends: its words (`thingWord`); after a
 * possessive, a name that is no listed given name (a person's) may open it where a common noun follows ("my Friday Pilates class" is
 * the Pilates class on Friday, rules 76; "my Friday Maria called" names no thing).
 */
function thingEnd(toks: readonly Tok[], j: number, owner: string, text: string): number {
  let k = j;
  const name = (t: Tok | undefined): boolean => t?.pos === 'PROPN' && !WEEKDAY.test(t.word) && !PART_OF_DAY.test(t.word) && givenNamePrevalence(t.word.toLowerCase()) === 0;
  if (POSSESSIVE.test(owner)) while (name(toks[k])) k++;
  if (k > j && !(toks[k]?.pos === 'NOUN' && thingWord(toks[k]!, k - j, text))) k = j;
  let end = k;
  while (toks[end] && thingWord(toks[end]!, end - j, text)) end++;
  return end === k ? j : end;
}

/** A phrase that says which thing ("the class **in watercolour**", "my appointment **with Dr Lee**") is part of it. */
const QUALIFIER = /^(?:in|of|with|for)$/i;

/** Where the thing ending at `end` ends with its qualifier: the day goes after it ("the class in watercolour on Saturday"). */
function afterQualifier(toks: readonly Tok[], end: number): number {
  if (!QUALIFIER.test(toks[end]?.word ?? '')) return end;
  let k = end + 1;
  while (toks[k] && ['DET', 'ADJ', 'NOUN', 'PROPN'].includes(toks[k]!.pos) && !WEEKDAY.test(toks[k]!.word)) k++;
  return k > end + 1 && ['NOUN', 'PROPN'].includes(toks[k - 1]!.pos) ? k : end;
}

/**
 * `text` with each day named before a thing, after a possessive or "the", said after it ("my Thursday cleaning" → "my
 * cleaning on Thursday", "the Friday morning class" → "the class on Friday morning", "the Saturday class in watercolour"
 * → "the class in watercolour on Saturday"); unchanged where no thing follows the day ("My Sunday was great").
 */
export function withDayAfterThing(nlp: Wink, text: string): string {
  if (!WEEKDAY_WORD.test(text)) return text;
  const t = nlp.readDoc(text).tokens();
  const words = t.out();
  const pos = t.out(nlp.its.pos);
  const spaces = t.out(nlp.its.precedingSpaces);
  const toks: Tok[] = words.map((word, i) => ({ word, pos: pos[i] ?? '', space: spaces[i] ?? '' }));
  let changed = false;
  for (let i = 1; i < toks.length; i++) {
    if (!WEEKDAY.test(toks[i]!.word) || !OWNER.test(toks[i - 1]!.word)) continue;
    let j = i + 1;
    if (/^['’]s$/.test(toks[j]?.word ?? '')) j++;
    if (toks[j] && PART_OF_DAY.test(toks[j]!.word)) j++;
    let end = thingEnd(toks, j, toks[i - 1]!.word, text);
    if (end === j) continue;
    end = afterQualifier(toks, end);
    const day = toks.slice(i, j).filter((d) => !/^['’]s$/.test(d.word)).map((d, k) => (k === 0 ? d.word : ` ${d.word}`)).join('');
    const thing = toks.slice(j, end).map((d, k) => ({ ...d, space: k === 0 ? toks[i]!.space : d.space }));
    toks.splice(i, end - i, ...thing, { word: 'on', pos: 'ADP', space: ' ' }, { word: day, pos: 'PROPN', space: ' ' });
    i += thing.length + 1;
    changed = true;
  }
  return changed ? toks.map((d, k) => (k === 0 ? '' : d.space) + d.word).join('') : text;
}
