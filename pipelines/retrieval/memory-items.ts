import { NameResolver } from '../../graph/name-resolver.js';
import { ellipsised } from '../memory/clause-cap.js';
import { factEnded, type Fact, type PersonaNode } from '../../graph/memory-store.js';
import type { Utterance } from '../../graph/types.js';
import type { MemoryItem } from '../../graph/core/events.js';
import { UNNAMED } from '../memory/extractor.js';
import { findDates } from '../memory/relative-date.js';
import { toldJustDone } from '../memory/told-tense.js';
import { WEEKDAY_NAME } from '../memory/months.js';

export { NameResolver };

/**
 * When what `text` tells of happened, resolved against `said` (when the words were said), or null. Each sentence is
 * read on its own ("On Friday I got the news. Next month I'm off to Ireland": last Friday); the first that names a
 * date gives it: the start of a state told in the perfect ("I've had them for three years now": three years before
 * it was said), else its first date that is no duration ("last Friday", "on the 15th"; not "for a month"). With no
 * date named, an act told as just done ("I just got accepted", "I've just finished it") gives the day it was said.
 */
export function namedDate(text: string, said: string): string | null {
  const sentences = text.split(/(?<=[.!?])\s+/);
  for (const sentence of sentences) {
    // chrono reads bare small numbers as hours or days ("I have 3"): a sentence with no date-like word is not parsed.
    if (!DATE_WORD.test(sentence)) continue;
    const found = findDates(sentence, said);
    // A state's start before any "now" the sentence holds ("I've had them for three years now").
    const date = found.find((d) => d.since)?.since ?? found.find((d) => !d.duration)?.date;
    if (date) return date;
  }
  return sentences.some(toldJustDone) ? said.slice(0, 10) : null;
}

/** Words without which no date is named. */
const DATE_WORD = new RegExp(String.raw`\b(?:yesterday|today|tonight|tomorrow|ago|last|next|this|weekend|weeks?|months?|years?|${WEEKDAY_NAME}|jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|\d{4}|\d{1,2}\/\d{1,2}|the\s+\d{1,2}(?:st|nd|rd|th))\b`, 'i');

/**
 * An interaction-layer item. A turn holds from when it was said; `closedAt` (when every fact it
 * produced was replaced or retracted) marks it superseded. `event_time`: the first date its words name (`namedDate`).
 */
export async function utteranceItem(names: NameResolver, u: Utterance, score: number, closedAt: string | null = null): Promise<MemoryItem> {
  return {
    id: u.id, layer: 'interaction', text: u.text, speaker: await names.ref(u.speakerId),
    addressees: await Promise.all(u.addresseeIds.map((a) => names.ref(a))), refer_ids: [u.id],
    session_id: u.sessionId, time: u.time, valid_from: u.time, valid_to: closedAt, superseded: closedAt !== null,
    event_time: namedDate(u.text, u.time), source_text: null, score,
  };
}

/**
 * A fact-, profile- or relation-layer item (a fact of kind `relation` is served as `relation`).
 * `valid_to` is when it was closed, else the end it carries by its own words ("for a month"; may
 * lie ahead of `now`); past that end it is served as superseded. `sourceText`: the words of its
 * source turns, as said (what the fact leaves out of them), cut to 500 characters with "…" (`ellipsised`).
 */
export async function factItem(
  names: NameResolver, f: Fact, score: number, now: string = new Date().toISOString(), sourceText: string | null = null,
): Promise<MemoryItem> {
  return {
    id: f.id, layer: f.kind === 'relation' ? 'relation' : f.layer, text: f.content, speaker: await names.ref(f.speakerId),
    addressees: await Promise.all(f.addresseeIds.map((a) => names.ref(a))), refer_ids: f.referIds,
    session_id: f.sessionId, time: f.time, valid_from: f.validFrom, valid_to: f.validTo ?? f.validUntil, superseded: f.validTo !== null || factEnded(f, now),
    event_time: f.eventTime, source_text: sourceText === null ? null : ellipsised(sourceText), score,
  };
}

/** The text a persona node is shown (and matched) as; an unnamed person is "An unnamed speaker", never their id. */
export function personaText(node: PersonaNode, name: string | null): string {
  const who = name ?? UNNAMED.charAt(0).toUpperCase() + UNNAMED.slice(1);
  if (node.kind === 'trait') return `${who} is ${node.target}`;
  const feeling = node.valence >= 0.2 ? 'likes' : node.valence <= -0.2 ? 'dislikes' : 'feels neutral about';
  const label = node.kind === 'affect' && node.label ? ` (${node.label})` : '';
  return `${who} ${feeling} ${node.target}${label}`;
}

/** A persona-layer item (right brain): holds from its first evidence, never superseded (it is a running mean). */
export async function personaItem(names: NameResolver, node: PersonaNode, score: number): Promise<MemoryItem> {
  const speaker = await names.ref(node.participantId);
  return {
    id: node.id, layer: 'persona', text: personaText(node, speaker.name), speaker, addressees: [],
    refer_ids: node.evidenceIds, session_id: node.sessionIds.at(-1) ?? null, time: node.lastSeen,
    valid_from: node.firstSeen, valid_to: null, superseded: false, event_time: null, source_text: null, score,
  };
}
