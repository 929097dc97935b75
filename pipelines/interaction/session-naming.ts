import type { Logger } from 'pino';
import { TAUGHT_NAMES, taughtNames, withTaughtNames } from './participant-attributes.js';
import { withLearnedName } from './pending-rename.js';
import { NAME_REFUSED, contradictedSelfName } from './name-conflict.js';
import type { GraphStore } from '../../graph/graph-store.js';
import type { Participant, TenantId } from '../../graph/types.js';
import { answersTo, namesCalledIn } from '../speaker/vocatives.js';
import { isMixedCase } from '../speaker/name-tokens.js';
import { couldBeName, isFunctionWord } from '../speaker/name-words.js';
import {
  attributesNameEvidenceStore, EVIDENCE_WEIGHT, nameFromSelfIntroduction, namesHeardFor, recordAddressEvidence,
  type NameEvidenceStore,
} from '../speaker/naming.js';
import type { ParticipantResolver } from './participant-resolver.js';

/**
 * First names (lower-case) that participants hold, as spoken: "Ana Silva" is addressed as "ana". A function word
 * (an alias "On" left by an earlier build) is none: it would be listened for and matched in every turn.
 */
export function firstNames(people: readonly Participant[]): Set<string> {
  const first = (n: string): string => n.trim().split(/\s+/)[0]!.toLowerCase();
  return new Set(people.flatMap((p) => [p.name, ...p.aliases]).flatMap((n) => (n && !isFunctionWord(first(n)) ? [first(n)] : [])));
}

/**
 * The first `max` first names (as {@link firstNames}) of the tenant's participants, most recently
 * updated first: read pages of named participants from the store's recency index until `max` distinct
 * first names are in, so a tenant of a hundred thousand callers costs a few pages, not every participant.
 */
export async function recentFirstNames(graph: GraphStore, tenant: TenantId, max: number): Promise<string[]> {
  const seen: Participant[] = [];
  // First names repeat (a call centre's callers), so each page is twice the last: few round trips.
  for (let size = Math.max(1, max); ; size *= 2) {
    const page = await graph.recentNamedParticipants(tenant, size, seen.length);
    seen.push(...page);
    const names = firstNames(seen);
    if (names.size >= max || page.length < size) return [...names].slice(0, max);
  }
}

/**
 * Names used vocatively in `text` (`namesCalledIn`: "Kevin, …", "Done Maria, …") that none of `present` answers to (their
 * whole name or one word of it: "Kim" for Agent Kim): evidence about whoever answers.
 */
export function unknownVocatives(text: string, present: readonly Participant[]): string[] {
  const held = present.flatMap((p) => [p.name, ...p.aliases]).filter((n): n is string => !!n);
  return namesCalledIn(text).map((n) => n.toLowerCase()).filter((n) => !held.some((h) => answersTo(h, n)) && couldBeName(n));
}

/**
 * Binds names to a session's participants as people give them: at once from a self-introduction (a
 * misheard name is matched by sound against what the speaker has been called and the names present),
 * and from address evidence accumulated across turns and sessions (addressed as X; speaking next after
 * a turn addressed to X). Address evidence never names a participant with a name another participant
 * present already holds.
 */
export class SessionNaming {
  private readonly evidence: NameEvidenceStore;

  constructor(private readonly graph: GraphStore, private readonly logger?: Pick<Logger, 'warn'>) {
    this.evidence = attributesNameEvidenceStore({
      getAttributes: async (tenant, id) => (await graph.getParticipant(tenant, id))?.attributes ?? null,
      // Only the evidence key is written, from its value as stored at the write: a PATCH or profile update landing
      // meanwhile keeps its attributes, and a concurrent record of evidence still counts.
      updateAttribute: async (tenant, id, key, update) => (await graph.updateParticipantAttribute(tenant, id, key, update))?.attributes ?? null,
    });
  }

