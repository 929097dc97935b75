import { wink } from '../wink.js';
import type { PlanObject, ProfileUpdate } from '../../graph/memory-store.js';
import { applyRules, relation, withoutIntroduction, type RuleContext, type RuleFact } from './embedded-rules.js';
import { apposedSubject } from './relation-apposition.js';
import { thingSlotKey } from './thing-keys.js';
import { UNNAMED, type ExtractedFact, type ExtractionInput, type ExtractionResult, type Extractor } from './extractor.js';
import { inclusiveWe, resolvePronouns, type Perspective } from './pronouns.js';
import { cancellationNotTold, cancellingClause, dietSaidNot, eventNotOff, habitGivenUp, isIntention, movedClause, settles, slotChange } from './changes.js';
import { actsOnNewThing, readEventObject, readPlanObject } from './plan-object.js';
import { splitPlanClauses } from './clause-split.js';
import { withCapitalI, withJointI, withoutFillers } from './spoken-text.js';
import { forNowClauses } from './for-now-clauses.js';
import { withCalledListeners, withoutAcknowledgement, withoutVocative } from './called-listener.js';
import { acknowledgedNames } from '../speaker/vocatives.js';
import { DEFAULT_ASSISTANT_NAMES } from '../interaction/non-person-labels.js';
import { withoutAssistant } from './assistant-names.js';
import { finishedExtraction } from './finished-facts.js';
import { withContractedIs } from './contracted-is.js';
import { withToldOff } from './told-off.js';
import { withListenerBooked } from './listener-booked.js';
import { withPlannedAhead } from './planned-ahead.js';
import { defaultWordNet } from '../retrieval/wordnet.js';
import { PEOPLE, conjugateAfterI, openingPronoun, reportedAsFirstPerson, reportedSubject, reportsEvent, subjectName, withoutCorrectingNo } from './grammar.js';
import { absoluteDates } from './date-text.js';
import { eventDate, eventOfClause, findDates } from './relative-date.js';
import { eventOfFact } from './clause-dates.js';
import { POINTS_HERE, placeFrom } from './place-here.js';
import { withoutTrailingTag } from './sentence-tags.js';
import { factClauses } from './fact-clauses.js';
import { spokenClauses } from './spoken-clauses.js';
import { openingIntroduction } from './opening-introduction.js';
import { withDayAfterThing } from './day-named-thing.js';
import { stateEnd } from './state-end.js';
import { clauseEnds, endOfFact, type ClauseEnd } from './clause-ends.js';
import { STAY_SLOT, readReportedStay, readStay, withoutUntil } from './stays.js';
import { FOR_NOW_PREFERENCE, forNowPreference, preferenceForATime, preferenceSaidAgain, temporarySlot, unlikeableLiking } from './temporary-slots.js';
import { standingSlot } from './standing-slots.js';
import { staySpan } from './stay-span.js';
import { EMBEDDED_RULES_VERSION } from './embedded-rules-version.js';
import { pleasantry, withElidedI } from './elided-i.js';
import { meetingFormula, withTopicLast } from './meeting-phrases.js';
import { withoutDiscourseTags, withoutLeadingWords } from './discourse-tags.js';
import { namedOnce } from './fact-names.js';
import { namedPeople, withoutOpeningPronoun } from './opening-pronouns.js';
import { objectNamer } from './object-pronouns.js';
import { genderIn } from './pronoun-gender.js';
import { withoutApology, withoutCourtesyTail, withoutPhatic } from './call-phrases.js';
import { withApologyCall } from './apology-call.js';
import { withCalledAddressee } from './called-addressee.js';
import { joinedParts, partsCalled } from './later-call.js';
import { withHeardPlaces } from './heard-places.js';
import { statedIdentifier } from './identifiers.js';
import { withoutSecretClause } from '../../graph/spoken-secrets.js';
import { withSpokenValues } from './spoken-values.js';
import { statedAddress } from './delivery-address.js';
import { statedAttribute } from './stated-attribute.js';
import { acceptedProposal } from './accepted-proposal.js';
import { declinedOffer, offerFact } from './offers.js';
import { choiceWithRefusal, chosenFirst, refusal, withoutRefused } from './turned-down.js';
import { oneAgreeing, theyAgreeing } from './verb-agreement.js';
import { isWithdrawal, rememberedStatement } from './listener-asks.js';
import { withAllergyCorrected } from './allergy-correction.js';

export { EMBEDDED_RULES_VERSION } from './embedded-rules-version.js';
export { pleasantry, withElidedI } from './elided-i.js';
export { CALLER, UNNAMED } from './extractor.js';

const RETRACT_ALL = /^(?:(?:oh|ah|sorry|wait|actually|no),?\s+)*(?:please\s+)?(?:cancel|forget|scratch|scrap|ignore|disregard)\s+(?:that|it|what i (?:just )?said|the last thing)\b|^(?:oh,?\s+)?never ?mind\b/i;
/**
 * "Scratch that, I won't go to Oslo": the withdrawal and the clause that replaces what was withdrawn, two sentences. After
 * a comma, dash or colon any clause; unpunctuated ("scrap that i'm staying home") only a clause opening with a subject
 * pronoun, after "scrap / scratch that" alone ("forget that i said it" is one clause).
 */
