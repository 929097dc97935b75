/** Third-person agreement for facts rewritten from first person, from wink-nlp POS tags and lemmas. */
import type { WinkMethods } from 'wink-nlp';
import { defaultWordNet } from '../retrieval/wordnet.js';
import { NOT_BEFORE_SUBJECT_YOU, thirdPerson } from './pronouns.js';
import { MONTH_NAME, WEEKDAY_NAME } from './months.js';

/** Verbs whose past tense is spelled like the base form: left alone ("I hurt my back" is past). */
const SAME_PAST = new Set(['hurt', 'put', 'cut', 'set', 'let', 'hit', 'read', 'quit', 'cost', 'shut', 'spread',
  'bet', 'burst', 'cast', 'split', 'upset', 'broadcast', 'forecast', 'beat']);
const IRREGULAR: Record<string, string> = { have: 'has', do: 'does', go: 'goes', be: 'is' };

/** Lemmas of verbs after which "you" and a bare verb are an object and its action ("let you know", "help you find"). */
const OBJECT_THEN_VERB = new Set(NOT_BEFORE_SUBJECT_YOU);

/**
 * `I think…` -> `I thinks…` so that replacing "I" by a name reads "Tom thinks…": a present-tense
 * verb right after "I" (adverbs between are skipped) takes the third-person form. Past tenses,
 * modals and auxiliaries handled by the pronoun rules ("I'm", "I'll", "I don't") are left alone.
 * With `singularYou` (one person addressed), the same after "you" as a subject ("glad you like it" -> "glad you likes
 * it", read "glad Melanie likes it"); not after an auxiliary, "to" or a verb that makes "you" its object ("let you know").
 */