  /**
   * "I'm Ana" names the speaker at once; a speaker who already has another name gains an alias,
   * unless someone else present holds that name. A display name so learned owes the rewrite of their earlier
   * memories (`withLearnedName`), which the turn's consolidation job finishes.
   */
  async selfIntroduction(tenant: TenantId, resolver: ParticipantResolver, speaker: Participant, text: string, present: readonly Participant[]): Promise<Participant> {
    const known = new Set([...firstNames(present), ...(await namesHeardFor(this.evidence, tenant, speaker.id))]);
    const binding = nameFromSelfIntroduction(speaker.id, text, { known });
    // Checked here too: whatever the detector accepts, a function or ordinary word never becomes an alias.
    if (!binding || !couldBeName(binding.name, undefined, isMixedCase(text))) return speaker;
    const name = binding.name;
    const holds = [speaker.name, ...speaker.aliases].some((n) => n?.toLowerCase() === name.toLowerCase());
    if (holds) return speaker;
    // A named speaker saying "it's Tomasz" while Tomasz is here is talking about him, not introducing themself.
    if (speaker.name && firstNames(present.filter((p) => p.id !== speaker.id)).has(name.toLowerCase())) return speaker;
    // On the names as stored at the write; a display name owes the rewrite of the memories that called them "an unnamed speaker".
    // Someone who introduced themself as Priya saying "I'm Bob" is most likely another person under the same label:
    // Priya is kept, Bob is not learned (see name-conflict.ts).
    const conflict: { kept: string | null } = { kept: null };
    const named = await this.graph.updateParticipantNames(tenant, speaker.id, (stored) => {
      conflict.kept = contradictedSelfName(stored, name, text);
      return conflict.kept === null ? withLearnedName(stored, name) : stored;
    });
    const { kept } = conflict;
    if (kept !== null) {
      // The names under `name`, which the logger redacts (personal data).
      this.logger?.warn({ participantId: speaker.id, name: { kept, refused: name } }, NAME_REFUSED);
      return named ?? speaker;
    }
    // Recorded as taught (TAUGHT_NAMES) by a write of that key alone: a revision of this turn's speaker takes it back, and
    // a PATCH or profile update landing meanwhile keeps its attributes.
    const taught = (words: unknown): unknown => withTaughtNames({}, [...taughtNames({ [TAUGHT_NAMES]: words }), name])[TAUGHT_NAMES];
    const updated = (named && (await this.graph.updateParticipantAttribute(tenant, speaker.id, TAUGHT_NAMES, taught))) ?? speaker;
    resolver.remember(updated);
    return updated;
  }

  /**
   * Name `listener` `name` at once: a turn called its one listener, unnamed and the only other party, by that given
   * name (`vocativeNameFor`; trial11 F6). Only while they are still unnamed as stored at the write (a PATCH or another
   * turn naming them meanwhile wins); the display name so learned owes the rewrite of their earlier memories
   * (`withLearnedName`), as a self-introduction's does. Not recorded as taught: a vocative is someone else's word, so
   * their own later introduction is not refused as a contradiction (name-conflict.ts).
   */
  async calledBy(tenant: TenantId, resolver: ParticipantResolver, listener: Participant, name: string): Promise<Participant> {
    const updated = await this.graph.updateParticipantNames(tenant, listener.id, (stored) => (stored.name === null ? withLearnedName(stored, name) : stored));
    if (!updated) return listener;
    resolver.remember(updated);
    return updated;
  }

  /**
   * Record that `names` were used for `participantId` (`addressed`: another speaker called them so;
   * `answered`: they spoke right after a turn addressed to the name), and name them once the evidence
   * suffices, unless they are named already or another participant present holds the name.
   */
  async record(
    tenant: TenantId, sessionId: string, resolver: ParticipantResolver, participantId: string, names: string[],
    kind: keyof typeof EVIDENCE_WEIGHT, present: readonly Participant[],
  ): Promise<void> {
    for (const name of names.filter((n) => couldBeName(n))) {
      const binding = await recordAddressEvidence(this.evidence, tenant, sessionId, participantId, name, { weight: EVIDENCE_WEIGHT[kind] });
      if (!binding) continue;
      const [person] = await resolver.byIds([participantId]);
      const taken = firstNames(present.filter((p) => p.id !== participantId)).has(name.toLowerCase());
      if (person && !person.name && !taken) {
        const updated = await this.graph.updateParticipantNames(tenant, participantId, (stored) => (stored.name === null ? withLearnedName(stored, binding.name) : stored));
        if (updated) resolver.remember(updated);
      }
    }
  }
}
