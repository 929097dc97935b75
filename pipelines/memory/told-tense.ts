/**
 * The tense a sentence or one of its clauses is told in (split from relative-date.ts, rules 43, no change of behaviour):
 * told of the past (`toldAsPast`), an act just done (`toldJustDone`), in the perfect (`toldInPerfect`), whether a clause
 * has a verb of its own (`hasVerb`) and the clause around a word (`clauseAround`). Dates are read by relative-date.ts,
 * which asks these whether a date lies behind.
 */
import { wink } from '../wink.js';
import { aheadFromPast } from './ahead-from-past.js';
import { LOOKS_AHEAD } from './plan-cues.js';
import { MONTH_SAID, WEEKDAY_NAME } from './months.js';

/**
 * Present forms whose lemma differs from the word though they tell of now: "be", and the stems wink splits off
 * "can't", "won't" and "shan't" ("ca", "wo", "sha").
 */
const PRESENT_FORMS = new Set(['am', 'are', 'is', "'m", "'re", "'s", 'be', 'ca', 'wo', 'sha']);
/** Present forms of "be" before a participle ("is closed", "I'm tied up": wink may keep "I'm" one word). */
const PRESENT_BE = /^(?:am|are|is)$|['’](?:m|re|s)$/i;
/**
 * A verb whose past form is its lemma ("quit", "cut", "hurt", "split", "shut") straight after a pronoun subject, with no
 * auxiliary or modal between ("i quit tesco in may", "we split up in june"): told of the past, as wink's tags cannot say
 * (rules 42: said in December, "in may" was read as May to come; a noun phrase subject, rules 43:
 * `NOUN_SUBJECT_SAME_FORM_PAST`). "I'll quit", "I want to quit" have a word between; "he quits" is a present form.
 */
const SAME_FORM_PAST = /\b(?:I|we|they|he|she)\s+(?:just\s+|finally\s+|already\s+|actually\s+)?(?:quit|cut|hurt|split|shut)\b/i;
/** Words that are no part of a noun phrase subject: an auxiliary, a modal, "to", a negation ("the bus will quit"). */
const NOT_SUBJECT_WORD = String.raw`(?:will|would|can|could|should|shall|might|must|may|to|do|does|did|has|have|had|is|are|was|were|be|been|`
  + String.raw`never|not|wants?|going|gonna|wanna|just|finally|already|actually)\b`;
/** Sentence openers that are no name ("Then quit…", "Please cut…"). */
const NOT_NAME = String.raw`(?:Then|Just|Maybe|Please|Never|Always|Don|Do|Did|Will|Should|Could|Would|Might|Must|Can|Let|So|And|But|Or|Also|`
  + String.raw`Well|Okay|Ok|Oh|Yes|No|Now|Soon|Finally|Actually|If|When|Once)\b`;
/**
 * The same verbs after a noun phrase subject with no auxiliary between ("my sister quit in May", "Tom quit his job in May",
 * "the company shut down in May"; rules 43): told of the past too. A present form would be "quits" for one person.
 */
const NOUN_SUBJECT_SAME_FORM_PAST = new RegExp(String.raw`(?:^|[,;:]\s*|\b(?:and|but|so|because|when)\s+)(?:(?:[Mm]y|[Hh]is|[Hh]er|[Oo]ur|[Tt]heir|[Yy]our|[Tt]he)`
  + String.raw`(?:\s+(?!${NOT_SUBJECT_WORD})[a-z]+){1,3}|(?!${NOT_NAME})[A-Z][a-z]+)\s+(?:just\s+|finally\s+|already\s+|actually\s+)?(?:quit|cut|hurt|split|shut)\b`);
/** A month, a weekday, a part of the day or a date number: what may follow the words of a time ("Sunday morning", "May 5"). */
const TIME_GOES_ON = String.raw`(?:${WEEKDAY_NAME}|${MONTH_SAID}|`
  + String.raw`today|tonight|tomorrow|morning|afternoon|evening|night|\d|o['’]clock|[ap]\.?m\b)`;
/**
 * Where the words of a time end (rules 74): at the end of the sentence or clause, before a word that begins a new part
 * ("at 3", "because", "instead") or where the time goes on ("Sunday morning", "the end of the month"). Not before a noun:
 * "12 Oak Street", "the night shift", "the 5th floor", "Spring Street", "the end of the road" are places.
 */
const TIME_ENDS = String.raw`(?=\s*(?:[.,;:!?)]|$)|\s+(?:${TIME_GOES_ON}|of\s+(?:the\s+)?(?:(?:next|this|that)\s+)?(?:week|month|year|term|season|${TIME_GOES_ON})|`
  + String.raw`(?:at|in|on|by|from|for|and|or|but|so|because|instead|now|then|as|when|since|after|before|until|till|if|again|too|rather|`
  + String.raw`this|next|with|without|which|while|though|although|due|thanks|to|the|a|an|i|we|he|she|they|it|you)\b))`;
/**
 * A time a thing is moved to, not a place (rules 72): a day, a month, a part of the day or year, a number, "later", "the
 * end of…" ("moved to Sunday", "postponed till next week", "moved to the 12th"; not "moved to Leeds", "moved to the city").
 */
const A_TIME = String.raw`(?:on\s+)?(?:the\s+)?(?:(?:next|this|coming|following|same|early|late|mid)[\s-]+)?(?:${WEEKDAY_NAME}|`
  + String.raw`${MONTH_SAID}|`
  + String.raw`today|tonight|tomorrow|later|\d+(?:st|nd|rd|th)?|week|weekend|month|year|morning|afternoon|evening|night|noon|midday|midnight|`
  + String.raw`spring|summer|autumn|fall|winter|end|start|beginning|middle|day\s+after)\b${TIME_ENDS}`;
/**
 * Words that look ahead besides a modal (`LOOKS_AHEAD`): a sentence with one is not read as told of the past. A thing
 * moved to a time ("the match was moved to Sunday", `A_TIME`; a person moved to a place, "I moved to Leeds in May", is
 * past: rules 72) or to a weekday in the active ("we moved it to Sunday", fix9) is a move ahead too, and a wish told with
 * "'d" ("I'd like to book a repair on Tuesday": "'d" is "would", not a past "had"; trial11 F2).
 */
const AHEAD_WORD = new RegExp(String.raw`\b(?:won['’]t|next|tomorrow|soon)\b|['’]d\s+(?:like|love|prefer)\s+to\b|\b(?:moved|rescheduled|postponed|pushed back|brought forward|put back) (?:to|till|until)\s+${A_TIME}|\b(?:moved|rescheduled|postponed|pushed|brought|put|changed|switched|shifted|bumped)\s+(?:it|that|this|them|(?:the|our|my)\s+[\w'’-]+)\s+(?:back\s+|forward\s+)?(?:to|till|until)\s+(?:on\s+)?(?:next\s+|this\s+|the\s+)?${WEEKDAY_NAME}\b`, 'i');

/**
 * True when `text` tells of the past: a verb in a past form ("went", "got", "have been": a verb or auxiliary whose
 * form is not its lemma, not a present "-s" or "-ing" form, nor "am / is / are") and no word that looks ahead.
 * Then a date it names lies behind ("we went camping in May", said in July: this May).
 */
export function toldAsPast(text: string): boolean {
  // "Dan promised me he would fix it by Tuesday": a past verb that looks ahead (rules 39).
  if (LOOKS_AHEAD.test(text) || AHEAD_WORD.test(text) || aheadFromPast(text)) return false;
  // "i quit tesco in may": a verb whose past is its lemma, straight after its subject (rules 42).
  if (SAME_FORM_PAST.test(text) || NOUN_SUBJECT_SAME_FORM_PAST.test(text)) return true;
  const nlp = wink();
  const doc = nlp.readDoc(text);
  const words = doc.tokens().out() as string[];
  const pos = doc.tokens().out(nlp.its.pos) as string[];
  const lemmas = doc.tokens().out(nlp.its.lemma as unknown as typeof nlp.its.value) as string[];
  // "I've got a match on Saturday", "he's got a dentist appointment": possession now, not a past act.
  const hasGot = (i: number): boolean => (/^(?:have|has|['’]ve|['’]s)$/i.test(words[i] ?? '') && /^got$/i.test(words[i + 1] ?? ''))
    || (/^got$/i.test(words[i] ?? '') && /^(?:have|has|['’]ve|['’]s)$/i.test(words[i - 1] ?? ''));
  // "is closed", "'m tied up", "are booked": a participle after a present "be" tells of a state now, not a past act.
  const afterPresentBe = (i: number): boolean => (words[i] ?? '').toLowerCase() !== 'been' && pos[i - 1] !== 'PUNCT'
    && [i - 1, i - 2].some((j) => j >= 0 && PRESENT_BE.test(words[j] ?? ''));
  return words.some((w, i) => {
    const word = w.toLowerCase();
    return (pos[i] === 'VERB' || pos[i] === 'AUX') && word !== lemmas[i] && !PRESENT_FORMS.has(word) && (!/(?:s|ing)$/.test(word) || word === 'was')
      && !hasGot(i) && !afterPresentBe(i) && !saturday(words, i);
  });
}

/** Words before a weekday ("on Sat", "this Sat", "till Sat"): "Sat" after them is Saturday, not the verb "sat". */
const BEFORE_DAY = /^(?:on|this|next|coming|last|by|until|till|from|to|before|after|every)$/i;

/**
 * True when `words[i]`, "Sat", is Saturday ("I'm off on Sat.", "free this Sat", "Tom is coming Sat."), not the past of "sit"
 * (rules 111 after review, H2): after a word that places a day, or with its capital inside the sentence.
 */
function saturday(words: string[], i: number): boolean {
  return /^sat$/i.test(words[i] ?? '') && (BEFORE_DAY.test(words[i - 1] ?? '') || (words[i] === 'Sat' && i > 0 && !/^[.!?]$/.test(words[i - 1] ?? '')));
}

/** "I just got…", "we've just finished…": `toldAsPast` then reads the verb after "just". */
const JUST = /\bjust\s+(?=\w)/i;

/** True when `sentence` tells of an act just done ("I just got accepted", "we've just finished it"; not "it's just a hobby"). */
export function toldJustDone(sentence: string): boolean {
  const m = JUST.exec(sentence);
  return m !== null && toldAsPast(sentence.slice(m.index));
}

/** True when `text` has a verb of its own (a finite clause, not "on Tuesday"); "I'm", which wink may keep one word, counts. */
export function hasVerb(text: string): boolean {
  const nlp = wink();
  const tokens = nlp.readDoc(text).tokens();
  const words = tokens.out() as string[];
  return tokens.out(nlp.its.pos).some((p, i) => p === 'VERB' || p === 'AUX' || /\w['’](?:m|re|ve|ll|d)$/i.test(words[i] ?? ''));
}

/** Where one clause ends and the next begins: punctuation, a dash (a hyphen with spaces around it), or a joining word. */
export const CLAUSE_BREAK = /[,;:!?.]|\s*[–—]\s+|\s-\s|\b(?:so|and|but|because|while|since|although|though|when|after|before)\b/gi;

/**
 * The clause of `text` that holds the character at `index`, to read a date phrase's tense from: the words between the
 * clause breaks around it (punctuation, a dash, or a joining word: "so", "and", "but", "because", "while",
 * "since", "although", "though", "when", "after", "before"); a break that starts at `index` ends the clause before it.
 * When that clause has no verb of its own ("I called her, on Tuesday": "on Tuesday" is no clause) or the sentence is
 * one clause, the whole of `text`.
 */
export function clauseAround(text: string, index: number): string {
  let start = 0;
  let end = text.length;
  for (const m of text.matchAll(CLAUSE_BREAK)) {
    const at = m.index ?? 0;
    if (at + m[0].length <= index) start = at + m[0].length;
    else if (at >= index) { end = at; break; }
  }
  const clause = text.slice(start, end);
  return clause.length < text.length && hasVerb(clause) ? clause : text;
}

/** "have / has / 've / 's" then, within two words ("have always been"), a past participle: the perfect. */
export function toldInPerfect(clause: string): boolean {
  const nlp = wink();
  const doc = nlp.readDoc(clause);
  const words = (doc.tokens().out() as string[]).map((w) => w.toLowerCase());
  const pos = doc.tokens().out(nlp.its.pos) as string[];
  const lemmas = doc.tokens().out(nlp.its.lemma as unknown as typeof nlp.its.value) as string[];
  return words.some((w, i) => /^(?:have|has|['’]ve|['’]s)$/.test(w) && pos[i] === 'AUX' && [i + 1, i + 2].some((j) => {
    const v = words[j];
    return v !== undefined && (pos[j] === 'VERB' || pos[j] === 'AUX') && v !== lemmas[j] && !/(?:s|ing)$/.test(v);
  }));
}
