import { givenNamePrevalence } from './given-names.js';
import { answersTo, calledListeners, namesCalledIn } from './vocatives.js';
import { wordDistance } from './phonetic.js';

/** Most phone distance at which a called name counts as a listener's name misheard ("Ken" for "Ben"); as naming's. */
const MISHEARD_NAME_DISTANCE = 0.4;

/** A participant present in the session, as addressee inference sees them. */
export interface PresentParticipant {
  id: string;
  name: string | null;
  aliases: string[];
}

/** What inference is given for one utterance. */
export interface AddresseeContext {
  speakerId: string;
  text: string;
  /**
   * The session's recent utterances before this one, oldest first: who spoke, and (where known) what was said, so an
   * answer to a question goes to the one who asked it.
   */
  recent: readonly { speakerId: string; text?: string }[];
  /** Everyone present in the session, the speaker included or not. */
  present: readonly PresentParticipant[];
}

/** Why the addressees were chosen. */
export type AddresseeReason = 'vocative' | 'group' | 'two-party' | 'reply' | 'none';

export interface AddresseeResult {
  addresseeIds: string[];
  reason: AddresseeReason;
  /** Vocative words that matched no present participant (evidence for naming). */
  unknownVocatives: string[];
}

const GROUP = /\b(everyone|everybody|you all|y'?all|you guys|guys|folks|all of you|you two|both of you)\b/i;

/** "you" said to someone: not a filler ("you know", "you see"), a thanks or a farewell ("thank you", "see you"). */
const YOU = /\byou(?:r|rs|rself|['’](?:re|ll|ve|d))?\b/i;
const YOU_IDLE = /\b(?:you know|you see|thank you|see you|mind you)\b/gi;

/** A turn that only signals listening ("Uh-huh.", "Mm-hmm.", "Yeah, okay."): it asks nothing and is answered by no one. */
const BACKCHANNEL = /^(?:(?:uh[- ]?huh|mm+[- ]?hmm+|m+hm+|hmm+|mm+|yeah|yep|yup|yes|ok(?:ay)?|right|sure|got it|i see|oh|ah|cool|alright|all right)[\s,.!]*)+$/i;

/**
 * The turn this one may reply to (review12 F6): the last one by someone else that says something, past the speaker's
 * own turns ("Sure." then "I'll send the deck tonight") and others' backchannels ("Uh-huh."). A turn whose words are
 * unknown counts as said.
 */
function repliedTurn(ctx: AddresseeContext): { speakerId: string; text?: string } | undefined {
  for (let i = ctx.recent.length - 1; i >= 0; i--) {
    const r = ctx.recent[i]!;
    if (r.speakerId !== ctx.speakerId && !(r.text !== undefined && BACKCHANNEL.test(r.text.trim()))) return r;
  }
  return undefined;
}

/**
 * Whether `text` holds a cue that it is said to one person, the one it replies to (trial10 F6): it says "you"
 * (not in passing: `YOU_IDLE`), or `previous` asks a question in any of its sentences ("Can you send the deck? It is
 * due Friday."), which this turn answers.
 */
function answersPrevious(text: string, previous: { text?: string } | undefined): boolean {
  return YOU.test(text.replace(YOU_IDLE, '')) || /\?/.test(previous?.text ?? '');
}

/**
 * Whom an utterance addresses: participants named vocatively ("Ana, can you…", "…, Ben?"); all
 * present except the speaker on group address ("everyone", "you all", "guys"); in a two-party
 * exchange the other party. With three or more people, a turn that says "you" or answers a question just
 * asked (`answersPrevious`), or calls a listed first name no one present holds ("Thanks, Dora", evidence for
 * naming), goes to the speaker of the turn it replies to (`repliedTurn`: past the speaker's own turns and backchannels); any other turn is said to the room: everyone present but the
 * speaker ("We'll use ClickHouse" is no reply to whoever spoke last, trial10 F6). A turn that calls someone
 * by a name no one present holds ("Kevin, can you…") addresses nobody present rather than a listener
 * named otherwise (see `mayBeCalled`). Pure.
 */
export function inferAddressees(ctx: AddresseeContext): AddresseeResult {
  const others = ctx.present.filter((p) => p.id !== ctx.speakerId);
  const namesOf = (p: PresentParticipant): string[] => [p.name, ...p.aliases].filter((n): n is string => !!n && n.trim() !== '');
  // The one reader (speaker/vocatives.ts): a listener called by their whole name or one word of it ("Tom" or "Becker"
  // for Tom Becker, "Kim" for Agent Kim), in typed text or unpunctuated speech ("thanks ben see you friday").
  const called = new Set(calledListeners(ctx.text, others.flatMap(namesOf)));
  const ids = others.filter((p) => namesOf(p).some((n) => called.has(n))).map((p) => p.id);
  const unknownVocatives = namesCalledIn(ctx.text).filter((v) => !others.some((p) => namesOf(p).some((n) => answersTo(n, v))));
  if (ids.length > 0) return { addresseeIds: ids, reason: 'vocative', unknownVocatives };
  if (GROUP.test(ctx.text) && others.length > 0) return { addresseeIds: others.map((p) => p.id), reason: 'group', unknownVocatives };
  // "Kevin, can you…" with no Kevin present calls someone else: a listener named otherwise is not them.
  // Only listed first names count here ("Great, thanks." calls nobody).
  const calling = unknownVocatives.filter((n) => givenNamePrevalence(n) > 0);
  const listener = (id: string): AddresseeResult | null => {
    const p = ctx.present.find((x) => x.id === id);
    return p && !mayBeCalled(p, calling) ? { addresseeIds: [], reason: 'none', unknownVocatives } : null;
  };
  if (others.length === 1) return listener(others[0]!.id) ?? { addresseeIds: [others[0]!.id], reason: 'two-party', unknownVocatives };
  const room: AddresseeResult = others.length > 1
    ? { addresseeIds: others.map((p) => p.id), reason: 'group', unknownVocatives }
    : { addresseeIds: [], reason: 'none', unknownVocatives };
  const previous = repliedTurn(ctx);
  if (!previous || !(calling.length > 0 || answersPrevious(ctx.text, previous))) return room;
  return listener(previous.speakerId) ?? { addresseeIds: [previous.speakerId], reason: 'reply', unknownVocatives };
}

/**
 * Whether `p` may be the one called by `vocatives`, listed first names no one present holds: yes with none,
 * when `p` has no name yet (an unnamed voice may be Kevin), when one is another word of their name or an
 * alias ("Silva" for Ana Silva), or when one sounds like a word of it, as the recogniser may mishear it
 * ("Ken" for "Ben"). A participant named otherwise is someone else.
 */
function mayBeCalled(p: PresentParticipant, vocatives: readonly string[]): boolean {
  const names = [p.name, ...p.aliases].filter((n): n is string => !!n && n.trim() !== '');
  if (vocatives.length === 0 || names.length === 0) return true;
  const words = new Set(names.flatMap((n) => n.toLowerCase().split(/\s+/)));
  return vocatives.some((v) => words.has(v.toLowerCase()) || [...words].some((w) => wordDistance(v.toLowerCase(), w) <= MISHEARD_NAME_DISTANCE));
}