const RETRACTION_LEAD = /^((?:(?:oh|ah|sorry|wait|actually|no),?\s+)*(?:please\s+)?(?:cancel|forget|scratch|scrap|ignore|disregard)\s+(?:that|it|what i (?:just )?said|the last thing))\b(.*)$/i;

/** `sentence` as the withdrawal it opens with and the clause after it ("Scratch that, I'll stay"); else itself. */
function retractionAndClause(sentence: string): string[] {
  const m = RETRACTION_LEAD.exec(sentence);
  if (!m) return [sentence];
  const [, lead, after] = m as unknown as [string, string, string];
  const punctuated = /^\s*[,;:\u2013\u2014-]+\s*(\S.*)$/.exec(after);
  const bare = /^\s+((?:I|we)\b.*)$/i.exec(after);
  const clause = punctuated?.[1] ?? (bare && /(?:scrap|scratch)\s+that$/i.test(lead) ? bare[1] : undefined);
  return clause ? [lead, capitalise(clause)] : [sentence];
}
/**
 * "… anymore", "no longer", "after all": the sentence withdraws something. "Any more suggestions" and
 * "after all these games" (a determiner before a noun) withdraw nothing.
 */
const NEGATION_MARKER = /\b(?:anymore|no longer|(?:any more|after all)(?=\s*(?:[,.;!]|$)))|\b(?:stopped|quit|gave\s+up|given\s+up)\s+being\s+(?:a|an)\b/i;
/**
 * "I don't smoke now", "I'm not vegan now, I eat fish again", "I don't live with my parents now": a negated clause that
 * ends with "now" withdraws what it denies, as "anymore" does (rules 41). Not "right now", "for now", "just now", "by
 * now", "until now" (a moment, not an ending), and not a negation said of what one can do ("I can't talk now").
 */
