import type { Stores } from '../../graph/stores.js';
import type { TenantId } from '../../graph/types.js';
import type { PersonaCandidate } from './hydrate.js';

/**
 * Whose memories a session's pushed `memory.context` may hold: `all` (the whole tenant, as before) or `participants`
 * (only memories of the people on this call: a call centre must never push one customer's order while another calls).
 */
export type ContextScope = 'all' | 'participants';

/** The values `context_scope` takes (`PARLEY_CONTEXT_SCOPE`, `session.update`, Twilio `customParameters`). */
export const CONTEXT_SCOPES: readonly ContextScope[] = ['all', 'participants'];

/** Whether `value` names a context scope. */
export function isContextScope(value: unknown): value is ContextScope {
  return typeof value === 'string' && (CONTEXT_SCOPES as readonly string[]).includes(value);
}

/** The people of one session that a `participants` scope lets through. */
export interface MemoryScope {
  /** The session's participants: its speakers, the people addressed in it, and its agents. */
  people: ReadonlySet<string>;
  /** The session's agents (`?agent=`): an item that involves only them counts only from `sessionId`. */
  agents: ReadonlySet<string>;
  sessionId: string;
}

/** Who an item involves and where it was said. */
interface Involvement {
  speakerId: string;
  addresseeIds: readonly string[];
  /** A fact's subject: a participant id, or an entity key (`entity:acme`), which is no person. */
  subjectId?: string;
  sessionId: string | null;
}

/**
 * Whether an item is within `scope`: every person it involves (speaker, addressees, a fact's participant subject) is one
 * of the session's people, and one of them is not an agent unless it was said in this session: an agent's words in an
 * earlier call were said to that call's caller, named or not.
 */
export function withinScope(item: Involvement, scope: MemoryScope): boolean {
  const people = [item.speakerId, ...item.addresseeIds];
  if (item.subjectId !== undefined && !item.subjectId.startsWith('entity:')) people.push(item.subjectId);
  if (!people.every((p) => scope.people.has(p))) return false;
  return item.sessionId === scope.sessionId || people.some((p) => !scope.agents.has(p));
}

/** The persona candidates of the scope's people who are not agents (a persona node holds no session). */
export function personaWithin(persona: PersonaCandidate[], scope: MemoryScope): PersonaCandidate[] {
  return persona.filter((p) => scope.people.has(p.node.participantId) && !scope.agents.has(p.node.participantId));
}

/**
 * Of the turn and fact ids `ids`, those within `scope` (two store reads, whatever their number); ids no longer stored
 * are left out.
 */
export async function idsWithin(
  stores: Pick<Stores, 'graph' | 'memory'>, tenant: TenantId, ids: string[], scope: MemoryScope,
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const [utterances, facts] = await Promise.all([
    stores.graph.getUtterances(tenant, ids),
    stores.memory.listFacts(tenant, { ids, limit: ids.length, includeHistory: true }),
  ]);
  return new Set([...utterances, ...facts].filter((m) => withinScope(m, scope)).map((m) => m.id));
}
