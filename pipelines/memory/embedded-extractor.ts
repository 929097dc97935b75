import { wink } from '../wink.js';
import type { Wink } from '../wink.js';
import type { PlanObject, ProfileUpdate } from '../../graph/memory-store.js';
import { applyRules, withoutIntroduction, type RuleContext, type RuleFact } from './embedded-rules.js';
import { UNNAMED, type ExtractedFact, type ExtractionInput, type ExtractionResult, type Extractor } from './extractor.js';
import { inclusiveWe, resolvePronouns, type Perspective } from './pronouns.js';
import { cancellingClause, isIntention, movedClause, settles, slotChange } from './changes.js';
import { actsOnNewThing, readEventObject, readPlanObject } from './plan-object.js';
import { splitPlanClauses } from './clause-split.js';
import { withCalledListeners, withoutVocative } from './called-listener.js';
import { defaultWordNet } from '../retrieval/wordnet.js';
import { PEOPLE, conjugateAfterI, openingPronoun, reportedAsFirstPerson, reportedSubject, reportsEvent, subjectName } from './grammar.js';
import { absoluteDates, eventDate, findDates, stateEnd } from './relative-date.js';
import { STAY_SLOT, withoutUntil } from './stays.js';

/**
 * Prompt-free rule set version, recorded on every fact as `embedded-rules/<n>`: raise it when the rules change
 * what they extract, so facts of different rule sets can be told apart. 3: plans said with "we", obligations,
 * plan objects matched by WordNet. 4: farewells and leave-takings are no plans, plans and choices told about
 * someone else carry `reportedBy`, maxims said with "should" stay open. 5: plan objects name the people an action
 * is for or whose the thing is apart from what it is about ("my sister's drill", "to my sister"), read two objects
 * ("write my grandmother a letter") and phrasal verbs ("gave the drill back"); coordinated people ("Mum and Dad…")
 * and a participant's possessive ("Lena's parents…") are told about someone else. 6: a month or weekday in a sentence
 * told of the past ("we went camping in May", "I called her on Tuesday") is dated behind, not ahead; a phrase that
 * names only a year ("last year", "four years ago") dates the year, not a made-up day; one person addressed as "you"
 * takes a third-person verb ("glad you like it" -> "glad Ben likes it", "you are" -> "Ben is"), and "I haven't" reads
 * "Lena hasn't". 7: "my own" names the speaker
 * among a plan object's people, a noun compound's last noun tagged a verb is its head ("the kitchen tap"), an irregular
 * past tagged a noun is the verb ("we redid"), an obligation on a named owner's thing is a plan ("Grandma's
 * prescription"), "won't be …ing" cancels and "dropped the keys off" does not; others' acts on a new thing ("my aunt and
 * uncle bought an electric car") and alternatives they plan ("…drive instead") carry `reportedBy`; "my nephew and I…"
 * names the nephew among the people, and "Lena and her brother…" (said of a participant) is Lena's "my brother and
 * I…"; plan objects say which one a compound or an "in / on / of" phrase names (`which`). 8: introductions said on the phone
 * ("this is Priya speaking", "Priya here"), small talk that is no memory ("I'm sorry about that", "I'll remember that",
 * going to bed), days of the month ("on the 15th"), "for the rest of the month", dated arrangements of someone else's
 * ("an engineer can come on…") and "we're planning a party on…" are plans, statements after several opening words;
 * "I'll order it" takes what it orders from the turn before ("can you order a cake?"). 9: "did" before an object is
 * the verb ("I did my tax return myself"), an irregular past between people and an object is too ("my parents redid the
 * patio"), people paid for a service ("to my accountant") are people an action is for, "the people next door" are told about, a date word before a noun
 * says which one ("the evening course"), "my aunt's" as one word is the aunt's; "my own" stays "Lena's own", "myself" reads
 * "themselves", "at the weekend" reads "on Saturday …". 10: "we", "us" and "our" told to
 * one person take the listener in only when the sentence says so (a plan, "let's", "we both", "since we last talked");
 * else they are the speaker's own people ("Melanie and others went camping", "Melanie's family trip").
 * 11: running the meeting ("let's keep it
 * quick") is no memory; statements and events after "Heads up,", "Also,", "Yes, the…" or a time ("Tomorrow morning I'm…"),
 * with a question tagged on, or told of "he / she / they"; "Hi, it's Sofia Marin" names the speaker; "I'm out on Thursday
 * and Friday" ends after Friday; "it was X after all", with no negation, withdraws nothing; "I'm still stuck" is a state,
 * not an action told as done. 12: "won't need", "don't need to", "given up on" and a negative imperative ("don't do the
 * MOT") cancel, a denied cancelling ("still haven't cancelled") does not; "has been moved to" reschedules; "up and
 * running" is done; a cancellation or a reschedule is read from its own clause; a plan naming its thing by "it" / "her"
 * is done by the same action told as done; "the French course" / "the course in Spanish" say which one; "enrol" is
 * "enroll", "have a word with" is "spoke to"; "the couple across the road" are people. 13: "I haven't got round to
 * cancelling…", "I haven't managed to cancel…" and "I forgot to cancel…" cancel nothing. 14: a report before a plan
 * clause is a sentence of its own and the plan's "it" / "her" names its thing or person ("The plumber sent me a quote,
 * I'll forward it…"); two joined plan actions are two plans; an event told for a day ("my dentist appointment is on
 * Tuesday", "I've got a match on Saturday": "have got" is now) is settled by a reschedule or a cancellation of the same
 * one; "let's do Saturday instead" moves the latest dated plan of the day; "the plan is to…" is a plan; "actually, I
 * won't order…" cancels; a return trip is not the outbound one; "the class in watercolour" says which one; "had a chat
 * with", "get someone to fix", "the printer is up and running" (about its subject). 15: events whose subject
 * opens with "his / her…" (a person, or a thing of someone named just before), "your" + a person, or is a noun phrase
 * past five words, "X's off / at…", a time before the subject ("Since yesterday the car…"), a first-person clause after
 * an act, a guess or "since we last spoke" ("Calling you back as promised, we have…"), asking leave for someone else
 * with a time ("Can Maisie sleep over on Saturday?"); a statement opened by "he / his…" names the person the sentences
 * before opened with (a name: a participant's, one written inside a sentence, or no WordNet word); well-wishing ("I hope it heals quickly"), "see you Saturday" and "this pasta is lovely"
 * are no memory; a date is past or to come by its own clause, "now" stays a word; a "we" plan or decision told to one
 * person takes the listener in only as `inclusiveWe` or a time to come says ("we decided to do doggy playdates" is the
 * speaker's own people's, and not shared). 16: a duration told in the perfect
 * or the past ("I've been vegetarian for two years", "I lived there for five years") ends no state ahead; "can't" is no
 * past tense (its date lies ahead); a bare "the 15th" told of the past lies behind. 17: a fact's `eventTime` is also
 * the start of a state told in the perfect ("I've had them for three years now") or, for an act told as just done ("I
 * just got accepted"), the day it was said. 18: "was" is a past form (a day named with it lies behind: "I was in Paris
 * on Friday"); a participle after a present "be" is a state now ("the road is closed for two weeks", "I'm tied up for
 * a week" end ahead); "until the 9th" ends a state; an "until" told of the past ("I was off until Monday") ends none.
 * 19: a sentence told with its "I" left out and opened by a past form ("Paid Marcus back for the tickets", "Spoke to
 * Gran this morning") is read with the "I"; an outcome naming the same thing as an open fact by a proper name and a
 * shared word settles it whatever the verbs (`sameNamedThing` in decide.ts).
 * 20: "this week" is the week holding the day it was said (told of the past it was read as last week); "Tues" and "Weds"
 * are read as weekdays ("last Tues", "on Weds"), and a bare abbreviated weekday ("on Wed.") as a full one.
 * 21: the speaker's name is found as a word whatever the case of its first letter: an unnamed speaker's later
 * possessives read "their" ("…should buy their bread", not "…an unnamed speaker's bread"), "Al" is not found in "Also";
 * "I" becomes "An unnamed speaker" / "The caller" with a capital only where a sentence starts.
 * 22: one clause splitter for dates (`clauseAround`): a date's tense and a duration's are read from the clause holding it,
 * broken at joining words too ("Your mum called and she wants us over on Sunday": Sunday to come), or from the whole
 * sentence when that clause has no verb ("For two years, I lived there" ends nothing ahead); a day or a date after "for"
 * is when, not how long ("my flight is booked for Friday", "reserved for tomorrow": dated, with no end of their own);
 * a sentence with its "I" left out is read with it only when its verb names a thing, place, person or time ("Got it
 * covered", "Agreed, …", "Got your back", "Felt so refreshing" stay as said and give nothing), and a pleasantry opened
 * by a word of feeling that names nothing ("Glad to hear it", "Glad to help, Nate", "Same here") is no memory.
 * 23: life slots read by meaning (a cue lexicon per slot, `lifeSlot` in changes.ts): where one lives after a move ("we're in
 * a little terraced house in Ashby now", "moved into…", "moved back in with my parents", "I'm renting a room in…"; a
 * holiday or a stay is none; "moved out of the flat" alone ends it), a job told as an activity after leaving ("I'm tutoring
 * full time now": a new value, not an ending), a role started or promoted to, a new job at somewhere, notice handed in or
 * redundancy (an ending), a diet taken up ("gone vegetarian", "stopped eating meat"), a taste taken up or dropped ("come
 * round to coffee", "gone off crisps"), an allergy however told ("cats set my allergies off"); a report's later "he / she"
 * is the person reported on; a street stays in a lives_in value ("above the bakery on Carver Street").
 * 24: "twice a week" is a frequency, no date; "a few years back" lies behind (its "when" clause with it); "Thought I'd…",
 * "Heard they're…" (a clause verb, its "I" left out) give a fact; a date that is the subject takes no preposition ("The
 * week of … has been swamped"); notice, resigning, let go, retiring end employer and role; relationship status a slot.
 * 25: a name called at a sentence's start or end is not part of the fact ("Ben, my sister moved to Leeds" → "Dora's sister
 * moved to Leeds", not "Ben, Dora's sister…"); a turn addressed to no one present reads "you" as the person called
 * ("Eve, I'll water your plants" → "Dora will water Eve's plants", not "the listener's").
 * "a weekend yoga class", "my weekend" are no dates; "this past weekend", "over the weekend" read whole.
 * 26: consolidation keeps a stay ("living in Lisbon for a month", a fact with its own end) beside the lasting value of its
 * slot instead of closing it; a lasting value said during a stay of it replaces the stay; a lasting value that replaces a
 * stay replaces the homes it had interrupted too (pipelines/memory/temporary-states.ts).
 * 27: a stay with an end said ("I'm staying in Madrid for two weeks", "I'll be in Berlin until the 20th", "visiting my
 * parents in Ohio this month") is a `staying_in` memory beside the home, not a plan, a promise or a statement; an "until"
 * clause is the end, not the value or the words ("working at Hooli until Friday" → "works at Hooli", `validUntil`);
 * "till June" ends where June begins, "through the end of the year" where the next begins (pipelines/memory/stays.ts).
 */