const NOW_ENDED = /\b(?:I\s+(?:don['’]t|do\s+not)|I(?:['’]m|\s+am)\s+not)\s+(?:[\w'’-]+\s+){0,6}?(?<!\b(?:right|for|just|by|until|till|up\s+to|from)\s+)now(?=\s*(?:[,.;!]|$))/i;
/** "I don't smoke now", "I don't drink now": a habit denied with nothing after the verb, a withdrawal of it (rules 41b). */
const BARE_HABIT_NOW = /\bI\s+(?:don['’]t|do\s+not)\s+[a-z]+\s+now\s*(?:[,.;!]|$)/i;

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
    // "I stopped being a lifeguard": "I am a lifeguard", withdrawn (rules 41).
    .replace(/\b(?:stopped|quit|gave\s+up|given\s+up)\s+being\s+(?=(?:a|an)\b)/i, 'am ')
    .replace(NOW_ENDED, (m) => m.replace(/\s+now$/i, ''))
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

/** Options of {@link EmbeddedExtractor}. */
export interface EmbeddedExtractorOptions {
  /**
   * The names the assistant listening is called by (`PARLEY_ASSISTANT_NAMES`; default `DEFAULT_ASSISTANT_NAMES`): never a
   * listener, nor one of "we", and no part of a fact's text. Empty: none.
   */
  assistantNames?: readonly string[];
}

/**
 * Joint fact / profile extraction without an LLM: wink-nlp sentence splitting and POS tags, plus
 * hand-written rules for introductions, preferences, plans and dates, commitments and requests,
 * relations between people, and background. Relative dates are resolved against the utterance time.
 */
export class EmbeddedExtractor implements Extractor {
  readonly source = `embedded-rules/${EMBEDDED_RULES_VERSION}`;
  readonly #nlp = wink();
  readonly #assistants: readonly string[];

  constructor(options: EmbeddedExtractorOptions = {}) {
    this.#assistants = options.assistantNames ?? DEFAULT_ASSISTANT_NAMES;
  }

  extract(said: ExtractionInput): Promise<ExtractionResult> {
    // "Robot, we are going to grandma's": the assistant called is no listener and no one's "we" (fix9).
    const input = withoutAssistant(said, this.#assistants);
    // "Thanks Liam. Chen, can you review the pull request?": each part said to the one it calls (rules 84).
    const parts = partsCalled(input);
    if (parts) return Promise.all(parts.map((part) => this.extract(part))).then(joinedParts);
    // "Eve, I'll water your plants", said to no one present: "your" is Eve's (`withCalledListeners`).
    // "i am sorry james i will process your refund": "your" is James's, the listener no one had named (fix7b).
    // "i moved to leave my new…", misheard: no home is filled with words that name no place (fix7b).
    const called = withApologyCall(input);
    // Finished as every extractor's facts are (finished-facts.ts): what the rules wrote passes unchanged.
    // "Tom, I changed your order to size 56", said to Maria and Tom: "your" is Tom's (reviewB #8; `withCalledAddressee`).
    return withCalledAddressee(called, (said, room) => withCalledListeners(said, (read) => this.#extract(read, room))).then((r) => finishedExtraction(withHeardPlaces(r, input.current), input));
  }

  /** `room`: everyone the turn was said to, when a vocative narrowed its addressees to one of them (for "we"). */
  async #extract(input: ExtractionInput, room: readonly string[] = []): Promise<ExtractionResult> {
    const u = input.current;
    const names = { ...input.names };
    const display = (id: string): string => names[id] ?? input.unnamed?.[id] ?? UNNAMED;
    const facts: ExtractedFact[] = [];
    const profileUpdates: ProfileUpdate[] = [];
    // "The plumber sent me a quote, I'll forward it…": the report and the plan, each a sentence of its own.
    const listeners = u.addresseeIds.map(display);
    // "Done Tom, your repair is booked", to a caller not named yet or to no one known: the name an acknowledgement
    // calls is no part of the fact, whoever holds it (trial11 F5).
    const calledListeners = [...listeners, ...acknowledgedNames(u.text)];
    // "Glad to hear it": a pleasantry is no memory; nor is a meeting's formula ("thanks everyone, see you next week",
    // "let's go through the action items") or a bare reaction ("that seems like a lot"; trial10 F5).
    // "About the budget, I changed my mind": the topic said first goes after the clause (meeting-phrases.ts).
    // "i guess i start monday", as a recogniser writes it: the pronoun read as "I" (rules 38).
    // "No, Dora moved back to Paris": a correction, told as the statement after it (rules 44).
    // "By the way, I work at the library": a discourse tag is no part of what a turn tells (text5).
    // "Scratch that, I'll stay in Leeds": the withdrawal, then the clause that replaces it (rules 47).
    // "thank you for calling brightside how can i help you", "i am sorry james": said out of politeness (fix7b).
    // "Maya's allergic to peanuts": "'s" read as "is" after a name or noun where no noun follows (fix9).
    // "the concerts off on friday", "I called the concert off": "the concert is off…", "I called off the concert" (rules 115).
    // "No coffee for me, thanks": "I turned down coffee"; "I'll have not coffee but tea": "I'll have tea, not coffee" (text6).
    // "No thanks" after "Want me to book a table?": the offer turned down, and the rest of the turn read as said (rules 49).
    // "my order number is five five two zero", "I live at twelve elm street": a value said in words read as digits (rules 55).
    // "cancel my Thursday cleaning": "cancel my cleaning on Thursday", the thing and its day apart (trial12 F11).
    // "I've booked you in with Dr. Patel": "you're booked in with Dr. Patel", the listener's booking (rules 90).
    // "We planned a trip to Lisbon in May": "we are planning…", a plan for the coming May (rules 90).
    const clean = (text: string): string[] => this.#sentences(withDayAfterThing(this.#nlp, withoutDiscourseTags(withJointI(withCapitalI(withoutPhatic(
      withContractedIs(this.#nlp, withToldOff(withPlannedAhead(withListenerBooked(withSpokenValues(withoutFillers(text))))))))))));
    const declined = declinedOffer(this.#nlp, input, display, clean);
    if (declined) {
      facts.push({ ...this.#fact(u, { content: declined.content, kind: 'statement', subject: 'speaker', slot: null, value: null, confidence: 0.6 },
        false, undefined, declined.eventTime), ...(declined.closesOffer ? { settles: 'cancelled' as const, planObject: declined.planObject } : {}) });
    }
    // "Should we use Postgres for the billing service?" / "Yeah, Postgres is fine.": in a meeting, the group's decision;
    // the turn says nothing else (teamleft).
    const accepted = declined ? null : acceptedProposal(this.#nlp, input, display, clean);
    if (accepted) {
      const made = this.#fact(u, { content: accepted.content, kind: 'plan', subject: 'speaker', slot: null, value: null, confidence: 0.6 }, false, undefined, accepted.eventTime);
      return { facts: this.#written([{ ...made, planObject: accepted.planObject }], input, display), profileUpdates: [] };
    }
    // "robot forget what i just said": the withdrawal rules 47 reads, said as "cancel that" (trial 9).
    // "Please remember that I am allergic to nuts": the statement asked to be kept, the speaker's own (trial 9).
    const called = [...this.#assistants, ...listeners];
    // "So it's 12 Elm Street?" / "Okay, that's right": a reaction to a question is its answer, no meeting's formula (review12 F9).
    const afterQuestion = /\?/.test([...input.previous].reverse().find((p) => p.speakerId !== u.speakerId)?.text ?? '');
    // The turn before is split, and each sentence tagged, once for the whole turn, and only for a sentence with an object
    // pronoun (rules 60's window).
    let before: string[] | undefined;
    const turnBefore = (): string[] => (before ??= this.#turnBefore(input));
    const withObjectNamed = objectNamer(this.#nlp);
    const sentences = clean(declined ? declined.rest : u.text).flatMap(retractionAndClause)
      .map((s) => (isWithdrawal(s, called) ? 'Cancel that.' : withoutCourtesyTail(withoutApology(withoutPhatic(s), listeners)))).filter((s) => s.length > 0)
      .map((s) => { const said = withTopicLast(withoutCorrectingNo(withoutAcknowledgement(withoutVocative(s, calledListeners)))); const told = withAllergyCorrected(rememberedStatement(said, called) ?? said); return refusal(told) ?? chosenFirst(told); })
      // "my PIN is double seven three one", "my password is sunshine": a secret is no memory (rules 55, 56); a clause before it is (62).
      .map((s) => withoutSecretClause(this.#nlp, s))
      .filter((s) => s.length > 0 && !pleasantry(this.#nlp, s, listeners) && !meetingFormula(s, afterQuestion))
      .map((s) => withElidedI(this.#nlp, s, listeners)).flatMap((s) => splitPlanClauses(this.#nlp, s))
      // "I love jazz, but for now I'm into techno": the liking held for now is its own clause's (rules 38).
      .flatMap(forNowClauses)
      // "Someone needs to handle the vendor contract." / "I can take it": "I can take the vendor contract" (trial10 F4). Not
      // "cancel that": it withdraws what was just said (`RETRACT_ALL`), not a thing in it.
      .map((s, k, all) => (RETRACT_ALL.test(s) ? s : withObjectNamed(s, () => [...turnBefore(), ...all.slice(0, k)])));

    // Names first, so every other fact of this turn can use the name just introduced.
    for (const sentence of sentences) {
      for (const f of applyRules(this.#ctx(sentence, u.speakerId, u.addresseeIds, display, undefined, room), [])) {
        if (f.slot === 'name' && f.value) names[u.speakerId] = f.value;
      }
    }
    const who = (): Perspective => this.#perspective(u.speakerId, u.addresseeIds, display, room);
    // "I love this city": where the speaker is, as told before ("I live in Porto, and I love this city"; rules 40).
    const pointsHere = POINTS_HERE.test(u.text);
    let here = pointsHere ? this.#placeBefore(input, display) : null;

    for (const [k, raw] of sentences.entries()) {
      if (RETRACT_ALL.test(raw)) {
        const earlier = [...input.previous].reverse().find((p) => p.speakerId === u.speakerId);
        if (earlier) {
          facts.push(this.#fact(u, { content: capitalise(`${display(u.speakerId)} withdrew: ${resolvePronouns(earlier.text, who())}`),
            kind: 'statement', subject: 'speaker', slot: null, value: null, confidence: 0.7 }, true, [earlier.id]));
        }
        continue;
      }
      // "yes my order number is four five seven two one": the number, joined, is the speaker's (fix7b).
      const identifier = statedIdentifier(raw);
      if (identifier) {
        const owner = identifier.owner === 'speaker' ? u.speakerId : u.addresseeIds[0];
        if (owner) {
          const made = this.#fact(u, { content: `${capitalise(display(owner))}'s ${identifier.what} is ${identifier.value}`, kind: 'profile',
            subject: identifier.owner, slot: identifier.slot, value: identifier.value, confidence: 0.8 }, false);
          // "my new order number is…": it replaces the numbers of its kind held (rules 49); else it is kept beside them.
          if (identifier.replaces) made.endsSlot = identifier.replaces;
          facts.push(made);
          profileUpdates.push({ participantId: owner, attribute: identifier.slot, value: identifier.value, referIds: [u.id], confidence: 0.8 });
        }
        continue;
      }
      // "my delivery address is now 22 Quay Street, Bath": one address, town kept, a newer one replacing it (trial 8).
      const address = statedAddress(raw);
      const addressOwner = address && (address.owner === 'speaker' ? u.speakerId : u.addresseeIds[0]);
      if (address && addressOwner) {
        facts.push(this.#fact(u, { content: `${capitalise(display(addressOwner))}'s ${address.what} is ${address.value}`, kind: 'profile',
          subject: address.owner, slot: address.slot, value: address.value, confidence: 0.8 }, false));
        profileUpdates.push({ participantId: addressOwner, attribute: address.slot, value: address.value, referIds: [u.id], confidence: 0.8 });
        continue;
      }
      // "Want me to book a table?": an offer, open until done or turned down (rules 49).
      const offer = offerFact(this.#nlp, raw, who(), u.time);
      if (offer) {
        facts.push({ ...this.#fact(u, { content: capitalise(offer.content), kind: 'commitment', subject: 'speaker', slot: null, value: null,
          confidence: 0.6 }, false, undefined, offer.eventTime), planObject: offer.planObject });
        continue;
      }
      const found = findDates(raw, u.time);
      const dates = found.filter((d) => !d.duration).map((d) => d.date);
      // When what the sentence tells of happened: its date, a perfect state's start, or today for an act just done.
      const eventTime = eventDate(raw, u.time, found);
      // "Lena moved to Boulder", said by Ben: read as Lena's own "I moved to Boulder", about Lena.
      // "My wife Maria ordered the road bike", Maria a participant: read as Maria's own, about Maria (trial11 F6).
      const apposed = apposedSubject(raw, names, u.speakerId);
      const apposedReport = apposed === null ? null : reportedAsFirstPerson(this.#nlp, apposed, names, u.speakerId);
      const reported = apposedReport ?? reportedAsFirstPerson(this.#nlp, raw, names, u.speakerId);
      const subjectId = reported?.subjectId ?? u.speakerId;
      const text = reported?.text ?? raw;
      const view = reported ? { ...u, speakerId: subjectId, addresseeIds: u.addresseeIds.filter((a) => a !== subjectId) } : u;
      const me = (): Perspective => this.#perspective(subjectId, view.addresseeIds, display, room);
      // A question withdraws nothing ("do you have any more recipes?").
      // "I don't eat meat anymore" takes up a diet, withdrawing nothing (rules 38).
      // "The concert wasn't cancelled after all": a cancellation denied withdraws nothing (`cancellationNotTold`; rules 106).
      // "Now" alone withdraws only a habit denied bare ("I don't smoke now") or a slot value its positive form names ("I
      // don't live with my parents now"): not a mood ("i'm not sure now", "i'm not hungry now"), nor a habit qualified ("i
      // don't smoke in the house now"; rules 41b). It cancels no plan, and ends the slot only where it holds that value.
      const nowOnly = NOW_ENDED.test(text) && !NEGATION_MARKER.test(text);
      const nowNamesSlot = (): boolean => {
        const positive = positiveForm(text);
        return slotChange(positive, this.#ctx(positive, subjectId, [], display).isNounPhrase)?.value != null
          || applyRules(this.#ctx(positive, subjectId, view.addresseeIds, display, u.time, room), dates).some((f) => f.slot !== null && f.value !== null);
      };
      // "i quit vaping last year": a habit given up ends the habit held, and is told as done (rules 42).
      const habit = habitGivenUp(text) !== null && !/\?\s*$/.test(text);
      const retraction = habit || ((NEGATION_MARKER.test(text) || (NOW_ENDED.test(text) && (BARE_HABIT_NOW.test(text) || nowNamesSlot())))
        && !/\?\s*$/.test(text) && !turnedOut(text) && !dietSaidNot(text) && !cancellationNotTold(text) && !eventNotOff(text));
      const ruleText = retraction ? positiveForm(text) : text;
      const ruled = (at: string | null): RuleFact[] => applyRules({ ...this.#ctx(ruleText, subjectId, view.addresseeIds, display, u.time, room), here: at ?? undefined }, dates)
        .filter((f) => !(reported && f.slot === 'name'));
      let rules = ruled(reported ? null : here);
      // "I live in Porto and I love this city": the place told in the sentence itself.
      const toldHere = pointsHere && !reported && !retraction ? placeFrom(rules.map((f) => ({ ...f, retraction }))) : null;
      if (toldHere && toldHere !== here) rules = ruled(toldHere);
      // A temporary state carries its end ("I can't lift heavy things for a month"): read from the sentence as said.
      // A stay's span by its words ("the weekend", "over Easter", "next month … for two weeks": counted from its start).
      const span = readStay(text) ?? readReportedStay(text) ? staySpan(text, u.time) : null;
      const until = span?.end ?? stateEnd(raw, u.time);
      // "I'm working from home, and I'm a postman over the holidays": a fact ends as the clause that says its value (rules 36).
      // A stay's span ends the stay (and a fact with no value), not the job or liking said beside it (rules 37).
      let clauses: ClauseEnd[] | null = null;
      const endOf = (f: ExtractedFact): string | null => (f.slot === STAY_SLOT || !f.value
        ? until : endOfFact(raw, clauses ??= clauseEnds(raw, u.time), f.slot, f.value, span ? stateEnd(raw, u.time) : until));
      const sentenceFacts: ExtractedFact[] = [];
      // Plans said with "we" or "let's": the plan object records that the addressees share them.
      const shared = new Set<ExtractedFact>();
      // "Tom left Hillcrest, he's tutoring full time now", read as Tom's own: the "he" after is Tom too.
      const changeText = reported ? text.replace(/\b(?:he|she)(?:['’]s|\s+is)\b/gi, "I'm").replace(/\b(?:he|she)\b/gi, 'I') : text;
      // "I don't live with my parents now": a withdrawal ends the slot its positive form fills (rules 41).
      // A habit given up fills no slot: "vaping" is no employer left, "drinking" no liking (rules 42).
      const change = habit ? null : slotChange(changeText, this.#ctx(text, subjectId, [], display).isNounPhrase)
        ?? (retraction && !reported ? slotChange(ruleText, this.#ctx(ruleText, subjectId, [], display).isNounPhrase) : null);
      if (pointsHere && !reported) here = placeFrom([...rules, ...(change ? [change] : [])].map((f) => ({ ...f, retraction }))) ?? here;
      // "Jamie has been doing well in maths." / "His reading has slipped a bit": a statement opened by "he / his…" names
      // the person a sentence just before opened with.
      const named = rules.some((f) => f.kind === 'statement' && openingPronoun(f.content)) ? this.#openedBefore(sentences.slice(0, k), input, openingPronoun(text)) : null;
      for (const f0 of rules) {
        // "Their support boosts your motivation" with no one named before: whose is not known, and a thing of no one
        // known is no memory; "his grandad is staying with us" tells of a person all the same.
        if (!named && f0.kind === 'statement' && unownedThing(f0.content)) continue;
        const f = named && f0.kind === 'statement' ? { ...f0, content: withName(f0.content, named) } : f0;
        if ((retraction && f.slot === 'name') || (f.slot === STAY_SLOT && until === null)) continue;
        // A stay said ahead holds from its start (rules 30); with no start read ("from Monday" with no end), the plan alone.
        if (f.ahead && (retraction || !span?.start)) continue;
        const slot = change && change.value !== null && f.kind === 'profile' && f.slot === change.slot ? change.slot : f.slot;
        const content = retraction ? this.#render(text, me()) : f.content;
        const made = this.#fact(view, { ...f, slot, content: capitalise(absoluteDates(content, found)) }, retraction, undefined,
          eventOfClause(content, raw, u.time, found) ?? eventTime);
        if (f.ahead && span?.start) made.validFrom = span.start;
        sentenceFacts.push(made);
        if (f.shared) shared.add(made);
        if (!retraction && f.profile) {
          profileUpdates.push({ participantId: this.#subjectId(view, f), attribute: f.profile.attribute,
            value: f.profile.value, referIds: [u.id], confidence: f.confidence });
        }
      }
      if (change && !sentenceFacts.some((f) => f.slot === change.slot)) {
        // A slot the rules above missed ("I joined Globex", "I went vegan", "we broke up").
        const ends = change.value === null || retraction || change.withdrawn === true;
        // The slotted fact says what the plain statement said: keep one (a withdrawal it ends too: "I don't live with my
        // parents now" is the end of the home alone; rules 41).
        sentenceFacts.splice(0, sentenceFacts.length, ...sentenceFacts.filter((f) => f.kind !== 'statement' || (f.retraction && !(retraction && f.slot === null))));
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
      // "I'm on a juice cleanse for a few days": a temporary state left as a statement fills its lasting form's slot (rules 30).
      const temporary = until !== null && !retraction && !sentenceFacts.some((f) => f.slot !== null)
        ? temporarySlot(text, this.#ctx(text, subjectId, [], display).isNounPhrase) : null;
      const plain = temporary ? sentenceFacts.findIndex((f) => f.kind === 'statement') : -1;
      if (temporary && plain >= 0) sentenceFacts[plain] = { ...sentenceFacts[plain]!, kind: temporary.kind ?? 'profile', slot: temporary.slot, value: temporary.value };
      // "We're on strike", "I swim", "I play tennis on Sundays": a standing value no other rule gave a slot (rules 31).
      const standing = !temporary && !retraction && !sentenceFacts.some((f) => f.slot !== null) ? standingSlot(text) : null;
      if (standing) {
        const rest = sentenceFacts.filter((f) => f.kind !== 'statement');
        const content = capitalise(standing.says ? `${me().speaker} ${standing.says}` : absoluteDates(this.#render(text, me()), found));
        sentenceFacts.splice(0, sentenceFacts.length, ...rest, this.#fact(view, { content, kind: standing.kind, subject: 'speaker',
          slot: standing.slot, value: standing.value, confidence: 0.7 }, false, undefined, eventTime));
        if (standing.kind === 'profile') profileUpdates.push({ participantId: subjectId, attribute: standing.slot, value: standing.value, referIds: [u.id], confidence: 0.7 });
      }
      // "My insurance is Humana", "I switched my insurance to Kaiser": an attribute of the speaker's with its value is one slot,
      // so a later value replaces it, "now" said or not (rules 66). The statement read says it; else it is written.
      const attribute = !temporary && !standing && !retraction && !reported && !sentenceFacts.some((f) => f.slot !== null)
        ? statedAttribute(text, this.#ctx(text, subjectId, [], display).isNounPhrase) : null;
      if (attribute) {
        const holds = (f: ExtractedFact): boolean => (f.kind === 'statement' || f.kind === 'profile') && f.content.toLowerCase().includes(attribute.value.toLowerCase());
        const at = sentenceFacts.findIndex(holds);
        const filled = { slot: attribute.slot, value: attribute.value };
        if (at >= 0) sentenceFacts[at] = { ...sentenceFacts[at]!, ...filled };
        else {
          sentenceFacts.push(this.#fact(view, { content: `${capitalise(me().speaker)}'s ${attribute.what} is ${attribute.value}`, kind: 'profile',
            subject: 'speaker', ...filled, confidence: 0.7 }, false, undefined, eventTime));
        }
      }
      // "For now I prefer green tea", "these days I'm drinking decaf": a preference held for now, beside the lasting ones (rules 33).
      // "This week I'm really into techno", "I prefer tea for the next few days": the same, with its end (rules 34).
      const likingOnly = !retraction && !standing && !temporary && sentenceFacts.every((f) => f.slot === null || f.slot.startsWith('preference:'));
      const forNow = likingOnly ? (until === null ? forNowPreference(text) : preferenceForATime(text)) : null;
      // "I'm back on regular coffee": a lasting liking said again ends the one held for now (rules 34).
      const again = likingOnly && !forNow && until === null ? preferenceSaidAgain(text) : null;
      if (forNow ?? again) {
        const rest = sentenceFacts.filter((f) => f.kind !== 'statement' && f.slot === null);
        const made = this.#fact(view, { content: capitalise(absoluteDates(this.#render(text, me()), found)), kind: 'preference', subject: 'speaker',
          slot: forNow ? FOR_NOW_PREFERENCE : `preference:${thingSlotKey(again!)}`, value: forNow ?? 'like', confidence: 0.7 }, false, undefined, eventTime);
        if (again) made.endsSlot = FOR_NOW_PREFERENCE;
        sentenceFacts.splice(0, sentenceFacts.length, ...rest, made);
      } else if (likingOnly && unlikeableLiking(text, until !== null)) {
        // "For now I like the plan", "I prefer Tuesday for now": an opinion of the moment, told as said, no preference (rules 35).
        sentenceFacts.splice(0, sentenceFacts.length, ...sentenceFacts.map((f) => (f.kind === 'preference' ? { ...f, kind: 'statement' as const, slot: null, value: null } : f)));
        // "For now I'm listening to a podcast": nothing else was read; the sentence is told as said.
        if (sentenceFacts.length === 0) {
          sentenceFacts.push(this.#fact(view, { content: capitalise(absoluteDates(this.#render(text, me()), found)), kind: 'statement',
            subject: 'speaker', slot: null, value: null, confidence: 0.5 }, false, undefined, eventTime));
        }
      }
      // A habit given up is done, not a plan cancelled: it settles "I'm going to quit vaping" (rules 42).
      const settled = habit ? 'done' : retraction && !change && !nowOnly ? 'cancelled' : settles(text);
      if ((settled || (retraction && nowOnly)) && sentenceFacts.length === 0) {
        // "The raised beds are finished": an outcome, recorded as a statement that settles a plan or commitment. "I don't
        // smoke now": a withdrawal too, of what it denies when no plan is cancelled by it (rules 41).
        sentenceFacts.push(this.#fact(view, { content: capitalise(absoluteDates(this.#render(text, me()), found)), kind: 'statement',
          subject: 'speaker', slot: null, value: null, confidence: 0.6 }, retraction, undefined, eventTime));
      }
      // "I want tea, not coffee": the fact is the choice, and the thing turned down one of its own (text6).
      if (choiceWithRefusal(text)) this.#refusedApart(sentenceFacts, (refused) => this.#fact(view, { content: capitalise(this.#render(
        `${/^\W*we\b/i.test(text) ? 'We' : 'I'} turned down ${refused}`, { ...me(), inclusive: inclusiveWe(text, me()) })), kind: 'statement', subject: 'speaker', slot: null, value: null, confidence: 0.6 },
      false, undefined, eventTime));
      // The relation the apposition told is the speaker's, beside the clause read as the other person's ("Maria is Luis's wife").
      if (apposedReport) sentenceFacts.push(...relation(this.#ctx(raw, u.speakerId, u.addresseeIds, display, u.time)).map((f) => this.#fact(u, f, false)));
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
          facts.push({ ...f, speakerId: u.speakerId, addresseeIds: u.addresseeIds, validUntil: endOf(f), planObject: { ...eventObject, event: true } });
          continue;
        }
        // An act by someone else on no thing of their own ("my parents painted the fence") may settle a plan told about
        // them or one of the speaker's: it carries who did it apart (`doneBy`).
        const told = planObject && by !== null ? { ...planObject, ...(theirs ? { reportedBy: by } : { doneBy: by }) } : planObject;
        const read = told && toldDone ? { ...told, actionNamed: true } : told;
        const object = read && about(f) ? { planObject: shared.has(f) ? { ...read, shared: true } : read } : {};
        // "My sister Mia is in Rome until Friday": the stay ends then, not Mia being the sister (rules 29).
        // "Hi, I'm Dana, and next week I start a new job": a fact's date is its own clause's (rules 39).
        const eventTime = f.slot ? eventOfFact(raw, clauses ??= clauseEnds(raw, u.time), f.slot, f.value, found, u.time, f.eventTime ?? null) : f.eventTime;
        const said = { ...f, eventTime, speakerId: u.speakerId, addresseeIds: u.addresseeIds, validUntil: f.retraction || f.kind === 'relation' ? null : endOf(f), ...object };
        facts.push(outcome && f.slot === null ? { ...said, settles: outcome } : said);
      }
    }
    return { facts: this.#written(facts, input, display), profileUpdates };
  }

  /** `facts` of a choice told without the thing turned down, which `turnedDown` makes a fact of its own (once). */
  #refusedApart(facts: ExtractedFact[], turnedDown: (refused: string) => ExtractedFact): void {
    let refused: string | null = null;
    for (const [i, f] of facts.entries()) {
      const apart = f.retraction ? null : withoutRefused(f.content);
      if (!apart) continue;
      facts[i] = { ...f, content: apart.kept };
      refused ??= apart.refused;
    }
    if (refused) facts.push(turnedDown(refused));
  }

  /**
   * The facts as a person would write them (text5): a subject named once ("Ana can't lift heavy things, they hurt their
   * back"), and none opening with a bare pronoun: "She did…" tells of the one person the previous turns name, else it
   * is dropped.
   */
  #written(facts: ExtractedFact[], input: ExtractionInput, display: (id: string) => string): ExtractedFact[] {
    let people: string[] | null = null;
    const participants = [input.current.speakerId, ...input.current.addresseeIds, ...input.previous.map((p) => p.speakerId)].map(display);
    return facts.flatMap((f) => {
      // The previous turns are read for names only when a fact opens with a pronoun.
      // Named once after the opening pronoun is told (the name it takes may be said again later in the fact).
      const content = withoutOpeningPronoun(f.content,
        () => (people ??= namedPeople(this.#nlp, input.previous.map((p) => withCapitalI(p.text)), participants)),
        // "My brother Ben…" / "She met him…": the conversation's own cues to "he" or "she" (rules 49).
        (name) => genderIn(name, [...input.previous.map((p) => withCapitalI(p.text)), input.current.text]));
      if (content === null) return [];
      // "They love it there" told of one person: "Nora loves it there"; "they likes": "they like" (text6).
      const one = /^they\b/i.test(f.content) && people?.length === 1 ? oneAgreeing(this.#nlp, content, people[0]!) : content;
      return [{ ...f, content: theyAgreeing(this.#nlp, namedOnce(this.#nlp, one)) }];
    });
  }

  /** The sentences of the turn just before the current one, in its session: where an object pronoun's thing may be named. */
  #turnBefore(input: ExtractionInput): string[] {
    const before = input.previous.at(-1);
    return before && before.sessionId === input.current.sessionId ? this.#sentences(withCapitalI(withoutFillers(before.text))) : [];
  }

  /**
   * Where the speaker last told they live or stay in their turns before this one (latest first), as a place name; a
   * sentence with a negation ("I don't live in Leeds anymore") tells of no place.
   */
  #placeBefore(input: ExtractionInput, display: (id: string) => string): string | null {
    const own = input.previous.filter((p) => p.speakerId === input.current.speakerId);
    for (const p of [...own].reverse()) {
      for (const sentence of this.#sentences(withCapitalI(withoutFillers(p.text))).reverse()) {
        if (/\b(?:not|no longer|never)\b|n['’]t\b/i.test(sentence)) continue;
        const told = [...applyRules(this.#ctx(sentence, p.speakerId, p.addresseeIds, display, p.time), []),
          ...[slotChange(sentence, this.#ctx(sentence, p.speakerId, [], display).isNounPhrase)].filter((c) => c !== null)];
        const place = placeFrom(told.map((f) => ({ slot: f.slot, value: f.value, retraction: false })));
        if (place) return place;
      }
    }
    return null;
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
    const said = withoutLeadingWords(rest);
    return resolvePronouns(conjugateAfterI(this.#nlp, said, who.addressees.length === 1), who);
  }

  #sentences(text: string): string[] {
    // "i'll send you the contract on friday ... promise": the tag after it is no part of the sentence (rules 39).
    // "I live in Oslo and I work as a nurse": each fact its own sentence (rules 39).
    // "i live in lisbon now last week i went hiking", unpunctuated: each clause its own sentence (rules 44).
    // "hello this is nina cole please send it…": the introduction that opens a call, a sentence of its own (calls2).
    return this.#nlp.readDoc(text).sentences().out().map((s) => withoutTrailingTag(s.trim())).filter((s) => s.length > 0)
      .flatMap(openingIntroduction).flatMap(spokenClauses).flatMap(factClauses);
  }

  /**
   * Who "I", "you" and "we" are: `speakerId` to `addresseeIds`, with `room` (ids) the people "we" takes in when a
   * vocative narrowed the addressees to one of them (called-addressee.ts).
   */
  #perspective(speakerId: string, addresseeIds: readonly string[], display: (id: string) => string, room: readonly string[] = []): Perspective {
    const addressees = addresseeIds.map(display);
    const all = room.filter((id) => id !== speakerId);
    return { speaker: display(speakerId), addressees, ...(addressees.length > 0 && all.length > addressees.length ? { room: all.map(display) } : {}) };
  }

  #ctx(sentence: string, speakerId: string, addresseeIds: string[], display: (id: string) => string, time?: string, room: readonly string[] = []): RuleContext {
    const who = this.#perspective(speakerId, addresseeIds, display, room);
    return {
      sentence, speakerId, addresseeIds, time,
      who: { ...who, inclusive: inclusiveWe(sentence, who) },
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
