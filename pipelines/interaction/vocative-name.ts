/**
 * "Sure Maria, I can check that", said by the agent to the only caller on a call: the caller, unnamed, is Maria
 * (trial11 F6). A turn that calls its one listener by a listed given name names them at once, as a self-introduction
 * would, where nothing could make the name someone else's: the listener is the only other party, has no name yet,
 * and never spoke of someone by that name themself ("my wife Maria ordered…" makes "Thanks, Maria" a slip, not a name).
 */
import type { Participant } from '../../graph/types.js';
import { RELATION_ROLES } from '../memory/relation-apposition.js';
import { isCalendarWord } from '../speaker/calendar-words.js';
import { givenNamePrevalence } from '../speaker/given-names.js';
import { namesCalledIn } from '../speaker/vocatives.js';
import { isMixedCase } from '../speaker/name-tokens.js';
import { couldBeName, isAlsoCommonWord } from '../speaker/name-words.js';
import { firstNames } from './session-naming.js';

/** One turn as the rule reads it. */
export interface VocativeTurn {
  speakerId: string;
  text: string;
  /** The turn's addressees, as resolved (given by the client or inferred). */
  addressees: readonly Participant[];
  /** Everyone present in the session before the turn (the speaker included or not). */
  present: readonly Participant[];
  /** The session's earlier turns, oldest first. */
  recent: readonly { speakerId: string; text: string }[];
}

/**
 * The given name `turn` calls its only listener by, when that names them: the turn is said to one participant, the only
 * one present besides the speaker, who has no name yet; it calls exactly one listed given name (`givenNamePrevalence`)
 * that may be a name (`couldBeName`; "Sure, thanks" calls no one), is no day or month, and in all-lower-case text is no
 * verb or adjective as well ("thanks will"); no one present holds it; it is no relation's name beside it ("my colleague,
 * Maria"); and the listener never said it in the session's earlier turns. Null otherwise: two or more other parties, a named listener (never renamed by a vocative), no name or
 * two names called. Pure.
 */
export function vocativeNameFor(turn: VocativeTurn): string | null {
  const [listener, ...more] = turn.addressees;
  if (!listener || more.length > 0 || listener.id === turn.speakerId || listener.name !== null) return null;
  const others = new Set([...turn.present, ...turn.addressees].map((p) => p.id).filter((id) => id !== turn.speakerId));
  if (others.size !== 1) return null;
  const cased = isMixedCase(turn.text);
  const held = firstNames([...turn.present, ...turn.addressees]);
  const called = [...new Set(namesCalledIn(turn.text).map((n) => n.toLowerCase()))]
    .filter((n) => givenNamePrevalence(n) > 0 && couldBeName(n) && !isCalendarWord(n) && !held.has(n) && (cased || !isAlsoCommonWord(n)));
  if (called.length !== 1) return null;
  const name = called[0]!;
  const word = new RegExp(`(?<![\\p{L}\\p{N}])${name}(?![\\p{L}\\p{N}])`, 'iu');
  if (turn.recent.some((r) => r.speakerId === listener.id && word.test(r.text))) return null;
  // "I'll pass you to my colleague, Maria.", "Your wife, Maria?": a relation named beside its person, no one called.
  if (new RegExp(`\\b(?:my|your|his|her|our|their)\\s+(?:new\\s+)?(?:${RELATION_ROLES.join('|')})\\s*,\\s*${name}(?![\\p{L}\\p{N}])`, 'iu').test(turn.text)) return null;
  return name.charAt(0).toUpperCase() + name.slice(1);
}
