import { givenNamePrevalence } from './given-names.js';
import { findVocatives } from './name-patterns.js';
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
  /** The session's recent utterances before this one, oldest first (only who spoke is needed). */
  recent: readonly { speakerId: string }[];
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

/**
 * Whom an utterance addresses: participants named vocatively ("Ana, can you…", "…, Ben?"); all
 * present except the speaker on group address ("everyone", "you all", "guys"); in a two-party
 * exchange the other party; else the previous different speaker; else nobody. A turn that calls someone
 * by a name no one present holds ("Kevin, can you…") addresses nobody present rather than a listener
 * named otherwise (see `mayBeCalled`). Pure.
 */
export function inferAddressees(ctx: AddresseeContext): AddresseeResult {
  const others = ctx.present.filter((p) => p.id !== ctx.speakerId);
  const byName = new Map<string, string[]>();
  for (const p of others)
    for (const n of [p.name, ...p.aliases]) {
      if (!n) continue;
      // A multi-word name is addressed by its first word ("Ana Silva" → "ana").
      const key = n.trim().split(/\s+/)[0]!.toLowerCase();
      byName.set(key, [...new Set([...(byName.get(key) ?? []), p.id])]);
    }
  const named = findVocatives(ctx.text, new Set(byName.keys()));
  const ids = [...new Set(named.flatMap((n) => byName.get(n) ?? []))];
  const unknownVocatives = findVocatives(ctx.text).filter((n) => !byName.has(n.toLowerCase()));
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
  for (let i = ctx.recent.length - 1; i >= 0; i--) {
    const s = ctx.recent[i]!.speakerId;
    if (s !== ctx.speakerId) return listener(s) ?? { addresseeIds: [s], reason: 'reply', unknownVocatives };
  }
  return { addresseeIds: [], reason: 'none', unknownVocatives };
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
