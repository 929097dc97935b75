/**
 * A meeting's proposal accepted (teamleft): "Should we use Postgres for the billing service?" asked by one person and
 * "Yeah, Postgres is fine." said by another is the group's decision, "Ana and the group will use Postgres for the billing
 * service" (a group's "we" as rules 53 write it: `weTogether`). The question alone is no fact and the acceptance alone
 * tells nothing, so before this neither was remembered. Only a proposal asked ("should / shall / could / can we…?",
 * "why don't we / what if we / how about we…?") that names a thing to do, in a meeting of three people or more, and
 * only a turn that is an acceptance and nothing else; "yeah" to a statement is no decision. Nor is a "yeah" to an
 * objection: the acceptance must be the first reply to the proposal by someone other than the proposer, or every turn
 * by another person in between must itself be a bare acceptance of it ("No, people are looking forward to it." / "Yeah,
 * agreed." agrees with the "no").
 */

import type { PlanObject } from '../../graph/memory-store.js';
import type { Wink } from '../wink.js';
import { absoluteDates } from './date-text.js';
import type { ExtractionInput } from './extractor.js';
import { readPlanObject } from './plan-object.js';
import { resolvePronouns } from './pronouns.js';
import { eventDate, findDates } from './relative-date.js';

/**
 * A proposal asked of the room, with a topic said first or after ("For analytics, should we use Postgres?"): the act
 * proposed (group 2) and the topic (group 1 or 3).
 */
const PROPOSAL = /^(?:(?:so|and|okay|ok|then|well|right|hmm),?\s+)*(?:((?:for|about|on|with)\s+[^,?]+),\s*)?(?:(?:should|shall|could|can)\s+we|why\s+don['’]t\s+we|what\s+if\s+we|how\s+about\s+we)\s+(.+?)(?:,\s*((?:for|about|on|with)\s+[^,?]+))?\s*\?+$/i;

/** Words that say yes, opening an acceptance. */
const YES = /^(?:yeah|yes|yep|yup|sure|okay|ok|agreed|absolutely|definitely|right|alright|all right)\b[,.!]?\s*/i;

/**
 * What an acceptance says after its "yes", if anything: the thing named as fine ("Postgres is fine", group 1), or a
 * bare agreement ("sounds good", "let's do that", "works for me").
 */
const ACCEPTED = /^(?:(?:that|it|this|(\p{Lu}[\p{L}\p{N}'’-]*(?:\s+\p{Lu}[\p{L}\p{N}'’-]*)*))\s*(?:['’]s|is|are|sounds|works|seems)\s+(?:fine|good|great|ok|okay|perfect|works)(?:\s+(?:by|with|for)\s+me)?|sounds\s+(?:good|great|fine|like\s+a\s+plan)|let['’]s\s+do\s+(?:that|it)|(?:fine|good|works)\s+(?:by|with|for)\s+me|agreed|good\s+idea|makes\s+sense|go\s+for\s+it)?[.!]*$/iu;

/** An accepted proposal's fact: the group's decision, its plan object (shared) and date. */
export interface AcceptedProposal {
  content: string;
  planObject: PlanObject | null;
  eventTime: string | null;
}

/**
 * A turn that is an acceptance and nothing else (`YES`, `ACCEPTED`): the thing it names as fine, lower-case ("" when it
 * names none); null when the turn says more, doubts ("hmm", "not sure", "but", "maybe") or says no.
 */
function bareAcceptance(text: string): string | null {
  const said = text.trim();
  const yes = YES.exec(said);
  const accepted = ACCEPTED.exec(yes ? said.slice(yes[0].length).trim() : said);
  if (!accepted || (!yes && !accepted[0])) return null;
  return accepted[1]?.toLowerCase() ?? '';
}

/** Whether `act` names the thing an acceptance names as fine (any act when it names none). */
function names(act: string, named: string): boolean {
  return !named || new RegExp(`\\b${named.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`, 'i').test(act);
}

/**
 * The proposal the current turn accepts, as the group's decision; null when the turn is no bare acceptance (`YES`,
 * `ACCEPTED`), fewer than three people take part in the turns read, or no turn by someone else since the speaker last
 * spoke asks a proposal (`PROPOSAL`) that names a thing to do (a plan object with an object or complement). An acceptance
 * naming a thing ("Postgres is fine") accepts only a proposal naming it, and none when another person replied to the
 * proposal in between with anything but a bare acceptance of it (an objection, a doubt, another option). `display`
 * names a participant; `sentencesOf` splits a turn's text as the extractor reads it.
 */
export function acceptedProposal(nlp: Wink, input: ExtractionInput, display: (id: string) => string, sentencesOf: (text: string) => string[]): AcceptedProposal | null {
  const u = input.current;
  const named = bareAcceptance(u.text);
  if (named === null) return null;
  const people = new Set([u.speakerId, ...u.addresseeIds, ...input.previous.flatMap((p) => [p.speakerId, ...p.addresseeIds])]);
  if (people.size < 3) return null;
  // The turns since the speaker last spoke, newest first: the acceptance answers the latest proposal among them.
  const since = [...input.previous].reverse();
  const own = since.findIndex((p) => p.speakerId === u.speakerId);
  const window = own < 0 ? since : since.slice(0, own);
  for (const [k, before] of window.entries()) {
    const m = sentencesOf(before.text).map((s) => PROPOSAL.exec(s.trim())).filter((x) => x !== null).at(-1);
    if (!m) continue;
    // The topic said first goes after the act, lower-case: "For analytics, should we use Postgres?" uses it "for analytics".
    const topic = m[3] ?? (m[1] ? m[1].charAt(0).toLowerCase() + m[1].slice(1) : '');
    const act = `${m[2]} ${topic}`.trim();
    if (!names(act, named)) return null;
    // Another person's reply in between that is no bare acceptance of this act (an objection, a doubt, another option)
    // is what the current "yeah" agrees with, not the proposal.
    const replies = window.slice(0, k).filter((p) => p.speakerId !== before.speakerId);
    if (replies.some((p) => { const n = bareAcceptance(p.text); return n === null || !names(act, n); })) return null;
    const planObject = readPlanObject(nlp, `We will ${act}.`);
    if (!planObject?.verb || planObject.objects.length + planObject.complements.length === 0) return null;
    const others = [...people].filter((id) => id !== u.speakerId).map(display);
    const found = findDates(act, before.time);
    const done = resolvePronouns(`We will ${absoluteDates(act, found)}`, { speaker: display(u.speakerId), addressees: others, inclusive: true });
    return { content: done, planObject: { ...planObject, shared: true }, eventTime: eventDate(act, before.time, found) };
  }
  return null;
}
