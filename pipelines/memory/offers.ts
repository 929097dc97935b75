/**
 * An offer and its refusal (rules 49): "Want me to book a table?", "Shall I call the plumber?", "Would you like me to
 * order a cake?" offer the speaker's act to the listener; a bare refusal in the listener's next turn ("No thanks", "I'll
 * pass", "No need", "I'm good, thanks") declines it, so the offer closes instead of staying an open promise. Before,
 * the offer left no fact or a garbled request ("Ana asked Tom to like Ana to order a cake") and "I'll pass" became a
 * promise ("Tom will pass").
 */

import type { PlanObject } from '../../graph/memory-store.js';
import type { Wink } from '../wink.js';
import { absoluteDates } from './date-text.js';
import type { ExtractionInput } from './extractor.js';
import { readPlanObject } from './plan-object.js';
import { resolvePronouns, type Perspective } from './pronouns.js';
import { eventDate, findDates } from './relative-date.js';

/** Words opening an offer, before the act offered. */
const OFFER = /^(?:(?:oh|so|well|hey|um|ok|okay|right|listen),?\s+)*(?:(?:do\s+you\s+)?want\s+me\s+to|would\s+you\s+like\s+me\s+to|shall\s+I|should\s+I|do\s+you\s+need\s+me\s+to|(?:can|could)\s+I)\s+(.+?)\s*\?+$/i;
/** "Can I ask…", "should I worry": a question about the speaker, no act offered to the listener. */
const NO_ACT = /^(?:ask|say|be|worry|come\s+in|go|leave|have|speak|check\s+something|just)\b/i;
/**
 * "Can / could / should I…" offers only an act done for the listener ("can I get you a drink?", "could I help you with
 * that?"), not a leave asked ("Can I join you sometime?", "Can I come over and watch you play?").
 */
const FOR_LISTENER = /\b(?:you|your)\b/i;
const SERVING_VERB = /^(?:get|bring|make|help|fetch|grab|pour|take|send|book|order|call|ring|give|show|carry|drive|pick|fix|cook|buy|lend|find|check|sort|print|email|text|arrange|look|pay|save|reserve|drop|walk|collect|wrap|charge|refund|transfer|put|set|reset|change|cancel|schedule|forward)\b/i;

/** The act an offer proposes, as the speaker would do it ("book a table"), or null when `sentence` offers none. */
export function offeredAct(sentence: string): string | null {
  const m = OFFER.exec(sentence.trim());
  const act = m?.[1];
  if (!act || NO_ACT.test(act)) return null;
  // "Can I have the bill?", "should I bring anything?": asking for something or for advice, unless it is for the listener.
  if (/^(?:[^,]*\s)?(?:can|could|should)\s+I\s/i.test(m[0]) && !(FOR_LISTENER.test(act) && SERVING_VERB.test(act))) return null;
  return act;
}

/**
 * An offer of a thing, not of an act (rules 50): "Do you want tea?", "Would you like a biscuit?", "Fancy a coffee?",
 * "Want some cake?". Not "do you want to go?" nor "would you like me to…" (an act, `OFFER`).
 */
const THING_OFFER = /^(?:(?:oh|so|well|hey|um|ok|okay|right),?\s+)*(?:(?:do\s+)?you\s+want|want|would\s+you\s+like|(?:do\s+you\s+)?fancy|how\s+about)\s+((?:(?:a|an|some|another|any|more)\s+)?(?!(?:to|me|us|him|her|them|it|that|this|what|anything|something|one)\b)[a-z][\w'’-]*(?:\s+(?:of\s+)?[a-z][\w'’-]*){0,3}?)(?:\s+(?:too|then|now|first))?\s*\?+$/i;

/** The thing an offer of a thing proposes ("Do you want tea?" → "tea"), or null when `sentence` offers none. */
export function offeredThing(sentence: string): string | null {
  return THING_OFFER.exec(sentence.trim())?.[1] ?? null;
}

/** A whole refusal, with nothing named: what a listener says to decline an offer. */
const BARE = String.raw`(?:no(?:pe)?|nah|no\s+thanks|no\s+thank\s+you|(?:I\s+think\s+)?I['’]ll\s+pass|I\s+will\s+pass|no\s+need|don['’]t\s+(?:worry|bother)(?:\s+about\s+it)?|that['’]s\s+(?:ok|okay|fine|alright|all\s+right)|it['’]s\s+(?:ok|okay|fine|alright)|I['’]m\s+(?:good|fine|ok|okay|alright)|not\s+(?:now|today|right\s+now|this\s+time)|thanks\s+(?:but|though))`;
const REFUSAL = new RegExp(String.raw`^(?:(?:oh|um|uh|ah|well|actually),?\s+)*${BARE}(?:[,\s]+(?:${BARE}|thanks|thank\s+you|though|but\s+thanks|for\s+now|this\s+time))*\s*[.!]*\s*`, 'i');

