/**
 * Sentences that carry a plan in a clause of their own, read as sentences of their own: "The plumber sent me a quote,
 * I'll forward it to my landlord" is a report ("The plumber sent me a quote.") and a plan whose "it" is the report's
 * quote ("I'll forward the quote to my landlord."); "I'll check the boiler and ring the landlord" is two plans. Each
 * plan then names what it is about, and an outcome that names it ("I forwarded the plumber's quote") settles it.
 */
import type { Wink } from '../wink.js';
import { defaultWordNet } from '../retrieval/wordnet.js';
import { PEOPLE, SERVICE_PEOPLE, namedClauseShape, reportsEvent } from './grammar.js';
import { findDates } from './relative-date.js';
import { toldAsPast } from './told-tense.js';
import { WEEKDAY_NAME } from './months.js';

/** A first-person plan at a clause start: "I'll", "I need to", "we're going to". */
const PLAN_START = String.raw`(?:I|we)(?:['’]ll|\s+will|\s+(?:need|have|want|plan)\s+to|\s+(?:have|['’]ve)\s+got\s+to|\s+must|\s+should|(?:['’]m|\s+am|['’]re|\s+are)\s+going\s+to)\b`;
/** Where a plan clause starts after a clause of its own: after , ; or "and / so / but / then". */
const PLAN_CLAUSE = new RegExp(String.raw`(?:\s*[,;]\s*(?:(?:and|so|but|then)\s+)?|\s+(?:and|so|but|then)\s+)(?=${PLAN_START})`, 'g');
/**
 * Where a clause telling a value of the speaker's own starts after a clause of its own: after , or ; ("I just moved to
 * Oakland, my new number is 555 0123"; rules 87): only a new or current value, so "I am out on Friday, my sister is
 * getting married" stays one sentence (its reason kept with the absence).
 */
const OWN_VALUE_CLAUSE = /\s*[,;]\s*(?:and\s+)?(?=my\s+(?:new|current)\s+[a-z]+(?:\s+[a-z]+)?\s+(?:is|are)\s)/gi;
/**
 * A clause opening with a subordinator ("Since I started at Google, …", "When you get a chance, …"): the setting of the
 * value after it, never glued to it nor a fact as it stands (rules 93, 95).
 */
const SUBORDINATE_OPENING = /^\s*(?:(?:well|so|and|actually|oh),?\s+)*(?:since|because|when|whenever|if|after|before|while|once|as|although|though|until|till|unless|now\s+that)\s+/i;
/** A subordinator that tells of an act done ("since / because / now that / when I moved…"): the act is a fact too. */
const ACT_DONE_OPENING = /^\s*(?:(?:well|so|and|actually|oh),?\s+)*(?:since|because|when|after|as|now\s+that)\s+(?=(?:I|we)\s)/i;
/** The plan's own words before its action: "I'll", "I need to", "we're going to". */
const PLAN_PREFIX = new RegExp(String.raw`^(?:(?:well|so|ok|okay|actually|and|then),?\s+)*${PLAN_START}\s+`, 'i');
/** Words that date or size an action: no antecedent of "it". */
const NOT_THINGS = new RegExp(String.raw`^(?:${WEEKDAY_NAME}|today|tomorrow|tonight|yesterday|morning|afternoon|evening|night|week|weekend|month|year|time|day|moment|minute|hour|lot|bit|thing|way)$`, 'i');

interface Tok { word: string; pos: string; lemma: string; space: string }

/** A noun phrase of a clause: its words, and whether its head names a person, is plural, follows a preposition. */
interface NounPhrase { text: string; person: boolean; plural: boolean; afterPreposition: boolean }

function tokens(nlp: Wink, text: string): Tok[] {
  const t = nlp.readDoc(text).tokens();
  const words = t.out();
  const pos = t.out(nlp.its.pos);
  const lemmas = t.out(nlp.its.lemma as unknown as typeof nlp.its.value);
  const spaces = t.out(nlp.its.precedingSpaces);
  const toks = words.map((word, i) => ({ word, pos: pos[i] ?? '', lemma: (lemmas[i] ?? word).toLowerCase(), space: spaces[i] ?? ' ' }));
  // "his drill", "the cake": a word tagged a verb right after a determiner or a possessive is a noun.
  toks.forEach((t, i) => { if (t.pos === 'VERB' && i > 0 && (toks[i - 1]!.pos === 'DET' || POSSESSIVE.test(toks[i - 1]!.word))) t.pos = 'NOUN'; });
  return toks;
}

/**
 * True when the token is a verb in its base form: tagged so, or a word WordNet lists as a verb that the tagger read
 * otherwise before an object ("clean the windows", "forward it").
 */