export function conjugateAfterI(nlp: WinkMethods, text: string, singularYou = false): string {
  const its = nlp.its;
  const tokens = nlp.readDoc(text).tokens();
  const values = tokens.out(its.value);
  const pos = tokens.out(its.pos);
  // wink-nlp's typings give `lemma` an add-on signature; at run time it is a token property like `value`.
  const lemmas = tokens.out(its.lemma as unknown as typeof its.value);
  const spaces = tokens.out(its.precedingSpaces);
  for (let i = 0; i < values.length; i++) {
    // "a thank-you note": the word before "you" across the hyphen ("thank"), which makes it no subject (rules 80).
    const before = values[i - 1] === '-' ? i - 2 : i - 1;
    const you = singularYou && values[i]?.toLowerCase() === 'you' && (i === 0 || (pos[i - 1] !== 'AUX' && pos[i - 1] !== 'PART'
      && !OBJECT_THEN_VERB.has((values[before] ?? '').toLowerCase()) && !OBJECT_THEN_VERB.has(lemmas[before] ?? '')));
    if (values[i] !== 'I' && !you) continue;
    let j = i + 1;
    while (pos[j] === 'ADV' && j < i + 3) j++;
    // "I no longer drive": the verb after "no longer" agrees too (rules 38).
    if (/^no$/i.test(values[j] ?? '') && /^longer$/i.test(values[j + 1] ?? '')) j += 2;
    const word = values[j] ?? '';
    const lower = word.toLowerCase();
    const verb = pos[j] === 'VERB' || (pos[j] === 'AUX' && (lower === 'have' || lower === 'do'));
    if (!verb || lemmas[j] !== lower || SAME_PAST.has(lower) || /^(?:n['’]t|not)$/i.test(values[j + 1] ?? '')) continue;
    values[j] = IRREGULAR[lower] ?? thirdPerson(lower);
  }
  return values.map((v, i) => `${i === 0 ? '' : spaces[i] ?? ''}${v}`).join('');
}

const THIRD_TO_FIRST: Record<string, string> = { is: 'am', has: 'have', does: 'do', was: 'was' };

/** Connectives that may open a sentence before its subject ("and", "oh and", "but also"). */
const LEADING_CONNECTIVE = /^(?:(?:and|but|so|oh|also|plus|well)\b[\s,]*)+(?=[A-Z])/i;

/**
 * A sentence reporting on a named participant ("Lena moved to Boulder", "Lena is a firefighter
 * now") rewritten in that participant's first person ("I moved to Boulder", "I am a firefighter
 * now"), so the first-person rules read it; null when it does not start with a known name and a verb.
 */
export function reportedAsFirstPerson(
  nlp: WinkMethods, said: string, names: Record<string, string | null>, speakerId: string,
): { subjectId: string; text: string } | null {
  // "And Maya likes dinosaurs", "Oh, Tom's a lifeguard…": a connective before the name leaves it the subject (fix9).
  const sentence = said.replace(LEADING_CONNECTIVE, '');
  const owned = ownedByParticipant(nlp, sentence, names, speakerId) ?? withParticipant(nlp, sentence, names, speakerId);
  if (owned) return owned;
  // "Sana's got her own place now", "Sana's been promoted": "'s" is "has", her own "I've got…".
  const perfect = sentence.match(/^([A-Z][a-z-]+)['’]s\s+((?:got|been|gone|just|finally|now)\b.*)$/s);
  const has = perfect ? participant(names, speakerId, perfect[1]!) : null;
  if (perfect && has && !/\b(?:I|my|me|mine|myself)\b/i.test(perfect[2]!)) return { subjectId: has, text: `I've ${perfect[2]}` };
  // "Tom's a lifeguard for the summer", "Ana's working at the bakery until March": "'s" is "is", her own "I'm…" (rules 34);
  // "a / an" only with an end said ("Tom's a great guy" is no job).
  const is = sentence.match(/^([A-Z][a-z-]+)['’]s\s+((?:(?:a|an)\s.*\b(?:for|until|till|through|over|this)\b|(?:working|temping|covering|filling|helping|subbing)\s).*)$/s);
  const who = is ? participant(names, speakerId, is[1]!) : null;
  if (is && who && !/\b(?:I|my|me|mine|myself)\b/i.test(is[2]!)) return { subjectId: who, text: `I'm ${is[2]}` };
  const m = sentence.match(/^([A-Z][a-z'-]+)\s+(\S+)(.*)$/s);
  // "Ben is my manager" is about the speaker, not a report on Ben.
  if (!m?.[1] || !m[2] || /\b(?:I|my|me|mine|myself)\b/i.test(m[3] ?? '')) return null;
  const entry = Object.entries(names).find(([id, n]) => id !== speakerId && n !== null && n.split(' ')[0] === m[1]);
  if (!entry) return null;
  const its = nlp.its;
  const tokens = nlp.readDoc(m[2]).tokens();
  const pos = tokens.out(its.pos)[0];
  const lemma = tokens.out(its.lemma as unknown as typeof its.value)[0] ?? m[2];
  const word = m[2].toLowerCase();
  if (pos !== 'VERB' && pos !== 'AUX') return null;
  const verb = THIRD_TO_FIRST[word] ?? (word.endsWith('s') && lemma !== word ? lemma : m[2]);
  return { subjectId: entry[0], text: `I ${verb}${m[3] ?? ''}` };
}

/** The id of the participant other than the speaker whose first name is `first`, or null. */
function participant(names: Record<string, string | null>, speakerId: string, first: string): string | null {
  return Object.entries(names).find(([id, n]) => id !== speakerId && n !== null && n.split(' ')[0] === first)?.[0] ?? null;
}

/**
 * "Lena's parents bought a caravan", "Lena's parking permit application was approved" (a participant's
 * possessive opening the subject, then its noun): the participant's "My parents bought a caravan", so
 * that it is read as told about them; null otherwise ("Lena's going to…" is "Lena is", left to the rule above).
 */
function ownedByParticipant(nlp: WinkMethods, sentence: string, names: Record<string, string | null>, speakerId: string): { subjectId: string; text: string } | null {
  const m = sentence.match(/^([A-Z][a-z-]+)['’]s\s+(.+)$/s);
  if (!m?.[1] || !m[2] || /\b(?:I|my|me|mine|myself)\b/i.test(m[2])) return null;
  const entry = Object.entries(names).find(([id, n]) => id !== speakerId && n !== null && n.split(' ')[0] === m[1]);
  if (!entry) return null;
  const pos = nlp.readDoc(m[2]).tokens().out(nlp.its.pos);
  // A noun, or adjectives then a noun ("Lena's new job"); "Lena's happy" is "Lena is happy".
  const k = pos.findIndex((p) => p !== 'ADJ');
  if (k < 0 || (pos[k] !== 'NOUN' && pos[k] !== 'PROPN')) return null;
  return { subjectId: entry[0], text: `My ${m[2]}` };
}

/**
 * "Lena and her brother are going to fix their grandad's shed" (a participant and someone else as the subject): the
 * participant's "My brother and I are going to fix my grandad's shed" (theirs is the participant's); null when the other is no one of theirs ("Lena
 * and Ben", "Lena and the kids") or the sentence speaks of the speaker.
 */
function withParticipant(nlp: WinkMethods, sentence: string, names: Record<string, string | null>, speakerId: string): { subjectId: string; text: string } | null {
  const m = sentence.match(/^([A-Z][a-z'-]+)\s+and\s+(?:her|his)\s+([a-z-]+)\s+(.+)$/s);
  if (!m?.[1] || !m[2] || !m[3] || /\b(?:I|my|me|mine|myself|we|us|our)\b/i.test(m[3])) return null;
  const entry = Object.entries(names).find(([id, n]) => id !== speakerId && n !== null && n.split(' ')[0] === m[1]);
  if (!entry) return null;
  const tokens = nlp.readDoc(`My ${m[2]} and I ${m[3]}`).tokens();
  const words = tokens.out();
  const pos = tokens.out(nlp.its.pos);
  // The other is a person of the participant's ("her brother", "his parents"), then the verb.
  const and = words.findIndex((w, k) => w.toLowerCase() === 'and' && words[k + 1] === 'I');
  if (and < 2 || !PEOPLE.has(words[and - 1]!.toLowerCase().replace(/s$/, '')) || !['VERB', 'AUX'].includes(pos[and + 2] ?? '')) return null;
  return { subjectId: entry[0], text: `My ${m[2]} and I ${m[3].replace(/\btheir\b/gi, 'my')}` };
}

const SUBJECT_START = new Set(['NUM', 'DET', 'PROPN', 'NOUN']);
const PLEASANTRIES = /^(?:(?:no|oh)(?=\s*[,.!])|thanks|thank|great|good|nice|sure|okay|ok|sorry|hi|hello|hey|bye|welcome|cheers|congrats)\b/i;
/**
 * Words before an event's subject that leave it the subject: "Also, the design team switched…", "Heads up, …";
 * "yes" or "okay" only before a noun phrase with its article ("Yes, the hot water is back"), not before "that's fine".
 */
const EVENT_LEAD = /^(?:(?:also|and|but|so|oh|anyway|actually|by the way|btw|heads up|just so you know|fyi)\b[\s,]*|(?:yes|yeah|okay|ok|right|alright)\b[\s,]*(?=(?:the|my|our|your|a|an)\s))*/i;

/**
 * "No," before a subject that names someone or something ("No, Dora moved back to Paris", "No, the shop shut"): a
 * correction, the statement after it told all the same (rules 44; before, "No," made it a reply and nothing was stored).
 * A name needs its capital, so "No, thanks", "No, that's fine" and "No, I…" stay as they were.
 */
const NO_LEAD = /^(?:[Nn]o|[Nn]ope)\s*,\s*(?=(?:[Tt]he|[Mm]y|[Oo]ur|[Yy]our)\s|(?!(?:That|This|It|Thanks|Thank|Sorry|Not|Never|Nothing|Problem|Worries|Way|Please|Just|Well|Really|Sure|Okay|Ok|Don|Nope|No)\b)[A-Z][a-z]+\b)/;

/** `sentence` without a correcting "No," before its subject (`NO_LEAD`): "No, Dora moved back to Paris" → "Dora moved…". */
export function withoutCorrectingNo(sentence: string): string {
  return sentence.replace(NO_LEAD, '');
}

/**
 * "Okay," or "yes," before a name and its verb ("Okay, Dana is handling the vendor contract now"): the name is the
 * subject (trial10 F2: the sentence gave no fact). Case matters, so "Okay, That's fine" and "okay, thanks" stay replies.
 */
const NAME_LEAD = /^(?:[Yy]es|[Yy]eah|[Oo]kay|OK|[Oo]k|[Rr]ight|[Aa]lright|[Ss]o)\b[\s,]*(?=(?!(?:That|This|It|There|Thanks|Thank|Sorry|Sure|Great|Good|Nice)\b)[A-Z][a-z]+\s+(?:is|are|was|were|will|has|have|had|can|could|should|just|now|['’]s|['’]ll)\b)/;

/** An event as told, without the words before its subject nor a "thanks" after it ("Yes, the hot water is back, thanks"). */
export function withoutEventLead(text: string): string {
  return text.replace(EVENT_LEAD, '').replace(NAME_LEAD, '').replace(/,?\s*(?:thanks|thank you|cheers)\s*[.!]*$/i, '');
}

/** A time said before the subject ("Since yesterday the car makes…", "This morning the van broke down"). */
const EVENT_TIME_LEAD = new RegExp(String.raw`^(?:(?:since|from|until|as of)\s+(?:yesterday|today|this morning|last\s+\w+|${WEEKDAY_NAME})|(?:yesterday|today|tonight|this|last)(?:\s+(?:morning|afternoon|evening|night|week))?)\b,?\s+(?=\S)`, 'i');
/** Possessives that open a subject told of someone else ("His reading has slipped", "Your mum called"). */
const OTHERS_POSSESSIVE = /^(?:his|her|their|its|your)$/i;

/** Courtesies a name sends or says ("Ben sends regards", "Tom says thanks"): no fact of three words. */
const SENT_COURTESY = /^(?:regards|love|thanks|hi|hello|greetings|wishes|hugs|kisses|best)$/i;

/**
 * A clause of three words told of someone named, by its words and tags: a capitalised name, a verb and a noun for its
 * object ("Liam likes tea"; rules 99), not a courtesy sent ("Ben sends regards"); "Liam got promoted", "Liam is here",
 * "Liam loves it" tell nothing alone (embedded-rules.ts `namedClause`, clause-split.ts `peoplesClauses`).
 */
export function namedClauseShape(words: readonly string[], tags: readonly string[]): boolean {
  return words.length === 3 && tags.length === 3 && tags[0] === 'PROPN' && /^\p{Lu}/u.test(words[0]!) && ['NOUN', 'PROPN'].includes(tags[2]!)
    && !SENT_COURTESY.test(words[2]!) && (tags[1] === 'VERB' || /s$/.test(words[1]!));
}

/**
 * True for a declarative sentence with a subject of its own and a finite verb ("Eleven kids came
 * to the planting day", "The rain barrels were installed", "His reading has slipped a bit", "The school trip to
 * the science museum is on the fourteenth"): first a number, determiner, noun or a possessive before a noun, then a
 * verb or auxiliary before any punctuation, within eight tokens; "'s" after the subject and before no noun is "is"
 * ("Jamie's off football practice", "The car's at the garage"). A time said first is skipped ("Since yesterday the
 * car makes a grinding noise"). Greetings and replies ("Sure", "Thanks, see you") do not start that way.
 */
export function reportsEvent(nlp: WinkMethods, text: string): boolean {
  const told = withoutEventLead(text);
  // "Yesterday was crazy cool" has its time for a subject.
  return toldWithSubject(nlp, told) || (EVENT_TIME_LEAD.test(told) && toldWithSubject(nlp, told.replace(EVENT_TIME_LEAD, '')));
}

/** Tags of a noun phrase's words after its first (`reportsEvent`). */
const NOUN_PHRASE = new Set(['NOUN', 'PROPN', 'DET', 'ADJ', 'NUM', 'ADP']);

function toldWithSubject(nlp: WinkMethods, told: string): boolean {
  if (PLEASANTRIES.test(told)) return false;
  const tokens = nlp.readDoc(told).tokens();
  const pos = tokens.out(nlp.its.pos);
  const words = tokens.out();
  // "He'll need to be added to the lease": a person told of by a pronoun ("it", "that" say no one).
  const person = pos[0] === 'PRON' && /^(?:he|she|they)$/i.test(words[0] ?? '');
  // "Your mum called", not "your words mean a lot": told to the listener, "your" opens news only of their people.
  const yours = /^your$/i.test(words[0] ?? '') ? words.slice(1, 3).some((w) => PEOPLE.has(w.toLowerCase().replace(/s$/, ''))) : true;
  const owned = pos[0] === 'PRON' && OTHERS_POSSESSIVE.test(words[0] ?? '') && ['NOUN', 'ADJ', 'PROPN'].includes(pos[1] ?? '') && yours;
  if (!SUBJECT_START.has(pos[0] ?? '') && !person && !owned) return false;
  if (pos.slice(1, 6).some((p) => p === 'VERB' || p === 'AUX')) return true;
  // "Ava lives in Lyon", "Priya drinks coffee": a name, then a verb in the third person the tagger read as a noun (rules 99).
  if (pos[0] === 'PROPN' && pos[1] === 'NOUN' && /^[a-z]+s$/.test(words[1] ?? '') && defaultWordNet().baseForms(words[1]!, 'verb').length > 0) return true;
  // A longer subject ("the school trip to the science museum is…") is a noun phrase up to its verb: nouns, determiners,
  // adjectives, numbers and prepositions only ("Expression of myself and a way to relax" is none).
  for (let i = 1; i < Math.min(pos.length, 9); i++) {
    if (pos[i] === 'VERB' || pos[i] === 'AUX') return true;
    if (pos[i] === 'PART' && /^['’]s$/.test(words[i] ?? '') && !['NOUN', 'PROPN', 'ADJ', 'NUM'].includes(pos[i + 1] ?? '')) return true;
    if (!NOUN_PHRASE.has(pos[i] ?? '')) return false;
  }
  return false;
}

/** Nouns of people a speaker tells about ("my sister", "our neighbours", "his wife"), singular. */
export const PEOPLE = new Set(['sister', 'brother', 'mother', 'mom', 'mum', 'father', 'dad', 'parent', 'wife', 'husband', 'partner',
  'boyfriend', 'girlfriend', 'fiance', 'fiancé', 'fiancée', 'son', 'daughter', 'kid', 'child', 'children', 'baby', 'friend', 'manager',
  'boss', 'colleague', 'coworker', 'co-worker', 'cousin', 'aunt', 'uncle', 'niece', 'nephew', 'neighbor', 'neighbour', 'roommate',
  'flatmate', 'housemate', 'grandmother', 'grandfather', 'grandma', 'grandpa', 'grandad', 'granddad', 'grandparent', 'grandson', 'granddaughter',
  'teacher', 'doctor', 'therapist', 'in-laws', 'in-law', 'sister-in-law', 'brother-in-law', 'mother-in-law', 'father-in-law', 'landlord', 'landlady', 'mate', 'buddy', 'bestie',
  // People named by where they live ("the people next door insulated their loft", "the couple across the road").
  'people', 'couple']);
/**
 * People one pays for a service ("sent the form to my accountant"): people an action is for, but, as the subject, no one
 * the sentence tells about apart from the speaker ("the plumber fixed the tap" may be the speaker's plan done).
 */
export const SERVICE_PEOPLE = new Set(['accountant', 'solicitor', 'lawyer', 'dentist', 'physiotherapist', 'physio', 'architect',
  'builder', 'plumber', 'electrician', 'mechanic', 'vet', 'nurse', 'gardener', 'handyman', 'decorator', 'optician', 'hairdresser',
  'babysitter', 'nanny', 'tutor']);
/**
 * People one sees as a doctor of some kind, whom a booking names by title ("with Dr. Patel"): "your dentist appointment",
 * "your GP appointment" name a booking with a doctor (rules 98, value-change.ts `unmetThingTerms`). Not a vet: a pet's.
 */
export const DOCTOR_TRADES = new Set(['doctor', 'dentist', 'gp', 'physio', 'physiotherapist', 'optician', 'optometrist', 'therapist',
  'surgeon', 'orthodontist', 'dermatologist', 'paediatrician', 'pediatrician', 'hygienist', 'consultant', 'specialist', 'chiropractor',
  'podiatrist', 'psychiatrist', 'psychologist', 'gynaecologist', 'gynecologist', 'cardiologist', 'osteopath']);
/** Days and times the tagger may read as a name at the start of a sentence ("Yesterday was great"). */
const TIME_WORD = new RegExp(`^(?:yesterday|today|tonight|tomorrow|${WEEKDAY_NAME}|${MONTH_NAME})$`);
/** Words before a subject that leave it the subject ("so my sister…", "anyway, our neighbours…"). */
const LEAD_WORDS = /^(?:(?:well|so|oh|and|but|anyway|actually|apparently|guess what|fun fact)\b[\s,]*)*/i;

/**
 * Who a sentence tells about when it is not the speaker: the person noun of a possessive subject ("our
 * neighbours decided on a dog" -> `neighbor`, "my brother and his wife decided…" -> `brother`), or a name
 * not of a participant ("Anna decided to…" -> `anna`; a participant's name is read by `reportedAsFirstPerson`
 * first), lower-case and singular; null when the speaker is the subject or among it ("I…", "we…", "my
 * sister and I…") or the subject is a thing ("my passport renewal is done").
 */
export function reportedSubject(nlp: WinkMethods, sentence: string): string | null {
  const text = sentence.replace(LEAD_WORDS, '');
  const its = nlp.its;
  const tokens = nlp.readDoc(text).tokens();
  const words = tokens.out();
  const pos = tokens.out(its.pos);
  const lemmas = tokens.out(its.lemma as unknown as typeof its.value);
  // The subject runs up to its verb; "and I" / "and me" / "and we" puts the speaker in it.
  // "My parents redid the patio": a word tagged a noun between people and the determiner of an object is the verb.
  const end = pos.findIndex((p, i) => p === 'VERB' || p === 'AUX' || (p === 'NOUN' && i > 0
    && PEOPLE.has((lemmas[i - 1] ?? '').toLowerCase()) && /^(?:the|a|an|my|our|your|his|her|their)$/i.test(words[i + 1] ?? '')));
  if (end <= 0) return null;
  const subject = words.slice(0, end).map((w) => w.toLowerCase());
  // "I", "I'm", "we're", "me", "us" (the tagger may read "I'm" as one word, and a proper noun).
  if (subject.some((w) => /^(?:i|me|we|us|you|let)(?:['’]\w+)?$/.test(w))) return null;
  if (pos.slice(0, end).some((p, i) => p === 'PUNCT' && words[i] !== '-')) return null;
  // "Mum and Dad", "my aunt and uncle", "Tom and Sara", "my brother and his wife": each conjunct a person;
  // who the sentence tells about is the first one.
  const conjuncts: number[][] = [[]];
  for (let i = 0; i < end; i++) {
    if (pos[i] === 'CCONJ' && /^(?:and|&)$/i.test(words[i]!)) conjuncts.push([]);
    else conjuncts[conjuncts.length - 1]!.push(i);
  }
  const people = conjuncts.map((c, k) => (k === 0 ? person(c, words, pos, lemmas) : person(c, words, pos, lemmas, true)));
  // A thing in the subject ("my passport renewal and the visa"): no one.
  return people.every((p) => p !== null) ? people[0]! : null;
}

/**
 * The person one conjunct of a subject names, lower-case and singular: a person noun after a
 * possessive or "the" ("my sister", "our neighbours", "the kids"; in a later conjunct bare too: "my
 * aunt and uncle"), a bare kin word ("Mum", "Grandma"), or a name ("Anna", "Anna Smith"); else null.
 */
function person(at: number[], words: string[], pos: string[], lemmas: string[], later = false): string | null {
  if (at.length === 0) return null;
  const w = (i: number): string => words[i]!.toLowerCase();
  const first = w(at[0]!);
  const kin = (i: number): string | null => {
    const lemma = (lemmas[i] ?? words[i]!).toLowerCase();
    const singular = PEOPLE.has(lemma) ? lemma : PEOPLE.has(w(i)) ? w(i) : lemma.replace(/s$/, '');
    return PEOPLE.has(singular) ? singular : null;
  };
  if (/^(?:my|our|your|his|her|their|the)$/.test(first)) {
    // The first noun is who it is ("my brother's wife" -> brother: the family it belongs to); a thing is no one.
    const noun = at.slice(1).find((i) => pos[i] === 'NOUN' || pos[i] === 'PROPN');
    return noun === undefined ? null : kin(noun);
  }
  // "Mum", "Grandma", "(my aunt and) uncle": a kin word said as a name.
  const one = at.length === 1 || words[at[1]!] === '-';
  if (one && (pos[at[0]!] === 'PROPN' || (later && pos[at[0]!] === 'NOUN')) && kin(at[0]!) !== null) return kin(at[0]!);
  // A name not of a participant ("Anna decided to…"): capitalised, tagged a proper noun, at most two words.
  if (at.length <= 2 && at.every((i) => pos[i] === 'PROPN') && /^[A-Z][a-z'-]+$/.test(words[at[0]!]!) && !TIME_WORD.test(first)) return first;
  return null;
}

/** "He / she / his / her" opening a sentence, by the family they belong to. */
const OPENING_PRONOUN = /^(?:(?:also|and|but|so|oh|actually)\b[\s,]*)*(he|his|him|she|her)(?=['’\s])/i;

/** The family of a pronoun opening `sentence` ("he" for he / his / him, "she" for she / her), or null. */
export function openingPronoun(sentence: string): 'he' | 'she' | null {
  const w = OPENING_PRONOUN.exec(sentence)?.[1]?.toLowerCase();
  return w === undefined ? null : /^h(?:e|is|im)$/.test(w) ? 'he' : 'she';
}

/**
 * The name that opens `sentence` as its subject ("Jamie has been doing really well in maths", "Jamie's off football
 * practice"): a capitalised word tagged a proper noun, then a verb or "'s"; null otherwise ("Thursday is fine", "Thanks").
 */
export function subjectName(nlp: WinkMethods, sentence: string): string | null {
  const text = sentence.replace(LEAD_WORDS, '');
  const tokens = nlp.readDoc(text).tokens();
  const words = tokens.out();
  const pos = tokens.out(nlp.its.pos);
  const first = words[0] ?? '';
  if (pos[0] !== 'PROPN' || !/^[A-Z][a-z'-]+$/.test(first) || TIME_WORD.test(first.toLowerCase())) return null;
  const next = pos[1] === 'PROPN' && /^[A-Z]/.test(words[1] ?? '') ? 2 : 1;
  const verb = pos[next] === 'VERB' || pos[next] === 'AUX' || (pos[next] === 'PART' && /^['’]s$/.test(words[next] ?? ''));
  return verb ? words.slice(0, next).join(' ') : null;
}