/**
 * The refusal opening `turn` and what follows it ("No thanks, I'll do it myself" → the rest "I'll do it myself"), or null
 * when the turn does not open with one. "No, I'll book it" is a refusal too; "No problem" and "no worries" are not.
 */
export function openingRefusal(turn: string): { rest: string } | null {
  const m = REFUSAL.exec(turn.trim());
  if (!m || m[0].trim() === '') return null;
  const rest = turn.trim().slice(m[0].length).replace(/^[\s,;:.!-]+/, '').trim();
  // "No problem", "no worries": the rest goes on the "no".
  if (/^(?:problem|worries|way|idea)\b/i.test(rest)) return null;
  // "No, Monday is better": a bare "no" before anything but the speaker's own clause ("No, I'll do it myself") may
  // answer the offer with another one; it declines nothing for sure.
  if (/^(?:(?:oh|um|uh|ah|well|actually),?\s+)*(?:no(?:pe)?|nah)\W*$/i.test(m[0]) && rest !== '' && !/^(?:I|we)\b/i.test(rest)) return null;
  return { rest };
}

/** An offer or its refusal as a fact: its text, what it is about (the act offered, as `I will <act>` reads) and its date. */
export interface OfferFact {
  content: string;
  /** True when it turns down an offer of an act, which the refusal closes; false for a thing offered ("Do you want tea?"). */
  closesOffer?: boolean;
  planObject: PlanObject | null;
  eventTime: string | null;
}

/** What the act `act` is about, read the same way for the offer and for its refusal, so the one matches the other. */
function actObject(nlp: Wink, act: string): PlanObject | null {
  return readPlanObject(nlp, `I will ${act}.`);
}

/** The offer `sentence` makes ("Want me to book a table?" → "Ana offered to book a table"), or null, at `time` (ISO). */
export function offerFact(nlp: Wink, sentence: string, who: Perspective, time: string): OfferFact | null {
  const act = offeredAct(sentence);
  if (!act || who.addressees.length === 0) return null;
  const found = findDates(act, time);
  return { content: `${who.speaker} offered to ${absoluteDates(resolvePronouns(act, who), found)}`, planObject: actObject(nlp, act),
    eventTime: eventDate(act, time, found) };
}

/**
 * The offer the current turn turns down: it opens with a refusal ("No thanks", "I'll pass"), and a turn by someone else
 * since the current speaker last spoke, said to them or to no one, offers an act (the latest such offer). The fact ("Tom turned down
 * Ana's offer to book a table") and the rest of the turn after the refusal; null when the turn declines no offer.
 * `sentencesOf` splits a turn's text as the extractor reads it; `display` names a participant.
 */
export function declinedOffer(nlp: Wink, input: ExtractionInput, display: (id: string) => string, sentencesOf: (text: string) => string[]):
  (OfferFact & { rest: string }) | null {
  const u = input.current;
  const refused = openingRefusal(u.text);
  if (!refused) return null;
  // The turns since the current speaker last spoke, newest first: the refusal answers the latest offer among them.
  const since = [...input.previous].reverse();
  const own = since.findIndex((p) => p.speakerId === u.speakerId);
  const offers = (own < 0 ? since : since.slice(0, own)).filter((p) => p.addresseeIds.length === 0 || p.addresseeIds.includes(u.speakerId))
    .flatMap((p) => {
      const said = sentencesOf(p.text);
      const act = said.map(offeredAct).filter((x): x is string => x !== null).at(-1);
      const thing = act ? null : said.map(offeredThing).filter((x): x is string => x !== null).at(-1);
      return act || thing ? [{ before: p, act, thing }] : [];
    });
  if (offers.length === 0) return null;
  const { before, act, thing } = offers[0]!;
  // "Do you want tea?" – "No thanks": the thing turned down, as "No tea for me" is (text6), and no offer to close.
  if (!act) return { content: `${display(u.speakerId)} turned down ${display(before.speakerId)}'s offer of ${thing}`, closesOffer: false,
    planObject: null, eventTime: null, rest: refused.rest };
  // The act as the one who offered it would do it: "you" is the current speaker.
  const offered = resolvePronouns(act, { speaker: display(before.speakerId), addressees: [display(u.speakerId)] });
  const found = findDates(act, before.time);
  return { content: `${display(u.speakerId)} turned down ${display(before.speakerId)}'s offer to ${absoluteDates(offered, found)}`,
    closesOffer: true, planObject: actObject(nlp, act), eventTime: eventDate(act, before.time, found), rest: refused.rest };
}