function baseVerb(t: Tok | undefined, next: Tok | undefined): boolean {
  if (!t || t.word.toLowerCase() !== t.lemma) return false;
  if (t.pos === 'VERB') return true;
  return ['ADJ', 'ADV', 'NOUN'].includes(t.pos) && next !== undefined && (next.pos === 'DET' || next.pos === 'PRON')
    && defaultWordNet().baseForms(t.lemma, 'verb').includes(t.lemma);
}

const join = (toks: Tok[]): string => toks.map((t, i) => (i === 0 ? '' : t.space) + t.word).join('');
const POSSESSIVE = /^(?:my|your|our|his|her|their|its)$/i;
const phraseWord = (t: Tok): boolean => ['DET', 'ADJ', 'NOUN', 'PROPN', 'NUM'].includes(t.pos)
  || (t.pos === 'PRON' && POSSESSIVE.test(t.word)) || /^['’]s$/.test(t.word);

/**
 * Noun phrases of a clause, in order: a run of determiners, possessives, adjectives and nouns with a noun last, taking
 * in an "of / for / from" phrase after it ("the form for the school trip").
 */
function nounPhrases(toks: Tok[]): NounPhrase[] {
  const out: NounPhrase[] = [];
  for (let i = 0; i < toks.length; ) {
    if (!phraseWord(toks[i]!)) { i++; continue; }
    let j = i;
    while (j < toks.length && phraseWord(toks[j]!)) j++;
    let head = j - 1;
    while (head >= i && !['NOUN', 'PROPN'].includes(toks[head]!.pos)) head--;
    if (head < i) { i = j; continue; }
    let end = head + 1;
    // "the form for the school trip": the phrase after it says which one.
    if (/^(?:of|for|from)$/i.test(toks[end]?.word ?? '') && toks[end + 1] && phraseWord(toks[end + 1]!)) {
      let k = end + 1;
      while (k < toks.length && phraseWord(toks[k]!)) k++;
      if (['NOUN', 'PROPN'].includes(toks[k - 1]!.pos)) end = k;
    }
    const h = toks[head]!;
    if (!NOT_THINGS.test(h.lemma)) {
      out.push({
        text: join(toks.slice(i, end)),
        person: h.pos === 'PROPN' || PEOPLE.has(h.lemma) || SERVICE_PEOPLE.has(h.lemma),
        plural: h.word.toLowerCase() !== h.lemma && /s$/i.test(h.word),
        afterPreposition: toks[i - 1]?.pos === 'ADP',
      });
    }
    i = Math.max(end, j);
  }
  return out;
}

/** What an object pronoun stands for among the phrases before it: "her" / "him" a person, "it" a thing, "them" a plural. */
function antecedent(pronoun: string, phrases: NounPhrase[]): NounPhrase | null {
  const p = pronoun.toLowerCase();
  const fits = phrases.filter((n) => (p === 'it' ? !n.person && !n.plural : p === 'them' ? n.plural : n.person && !n.plural));
  // A subject or object before a phrase after a preposition ("the form for the school trip", not "the trip").
  const main = fits.filter((n) => !n.afterPreposition);
  return main[main.length - 1] ?? fits[fits.length - 1] ?? null;
}

/** The phrase as it stands in for a pronoun: "a quote" -> "the quote"; "My aunt" -> "my aunt". */
function definite(n: NounPhrase): string {
  const text = n.text.replace(/^(?:a|an|some)\s+/i, 'the ');
  return /^(?:The|My|Your|Our|His|Her|Their)\b/.test(text) ? text[0]!.toLowerCase() + text.slice(1) : text;
}

/**
 * The plan clause with its object pronoun ("forward it", "call her back", "reply to it") replaced by what it stands for
 * in the clauses before it; unchanged when no phrase there fits.
 */
function resolveObject(nlp: Wink, plan: string, before: string): string {
  const toks = tokens(nlp, plan);
  const at = toks.findIndex((t, i) => i > 0 && /^(?:it|them|her|him)$/i.test(t.word)
    && (['VERB', 'ADP'].includes(toks[i - 1]!.pos) || baseVerb(toks[i - 1], t))
    // "her" before a noun is her own thing ("call her mum"), no object.
    && !(t.word.toLowerCase() === 'her' && ['NOUN', 'PROPN', 'ADJ'].includes(toks[i + 1]?.pos ?? '')));
  if (at < 0) return plan;
  const found = antecedent(toks[at]!.word, nounPhrases(tokens(nlp, before)));
  if (!found) return plan;
  return join([...toks.slice(0, at), { ...toks[at]!, word: definite(found) }, ...toks.slice(at + 1)]);
}

/** "I'll check the boiler settings and ring the landlord" -> "I'll check the boiler settings.", "I'll ring the landlord.". */
function joinedPlans(nlp: Wink, clause: string): string[] {
  const prefix = PLAN_PREFIX.exec(clause);
  if (!prefix) return [clause];
  // Tagged with the plan's own words before it: alone, "check the boiler" reads as a noun.
  const rest = tokens(nlp, clause).slice(tokens(nlp, prefix[0].trim()).length);
  // The first action takes an object of its own ("check the boiler settings", not "come and see"), and the second starts
  // with a verb in its base form after "and".
  if (!baseVerb(rest[0], rest[1])) return [clause];
  for (let i = 2; i < rest.length - 1; i++) {
    if (rest[i]!.word.toLowerCase() !== 'and' || !baseVerb(rest[i + 1], rest[i + 2])) continue;
    if (!rest.slice(1, i).some((t) => t.pos === 'NOUN' || t.pos === 'PROPN')) return [clause];
    const lead = prefix[0];
    return [`${lead}${join(rest.slice(0, i)).replace(/[,\s]+$/, '')}.`, `${lead}${join(rest.slice(i + 1))}`];
  }
  return [clause];
}

/**
 * True when the token is a verb said of a subject before it, as one person's clause carries it: an auxiliary ("is",
 * "has", "will"), or a verb in the third person or the past ("wants", "moved", "bought"; "lives", WordNet's verb read
 * where the tagger took it for a noun), never a bare form or a gerund ("I let Ana and Ben decide", "I saw Ana and Ben dancing").
 */
function verbOfSubject(t: Tok | undefined): boolean {
  if (!t || !/^[a-z]+$/i.test(t.word)) return false;
  if (t.pos === 'AUX') return true;
  const w = t.word.toLowerCase();
  if (/ing$/.test(w)) return false;
  if (t.pos === 'VERB') return w !== t.lemma;
  return t.pos === 'NOUN' && /s$/.test(w) && defaultWordNet().baseForms(w, 'verb').length > 0;
}

/**
 * The head noun of the object of the clause before ("a big house" in "Liam has a big house in the city", "slice" in "a
 * big slice of cake"): the last noun of the words after the verb, up to the first word no noun phrase carries (a
 * preposition, a conjunction); null when that object names no one thing.
 */
function objectHead(before: Tok[]): Tok | null {
  const verb = before.findIndex((t, k) => k > 0 && (verbOfSubject(t) || t.pos === 'VERB'));
  if (verb < 0) return null;
  let k = verb + 1;
  while (['VERB', 'AUX', 'PART'].includes(before[k]?.pos ?? '')) k++;
  let head: Tok | null = null;
  for (; k < before.length; k++) {
    const t = before[k]!;
    if (t.pos === 'NOUN') head = t;
    else if (head || !(['DET', 'ADJ', 'NUM'].includes(t.pos) || POSSESSIVE.test(t.word))) break;
  }
  return head && head.word.toLowerCase() === head.lemma && !PEOPLE.has(head.lemma) && !NOT_THINGS.test(head.lemma) ? head : null;
}

/**
 * "Ava wants the green one" after "Liam wants the blue logo": a bare "one" after an adjective stands for the head noun of
 * the object before it ("the green logo"; rules 103: "a small one" after "a big house in the city" is a small house);
 * null when that object names no one thing (the sentence is then kept whole).
 */
function withOneNamed(clause: Tok[], before: Tok[]): Tok[] | null {
  const at = clause.findIndex((t, i) => /^one$/i.test(t.word) && clause[i - 1]?.pos === 'ADJ' && !['NOUN', 'PROPN', 'ADP'].includes(clause[i + 1]?.pos ?? ''));
  if (at < 0) return clause;
  const head = objectHead(before);
  return head ? [...clause.slice(0, at), { ...clause[at]!, word: head.word, pos: 'NOUN' }, ...clause.slice(at + 1)] : null;
}

/**
 * "Ben ordered 2" after "I ordered 3 pizzas": a count ending the clause counts the thing the clause before counted ("Ben
 * ordered 2 pizzas"); null when the clause before counts none (the clause is then no sentence of its own).
 */
function withCountNamed(clause: Tok[], before: Tok[]): Tok[] | null {
  const words = clause.filter((t) => t.pos !== 'PUNCT');
  if (words[words.length - 1]?.pos !== 'NUM') return clause;
  const counted = before.findIndex((t, k) => t.pos === 'NUM' && before[k + 1]?.pos === 'NOUN');
  if (counted < 0) return null;
  const at = clause.lastIndexOf(words[words.length - 1]!);
  return [...clause.slice(0, at + 1), { ...before[counted + 1]!, space: ' ' }, ...clause.slice(at + 1)];
}

/** Any instant: whether a clause says a day or a time at all, not which. */
const DATE_REFERENCE = '2026-01-01T12:00:00.000Z';

/** Words that open a clause inside another ("because", "although", "if"…): two people's clauses after one are its parts. */
const SUBORDINATOR = /^(?:because|although|though|while|whilst|if|when|whenever|since|unless|whereas|until|till|once|cos|cause)$/i;
/** Verbs that report or hold a clause ("I think Liam likes tea…", "Liam said he likes tea…"): the clauses after are what is said. */
const REPORTING = new Set(['think', 'say', 'tell', 'believe', 'know', 'hear', 'hope', 'guess', 'reckon', 'mention', 'suppose', 'expect', 'claim', 'feel', 'doubt', 'bet']);

/**
 * True when a clause tells a fact alone, as the rules read a sentence: a first-person clause of four words or more (the
 * statement the speaker said), else an event with a subject of its own (`reportsEvent`) of four words or more or a
 * name's clause of three ("Liam likes tea"; `namedClauseShape`). "Liam got promoted", "Liam is here", "Ava earns 60k"
 * are none.
 */
function toldAlone(nlp: Wink, clause: string): boolean {
  // Words as the rules count them, between spaces ("50k" one word).
  const said = clause.replace(/[.!]+$/, '');
  const words = said.split(/\s+/);
  if (/^(?:I|we|my|our)$/i.test(words[0] ?? '')) return words.length >= 4;
  if (!reportsEvent(nlp, clause)) return false;
  return words.length >= 4 || namedClauseShape(words, tokens(nlp, said).map((t) => t.pos));
}

/**
 * "Liam wants the blue logo and Ava wants the green one", "Ana lives in Porto and Ben lives in Lyon": two people's
 * clauses joined by "and", each a sentence of its own (rules 99): the second opens with a capitalised name and a verb
 * said of it, the first has a subject and a verb of its own. "Liam and Ava want the blue logo" (one subject) and "Liam
 * wants the logo and the slides" (one verb) stay one; so does a question. Null when none applies.
 */
function peoplesClauses(nlp: Wink, sentence: string): string[] | null {
  if (/\?\s*$/.test(sentence)) return null;
  const toks = tokens(nlp, sentence);
  for (let i = 2; i < toks.length - 2; i++) {
    if (toks[i]!.word.toLowerCase() !== 'and') continue;
    const name = toks[i + 1]!;
    if (name.pos !== 'PROPN' || !/^\p{Lu}/u.test(name.word)) continue;
    // A name of one or two words ("Ava", "Ava Chen"), then its verb.
    const verbAt = toks[i + 2]?.pos === 'PROPN' && /^\p{Lu}/u.test(toks[i + 2]!.word) ? i + 3 : i + 2;
    if (!verbOfSubject(toks[verbAt])) continue;
    const before = toks.slice(0, i).filter((t) => t.word !== ',');
    // "Liam wants…", "my sister lives…", "I like…": a subject, then its verb.
    const subjectThenVerb = before.some((t, k) => k > 0 && ['PROPN', 'PRON', 'NOUN'].includes(before[k - 1]!.pos)
      && (verbOfSubject(t) || (t.pos === 'VERB' && /^(?:I|we|you|they)$/i.test(before[k - 1]!.word))));
    // A clause too short to be told alone ("I met Ana and Ben called me later": "I met Ana") keeps the sentence whole; a
    // name's clause of three words is one ("Liam likes tea"; embedded-rules.ts `namedClause`).
    const words = before.filter((t) => t.pos !== 'PUNCT').length;
    if (!subjectThenVerb || words < 3 || (words < 4 && before[0]!.pos !== 'PROPN')) continue;
    // "Because Liam was sick and Ava was away, we cancelled the trip", "I think Liam likes tea and Ava likes coffee": the
    // two clauses are one clause's parts, kept whole (rules 103).
    if (before.some((t, k) => SUBORDINATOR.test(t.word) || t.pos === 'SCONJ' || (REPORTING.has(t.lemma) && before.slice(k + 1).some(verbOfSubject)))) return null;
    // "Liam will bring the cake and Ava will bring the drinks on Saturday": a day said once may be both clauses'; kept whole.
    const first = join(toks.slice(0, i));
    const one = withOneNamed(toks.slice(i + 1), before);
    const second = one && withCountNamed(one, before);
    if (!second || (findDates(join(second), DATE_REFERENCE).length > 0 && findDates(first, DATE_REFERENCE).length === 0)) return null;
    // "Liam hates mornings and Ava loves them": the object pronoun read in the clause before ("Ava loves mornings"), or
    // the sentence kept whole where it stands for nothing there.
    const told = resolveObject(nlp, join(second), first);
    if (/\b(?:it|them|one|ones|her|him)\W*$/i.test(told)) return null;
    // "…and Ben visits her every summer", "…and Ava found his phone", "…and Ava has one at 4pm": a pronoun or a "one" left
    // standing for the clause before, kept whole (rules 103).
    if (/\b(?:he|she|it|its|they|them|their|her|him|his|none)\b/i.test(told) || tokens(nlp, told).some((t, k, all) => /^ones?$/i.test(t.word) && all[k + 1]?.pos !== 'NOUN')) return null;
    // "I have a dentist appointment on Friday and Ava will drive me": a day said in the first is the plan's too; kept whole.
    if (findDates(first, DATE_REFERENCE).length > 0 && findDates(join(second), DATE_REFERENCE).length === 0 && /\b(?:will|['’]ll|going to|is to)\b/i.test(told)) return null;
    // "…and Ava was away, we cancelled the trip": a clause runs on past the second person's; kept whole.
    if (/[,;:]\s*\S/.test(told)) return null;
    // Each half a fact alone, or the sentence kept whole: "Liam got promoted." or "Ben stayed home." alone tells nothing
    // (rules 103).
    const firstTold = `${first.replace(/[,;\s]+$/, '')}.`;
    if (!toldAlone(nlp, firstTold) || !toldAlone(nlp, told)) return null;
    return [firstTold, told];
  }
  return null;
}

/**
 * A sentence as the sentences it tells: a clause before a first-person plan clause apart from it (the plan's object
 * pronoun resolved in that clause), and a plan of two joined actions as two plans; "the plan is to…" as "we plan to…".
 * Unchanged when none applies.
 */
export function splitPlanClauses(nlp: Wink, said: string): string[] {
  // "The plan is to meet at six", "my plan is to…": a plan told as one ("we plan to meet at six").
  const sentence = said.replace(/\b(the|our|my) plan is to\b/i, (_m, whose: string) => (/^my$/i.test(whose) ? 'I plan to' : 'we plan to'))
    .replace(/^we plan/, 'We plan');
  const re = new RegExp(PLAN_CLAUSE.source, 'gi');
  for (let m = re.exec(sentence); m; m = re.exec(sentence)) {
    if (m.index === 0) continue;
    const before = sentence.slice(0, m.index);
    // The clause before tells something of its own: a verb and a noun, and no plan ("Tomorrow, I'll…" is one clause).
    const toks = tokens(nlp, before);
    if (!toks.some((t) => t.pos === 'VERB') || !toks.some((t) => t.pos === 'NOUN' || t.pos === 'PROPN') || new RegExp(PLAN_START, 'i').test(before)) continue;
    const plan = resolveObject(nlp, sentence.slice(m.index + m[0].length), before);
    return [`${before.replace(/[,;\s]+$/, '')}.`, ...joinedPlans(nlp, plan)];
  }
  // "Actually I just moved to Oakland, my new number is 555 0123": the move and the number, each a sentence (rules 87).
  for (const m of sentence.matchAll(OWN_VALUE_CLAUSE)) {
    const before = sentence.slice(0, m.index);
    const rest = sentence.slice(m.index + m[0].length);
    const value = (): string[] => splitPlanClauses(nlp, `${rest.charAt(0).toUpperCase()}${rest.slice(1)}`);
    // "Since I started at Google, my new manager is Sam": the act done read as "I started at Google.", the manager a
    // sentence of its own; "When you get a chance, my new email is…": the setting dropped (rules 95).
    if (SUBORDINATE_OPENING.test(before)) {
      const act = ACT_DONE_OPENING.exec(before);
      const done = act ? before.slice(act[0].length).replace(/[,;\s]+$/, '') : '';
      return act && toldAsPast(done) ? [`${done}.`, ...value()] : value();
    }
    const toks = tokens(nlp, before);
    if (!toks.some((t) => t.pos === 'VERB') || !toks.some((t) => t.pos === 'NOUN' || t.pos === 'PROPN')) continue;
    return [`${before.replace(/[,;\s]+$/, '')}.`, ...value()];
  }
  // "Liam wants the blue logo and Ava wants the green one": a sentence each (rules 99).
  const people = peoplesClauses(nlp, sentence);
  if (people) return people.flatMap((c) => splitPlanClauses(nlp, c));
  return joinedPlans(nlp, sentence);
}