export const EMBEDDED_RULES_VERSION = 27;

export { CALLER, UNNAMED } from './extractor.js';

const RETRACT_ALL = /^(?:(?:oh|ah|sorry|wait|actually|no),?\s+)*(?:please\s+)?(?:cancel|forget|scratch|ignore|disregard)\s+(?:that|it|what i said|the last thing)\b|^(?:oh,?\s+)?never ?mind\b/i;
/**
 * "… anymore", "no longer", "after all": the sentence withdraws something. "Any more suggestions" and
 * "after all these games" (a determiner before a noun) withdraw nothing.
 */
const NEGATION_MARKER = /\b(?:anymore|no longer|(?:any more|after all)(?=\s*(?:[,.;!]|$)))/i;

/**
 * "It was the database cleanup after all": "after all" in a sentence with no negation says how something turned
 * out, it withdraws nothing ("Luca won't be moving in after all" does).
 */
function turnedOut(s: string): boolean {
  return /\bafter all\b/i.test(s) && !/\b(?:anymore|any more|no longer)\b/i.test(s)
    && !/\b(?:not|no|never|nothing|nobody|none)\b|n['’]t\b|\bcannot\b/i.test(s);
}

/** Turn a withdrawn statement into its positive form so the rules find the slot it withdraws. */
function positiveForm(s: string): string {
  return s
    .replace(/\bno longer\s+/i, '')
    .replace(/\b(?:don['’]t|do not|doesn['’]t|does not|didn['’]t|won['’]t)\s+/i, '')
    .replace(/\b(am|['’]m|is|are)\s+not\b/i, '$1')
    .replace(/\s*,?\s*\b(?:anymore|any more|after all)\b/i, '');
}

/** "Their support…", "His journey…": a possessive pronoun before a thing, not a person ("his grandad"). */
function unownedThing(content: string): boolean {
  const m = /^(?:his|her|their|its)\s+(?:[a-z]+\s+)?([a-z-]+)/i.exec(content);
  if (!m) return false;
  const words = content.split(/\s+/).slice(1, 3).map((w) => w.toLowerCase().replace(/['’]s$/, ''));
  return !words.some((w) => PEOPLE.has(w) || PEOPLE.has(w.replace(/s$/, '')));
}

/** A statement opened by "He / His / She / Her" with the name in its place ("His reading…" -> "Jamie's reading…"). */
function withName(content: string, name: string): string {
  return content.replace(/^(?:he|she)\b/i, name).replace(/^(?:his|her)\b/i, `${name}'s`);
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** Words that tell when an act happened without a noun ("Started when I was young", "Felt sick yesterday"). */
const WHEN_WORD = /^(?:when|while|since|after|before|until|till|ago|yesterday|today|tonight|recently|earlier|lately|once)$/i;
/** A subject pronoun: after one, the opening word is no verb of an "I" left out ("Blessed we both have this mindset"). */
const SUBJECT_PRONOUN = /^(?:i|we|he|she|they)$/i;

/** Verbs that take a clause ("Thought I'd…", "Heard they're…", "Figured we'd…"): the pronoun after one is the clause's subject. */
const CLAUSE_VERB = /^(?:think|figure|hear|guess|reckon|realise|realize|decide|notice|learn|suppose|find|read|bet|hope|wish|know|discover)$/;

/**
 * True when the words after the opening word, up to the first punctuation or dash, tell of something: they name a
 * thing, a place or a person (a noun, a name or a number: "Paid Marcus back", "Spoke to Gran", "Heard of that series")
 * or a time ("Started when I was young", "Felt sick yesterday"). A reaction names none: "Agreed!", "Got it, Nate",
 * "Got it covered", "Got your back" (the listener's own thing), "Felt so refreshing", "Missed you", "Glad to hear it".
 * The listener's name (`listeners`) names nothing, nor, after a verb, what follows "your". `whole`: read on past the
 * first punctuation, to the end of the sentence (a pleasantry's adjective, where "your son" names a person).
 */
function namesSomething(words: readonly string[], pos: readonly string[], listeners: readonly string[], whole = false): boolean {
  const names = new Set(listeners.map((n) => n.toLowerCase()));
  for (let i = 1; i < words.length && (whole || pos[i] !== 'PUNCT'); i++) {
    const word = words[i]!.toLowerCase();
    if (WHEN_WORD.test(word)) return true;
    if (!['NOUN', 'PROPN', 'NUM'].includes(pos[i] ?? '')) continue;
    // "Got your back": a set phrase; "Glad your son is okay" tells of the listener's son.
    if (names.has(word) || (!whole && /^(?:your|yours|ur)$/i.test(words[i - 1] ?? ''))) continue;
    return true;
  }
  return false;
}

/**
 * A pleasantry said with its "I" left out and opened by a word of feeling ("Glad to hear it", "Happy to help, Nate",
 * "Great to hear it", "Glad everyone could make it", "Same here"): an adjective, and nothing named in the whole sentence
 * (`namesSomething`). No memory. "Glad Melanie's son is okay" and "Awesome, Galway looks amazing" name something and stay.
 */
export function pleasantry(nlp: Wink, sentence: string, listeners: readonly string[] = []): boolean {
  if (!/^[A-Z][a-z]+\b/.test(sentence)) return false;
  // wink tags a capitalised word that opens a sentence as a name: read it lowercase.
  const doc = nlp.readDoc(sentence.charAt(0).toLowerCase() + sentence.slice(1));
  const pos = doc.tokens().out(nlp.its.pos);
  const words = doc.tokens().out();
  // "Blue's my fave": an adjective before a verb is the subject, no feeling of the speaker's.
  if (pos[1] === 'AUX' || pos[1] === 'VERB' || /^['’]s$/.test(words[1] ?? '')) return false;
  return pos[0] === 'ADJ' && !namesSomething(words, pos, listeners, true);
}

/**
 * A sentence told with its "I" left out, diary style, opened by a past form of a verb ("Paid Marcus back for the tickets",
 * "Spoke to Gran this morning", "Ran the Manchester half on Sunday"): read with the "I". Not a base form, which may be an
 * imperative or a present ("Put it there", "Turns out…"), nor a participle before "in / at / by / from" ("Based in Leeds"),
 * nor a set phrase or a reaction whose verb names nothing (`namesSomething`: "Agreed, …", "Got it covered", "Got your
 * back"), which stays as said (and gives no fact). A verb that takes a clause, then the clause's subject ("Thought I'd
 * refresh those skills", "Heard they're super chill", "Figured I'd give it a go"), is read with the "I" whatever the
 * clause names. `listeners`: the names of the people it is said to.
 */
export function withElidedI(nlp: Wink, sentence: string, listeners: readonly string[] = []): string {
  const doc = nlp.readDoc(sentence);
  const words = doc.tokens().out();
  const pos = doc.tokens().out(nlp.its.pos);
  const lemmas = doc.tokens().out(nlp.its.lemma as unknown as typeof nlp.its.value);
  const first = words[0] ?? '';
  const lemma = (lemmas[0] ?? '').toLowerCase();
  const word = first.toLowerCase();
  if (pos[0] !== 'VERB' || !/^[A-Z][a-z]+$/.test(first) || word === lemma || /(?:ing|s)$/.test(word)) return sentence;
  if (/^(?:in|at|by|from|with|for)$/i.test(words[1] ?? '') || /\?\s*$/.test(sentence)) return sentence;
  // "Thought I'd refresh those skills", "Heard they're super chill": a verb that takes a clause, the clause's subject after it.
  const clause = CLAUSE_VERB.test(lemma) && SUBJECT_PRONOUN.test(words[1] ?? '');
  // "Agreed, …", "Got it covered", "Blessed we both have…": a reaction, or no verb of the speaker's.
  if (!clause && (SUBJECT_PRONOUN.test(words[1] ?? '') || !namesSomething(words, pos, listeners))) return sentence;
  return `I ${word}${sentence.slice(first.length)}`;
}

/**
 * Joint fact / profile extraction without an LLM: wink-nlp sentence splitting and POS tags, plus
 * hand-written rules for introductions, preferences, plans and dates, commitments and requests,
 * relations between people, and background. Relative dates are resolved against the utterance time.
 */
export class EmbeddedExtractor implements Extractor {
  readonly source = `embedded-rules/${EMBEDDED_RULES_VERSION}`;
  readonly #nlp = wink();

  extract(input: ExtractionInput): Promise<ExtractionResult> {
    // "Eve, I'll water your plants", said to no one present: "your" is Eve's (`withCalledListeners`).
    return withCalledListeners(input, (read) => this.#extract(read));
  }

  async #extract(input: ExtractionInput): Promise<ExtractionResult> {
    const u = input.current;
    const names = { ...input.names };
    const display = (id: string): string => names[id] ?? input.unnamed?.[id] ?? UNNAMED;
    const facts: ExtractedFact[] = [];
    const profileUpdates: ProfileUpdate[] = [];
    // "The plumber sent me a quote, I'll forward it…": the report and the plan, each a sentence of its own.
    const listeners = u.addresseeIds.map(display);
    // "Glad to hear it": a pleasantry is no memory.
    const sentences = this.#sentences(u.text).map((s) => withoutVocative(s, listeners)).filter((s) => !pleasantry(this.#nlp, s, listeners))
      .map((s) => withElidedI(this.#nlp, s, listeners)).flatMap((s) => splitPlanClauses(this.#nlp, s));

    // Names first, so every other fact of this turn can use the name just introduced.
    for (const sentence of sentences) {
      for (const f of applyRules(this.#ctx(sentence, u.speakerId, u.addresseeIds, display), [])) {
        if (f.slot === 'name' && f.value) names[u.speakerId] = f.value;
      }
    }
    const who = (): Perspective => ({ speaker: display(u.speakerId), addressees: u.addresseeIds.map(display) });

    for (const [k, raw] of sentences.entries()) {
      if (RETRACT_ALL.test(raw)) {
        const earlier = [...input.previous].reverse().find((p) => p.speakerId === u.speakerId);
        if (earlier) {
          facts.push(this.#fact(u, { content: capitalise(`${display(u.speakerId)} withdrew: ${resolvePronouns(earlier.text, who())}`),
            kind: 'statement', subject: 'speaker', slot: null, value: null, confidence: 0.7 }, true, [earlier.id]));
        }
        continue;
      }
      const found = findDates(raw, u.time);
      const dates = found.filter((d) => !d.duration).map((d) => d.date);
      // When what the sentence tells of happened: its date, a perfect state's start, or today for an act just done.
      const eventTime = eventDate(raw, u.time, found);
      // "Lena moved to Boulder", said by Ben: read as Lena's own "I moved to Boulder", about Lena.
      const reported = reportedAsFirstPerson(this.#nlp, raw, names, u.speakerId);
      const subjectId = reported?.subjectId ?? u.speakerId;
      const text = reported?.text ?? raw;
      const view = reported ? { ...u, speakerId: subjectId, addresseeIds: u.addresseeIds.filter((a) => a !== subjectId) } : u;
      const me = (): Perspective => ({ speaker: display(subjectId), addressees: view.addresseeIds.map(display) });
      // A question withdraws nothing ("do you have any more recipes?").
      const retraction = NEGATION_MARKER.test(text) && !/\?\s*$/.test(text) && !turnedOut(text);
      const ruleText = retraction ? positiveForm(text) : text;
      const rules = applyRules(this.#ctx(ruleText, subjectId, view.addresseeIds, display), dates)
        .filter((f) => !(reported && f.slot === 'name'));
      // A temporary state carries its end ("I can't lift heavy things for a month"): read from the sentence as said.
      const until = stateEnd(raw, u.time);
      const sentenceFacts: ExtractedFact[] = [];
      // Plans said with "we" or "let's": the plan object records that the addressees share them.
      const shared = new Set<ExtractedFact>();
      // "Tom left Hillcrest, he's tutoring full time now", read as Tom's own: the "he" after is Tom too.
      const changeText = reported ? text.replace(/\b(?:he|she)(?:['’]s|\s+is)\b/gi, "I'm").replace(/\b(?:he|she)\b/gi, 'I') : text;
      const change = slotChange(changeText, this.#ctx(text, subjectId, [], display).isNounPhrase);
      // "Jamie has been doing well in maths." / "His reading has slipped a bit": a statement opened by "he / his…" names
      // the person a sentence just before opened with.
      const named = rules.some((f) => f.kind === 'statement' && openingPronoun(f.content)) ? this.#openedBefore(sentences.slice(0, k), input, openingPronoun(text)) : null;
      for (const f0 of rules) {
        // "Their support boosts your motivation" with no one named before: whose is not known, and a thing of no one
        // known is no memory; "his grandad is staying with us" tells of a person all the same.
        if (!named && f0.kind === 'statement' && unownedThing(f0.content)) continue;
        const f = named && f0.kind === 'statement' ? { ...f0, content: withName(f0.content, named) } : f0;
        if ((retraction && f.slot === 'name') || (f.slot === STAY_SLOT && until === null)) continue;
        const slot = change && change.value !== null && f.kind === 'profile' && f.slot === change.slot ? change.slot : f.slot;
        const content = retraction ? this.#render(text, me()) : f.content;
        const made = this.#fact(view, { ...f, slot, content: capitalise(absoluteDates(content, found)) }, retraction, undefined, eventTime);
        sentenceFacts.push(made);
        if (f.shared) shared.add(made);
        if (!retraction && f.profile) {
          profileUpdates.push({ participantId: this.#subjectId(view, f), attribute: f.profile.attribute,
            value: f.profile.value, referIds: [u.id], confidence: f.confidence });
        }
      }
      if (change && !sentenceFacts.some((f) => f.slot === change.slot)) {
        // The slotted fact says what the plain statement said: keep one.
        sentenceFacts.splice(0, sentenceFacts.length, ...sentenceFacts.filter((f) => f.kind !== 'statement' || f.retraction));
        // A slot the rules above missed ("I joined Globex", "I went vegan", "we broke up").
        const ends = change.value === null || retraction;
        // "I'm working at Hooli until Friday": the end is the fact's own (`until`), the memory reads "works at Hooli".
        const told = !ends && until !== null ? withoutUntil(text) : text;
        sentenceFacts.push(this.#fact(view, { content: capitalise(absoluteDates(this.#render(told, me()), found)), kind: change.kind ?? 'profile',
          subject: 'speaker', slot: change.slot, value: change.value, confidence: 0.7 }, ends, undefined, eventTime));
        // "I left Hillcrest, I'm tutoring now" ends the employer; "I handed in my notice" ends the role with it.
        if (change.ends) sentenceFacts[sentenceFacts.length - 1]!.endsSlot = change.ends;
        if (!ends && change.value !== null && change.attribute) {
          profileUpdates.push({ participantId: subjectId, attribute: change.attribute, value: change.value, referIds: [u.id], confidence: 0.7 });
        }
      }
      const settled = retraction && !change ? 'cancelled' : settles(text);
      if (settled && sentenceFacts.length === 0) {
        // "The raised beds are finished": an outcome, recorded as a statement that settles a plan or commitment.
        sentenceFacts.push(this.#fact(view, { content: capitalise(absoluteDates(this.#render(text, me()), found)), kind: 'statement',
          subject: 'speaker', slot: null, value: null, confidence: 0.6 }, false, undefined, eventTime));
      }
      // What a plan, commitment, request, proposal or outcome is about: read once per sentence, as said.
      const open = (f: ExtractedFact): boolean => !f.retraction && (f.slot === null || f.slot.startsWith('plan:'));
      // A cancellation ("I'm not going to sell the bike after all") is a withdrawal that names the plan it cancels.
      const cancels = (f: ExtractedFact): boolean => settled === 'cancelled' && f.slot === null;
      // "My brother is lending me his van, so I won't need a courtesy car": a cancellation is about its own clause.
      // "Coach just texted, the match has been moved to Sunday": a reschedule too.
      const said = settled === 'cancelled' ? cancellingClause(text) : settled === 'instead' ? movedClause(text) ?? text : text;
      const asSaid = sentenceFacts.some((f) => open(f) || cancels(f)) ? readPlanObject(this.#nlp, said) : null;
      // "The new printer is up and running": a done-word outcome whose verb takes no object is about its subject.
      const intransitive = settled === 'done' && asSaid?.verb && asSaid.objects.length === 0 && asSaid.complements.length === 0;
      const planObject = this.#antecedent(intransitive ? readEventObject(this.#nlp, said) : asSaid, said, input);
      // "Lena picked up the cake": an action told as done, with no done-word, settles only a plan of the same verb and object.
      const toldDone = !settled && planObject?.past === true && planObject.verb !== null && !this.#stateNow(text, planObject.verb);
      const outcome = settled ?? (toldDone ? 'done' : null);
      // Told about someone else and theirs alone: a plan ("my sister is going to move to Lyon"), a choice ("our neighbours
      // decided on a dog"), an act on a thing of their own ("my dad fixed his gate"). "Our landlord fixed the heating" may
      // be what the speaker needed done: it stays an outcome for the speaker's plans.
      const by = planObject ? reportedSubject(this.#nlp, said) : null;
      // A new thing they acted on ("my aunt and uncle bought an electric car") and an alternative they plan ("my parents are
      // going to drive instead") are theirs too.
      const theirs = by !== null && (outcome === null || outcome === 'decided' || (outcome === 'instead' && planObject?.past !== true)
        || /\b(?:his|her|hers|their|theirs)\b/i.test(text) || actsOnNewThing(this.#nlp, text));
      const about = (f: ExtractedFact): boolean => cancels(f) || (open(f)
        && (['plan', 'commitment', 'request'].includes(f.kind) || isIntention(f.content) || outcome !== null));
      // "My dentist appointment is on Tuesday", "I've got a match on Saturday": an event told for a day, which a later
      // reschedule or cancellation may settle (`RuleDecider`), carries what it is about.
      const event = (f: ExtractedFact): boolean => outcome === null && f.kind === 'statement' && f.slot === null && !f.retraction
        && Boolean(f.eventTime) && planObject?.past !== true;
      // An event is named by a thing ("the appointment", "book club"): "I have to go now, talk tomorrow" names none.
      const eventRead = sentenceFacts.some(event) ? readEventObject(this.#nlp, said) : null;
      const eventObject = eventRead && eventRead.objects.length > 0 ? eventRead : null;
      for (const f of sentenceFacts) {
        if (event(f) && eventObject) {
          facts.push({ ...f, speakerId: u.speakerId, addresseeIds: u.addresseeIds, validUntil: until, planObject: { ...eventObject, event: true } });
          continue;
        }
        // An act by someone else on no thing of their own ("my parents painted the fence") may settle a plan told about
        // them or one of the speaker's: it carries who did it apart (`doneBy`).
        const told = planObject && by !== null ? { ...planObject, ...(theirs ? { reportedBy: by } : { doneBy: by }) } : planObject;
        const read = told && toldDone ? { ...told, actionNamed: true } : told;
        const object = read && about(f) ? { planObject: shared.has(f) ? { ...read, shared: true } : read } : {};
        const said = { ...f, speakerId: u.speakerId, addresseeIds: u.addresseeIds, validUntil: f.retraction ? null : until, ...object };
        facts.push(outcome && f.slot === null ? { ...said, settles: outcome } : said);
      }
    }
    return { facts, profileUpdates };
  }

  /**
   * Who a "he / she…" opening the current sentence is: walking back over the sentences before it in this turn, then the
   * turns before (latest first), past sentences opened by a pronoun of the same family, to one opened by a name
   * (`subjectName`). Any other sentence between breaks the chain: null.
   */
  #openedBefore(earlier: string[], input: ExtractionInput, family: 'he' | 'she' | null): string | null {
    if (!family) return null;
    const before = [...input.previous].flatMap((p) => this.#sentences(p.text));
    const chain = [...before, ...earlier].reverse().slice(0, 4);
    for (const sentence of chain) {
      const name = subjectName(this.#nlp, sentence);
      if (name) return this.#isName(name, [...before, ...earlier], input.names) ? name : null;
      if (openingPronoun(sentence) !== family) return null;
    }
    return null;
  }

  /**
   * A capitalised word that opens a sentence is a name when it is a participant's, is written capitalised inside a
   * sentence of the context ("I took Max for a walk"), or is no word WordNet lists ("Jamie"); "Things have been tough" is none.
   */
  #isName(name: string, context: string[], names: Record<string, string | null>): boolean {
    const first = name.split(' ')[0]!;
    if (Object.values(names).some((n) => n?.split(' ')[0] === first)) return true;
    const inside = new RegExp(`\\S\\s+${first}\\b`);
    if (context.some((sentence) => inside.test(sentence))) return true;
    const wordnet = defaultWordNet();
    return !(['noun', 'verb', 'adj', 'adv'] as const).some((pos) => wordnet.baseForms(first.toLowerCase(), pos).length > 0);
  }

  /**
   * "Can you order a chocolate cake?" / "Sure, I'll order it today": an action on "it" or "them" takes what it acts on
   * from the turn just before by someone else, when that turn names the same action on a thing.
   */
  #antecedent(object: PlanObject | null, text: string, input: ExtractionInput): PlanObject | null {
    if (!object?.verb || object.objects.length > 0 || !/\b(?:it|them)\b/i.test(text)) return object;
    const before = [...input.previous].reverse().find((p) => p.speakerId !== input.current.speakerId);
    if (!before) return object;
    for (const sentence of this.#sentences(before.text)) {
      const named = readPlanObject(this.#nlp, sentence);
      if (named?.verb === object.verb && named.objects.length > 0) {
        return { ...object, objects: named.objects, complements: object.complements.length > 0 ? object.complements : named.complements };
      }
    }
    return object;
  }

  /**
   * True when the verb's past participle follows a present "be" and "still" ("I'm still stuck on the tests", "the shop is
   * still closed"): a state that holds now, not an action told as done ("the bedroom is painted" may be one).
   */
  #stateNow(text: string, verb: string): boolean {
    const re = /\b(?:am|is|are|['’]m|['’]re)\s+still\s+(?:(?:so|really|totally|completely|a bit|kind of)\s+)*([a-z]+)\b/gi;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      const its = this.#nlp.its;
      const lemma = this.#nlp.readDoc(m[1]!).tokens().out(its.lemma as unknown as typeof its.value)[0];
      if (lemma === verb && m[1]!.toLowerCase() !== verb) return true;
    }
    return false;
  }

  /** A first-person sentence as a third-person fact about the speaker of `who`. */
  #render(text: string, who: Perspective): string {
    const rest = withoutIntroduction(text);
    const said = rest.replace(/[.!]+$/, '').replace(/^(?:(?:well|so|yeah|yes|oh|ok|okay|actually|honestly|and|but)\b[\s,]*)+/i, '');
    return resolvePronouns(conjugateAfterI(this.#nlp, said, who.addressees.length === 1), who);
  }

  #sentences(text: string): string[] {
    return this.#nlp.readDoc(text).sentences().out().map((s) => s.trim()).filter((s) => s.length > 0);
  }

  #ctx(sentence: string, speakerId: string, addresseeIds: string[], display: (id: string) => string): RuleContext {
    const addressees = addresseeIds.map(display);
    return {
      sentence, speakerId, addresseeIds,
      who: { speaker: display(speakerId), addressees, inclusive: inclusiveWe(sentence, { speaker: display(speakerId), addressees }) },
      conjugate: (text) => conjugateAfterI(this.#nlp, text, addresseeIds.length === 1),
      reportsEvent: (text) => reportsEvent(this.#nlp, text),
      tags: (text) => this.#nlp.readDoc(text).tokens().out(this.#nlp.its.pos),
      isNounPhrase: (phrase) => {
        const pos = this.#nlp.readDoc(phrase).tokens().out(this.#nlp.its.pos);
        return pos.length > 0 && ['NOUN', 'PROPN'].includes(pos[pos.length - 1] ?? '');
      },
    };
  }

  #subjectId(u: Pick<ExtractionInput['current'], 'speakerId' | 'addresseeIds'>, f: RuleFact): string {
    if (f.subject === 'speaker') return u.speakerId;
    if (f.subject === 'addressee') return u.addresseeIds[0] ?? u.speakerId;
    return f.subject;
  }

  #fact(u: Pick<ExtractionInput['current'], 'id' | 'speakerId' | 'addresseeIds'>, f: RuleFact, retraction: boolean, retracts?: string[], eventTime: string | null = null): ExtractedFact {
    return {
      eventTime, content: f.content, kind: f.kind, subjectId: this.#subjectId(u, f), speakerId: u.speakerId,
      addresseeIds: u.addresseeIds, slot: f.slot, value: f.value, retraction, confidence: f.confidence,
      referIds: [u.id], ...(retracts ? { retractsUtteranceIds: retracts } : {}),
    };
  }
}
