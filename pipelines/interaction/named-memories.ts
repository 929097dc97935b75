import type { EntityIndex } from '../../graph/entity-index.js';
import type { GraphStore } from '../../graph/graph-store.js';
import type { FactFilter, MemoryStore } from '../../graph/memory-store.js';
import type { Participant, TenantId } from '../../graph/types.js';
import { findParticipantByRef, looksLikeParticipantId, unknownRef } from './participant-ref.js';

/** The stores a memory owner is looked up in. */
export interface OwnerStores {
  graph: GraphStore;
  memory: MemoryStore;
  entities: EntityIndex;
}

/**
 * Someone (or something) stored memories name who is no participant: a person others talk about but who never spoke
 * ("Cara lent me her bike"), asked for by name (`GET /v1/memories?participant=Cara`, MCP `get_participant`).
 */
export interface NamedInMemories {
  /** The names their facts are found by: the reference as given, capitalised, and the entity index's names for it. */
  names: string[];
  /** Ids of the facts about them or naming them (history included), in no particular order. */
  factIds: string[];
}

/** `ref` with its first letter upper-case: names are written capitalised in fact texts ("cara" finds "Cara"). */
function capitalised(ref: string): string {
  return ref.charAt(0).toLocaleUpperCase() + ref.slice(1);
}

/**
 * What stored memories hold of `ref` when no participant holds it as id, external id or name (the caller looked first):
 * the facts whose subject is the entity `entity:<name>` or whose text names them as a whole word, case as written, by
 * `ref`, `ref` capitalised, or a name or alias the entity index keeps for it (matched case-insensitively). These are
 * the facts an erasure of a person of that name would take (`MemoryStore.erasedFactIds`), so the two never disagree.
 * @returns null when `ref` has the form of a participant id (a stale or mistyped id stays unknown) or when neither a
 *   fact nor the entity index names it.
 */
export async function namedInMemories(
  stores: Omit<OwnerStores, 'graph'>, tenant: TenantId, ref: string,
): Promise<NamedInMemories | null> {
  const given = ref.trim();
  if (looksLikeParticipantId(given)) return null;
  const entities = await stores.entities.findByNames(tenant, [given]);
  const names = [...new Set([given, capitalised(given), ...entities.flatMap((e) => [e.name, ...e.aliases])])];
  const subjects = [...new Set([given.toLowerCase(), ...entities.map((e) => e.key), ...names].map((n) => `entity:${n}`))];
  const found = new Set<string>();
  for (const subject of subjects) {
    for (const id of await stores.memory.erasedFactIds(tenant, subject, names)) found.add(id);
  }
  if (found.size === 0 && entities.length === 0) return null;
  return { names, factIds: [...found] };
}

/** Whose memories a reference asks for: a participant's, or those of a name only stored memories hold. */
export type MemoryOwner = { participant: Participant; named?: undefined } | { participant?: undefined; named: NamedInMemories };

/** How the facts of a memory owner relate to them (`role` of `GET /v1/memories`). */
export type OwnerRole = NonNullable<FactFilter['role']>;

/**
 * The owner `ref` names: the participant it refers to (id, external id, name or alias), else what stored memories hold
 * of it (`namedInMemories`).
 * @throws ParleyError `PARLEY_ERR_CONFLICT` when a name matches several participants; `PARLEY_ERR_NOT_FOUND` when
 *   neither a participant nor a memory answers to it (a merged-away or erased id says so).
 */
export async function resolveMemoryOwner(stores: OwnerStores, tenant: TenantId, ref: string): Promise<MemoryOwner> {
  const participant = await findParticipantByRef(stores.graph, tenant, ref);
  if (participant) return { participant };
  const named = await namedInMemories(stores, tenant, ref);
  if (named) return { named };
  throw await unknownRef(stores.graph, tenant, ref, 'participant', ', and no memory names it');
}

/**
 * The fact filter for an owner's facts in `role`: a participant's by id; for a name only memories hold, the facts
 * naming it count as about them (`subject`, and so `any`), and none as said by or to them (`speaker`, `addressee`).
 */
export function ownerFilter(owner: MemoryOwner, role: OwnerRole): Pick<FactFilter, 'participantId' | 'role' | 'ids'> {
  if (owner.participant) return { participantId: owner.participant.id, role };
  return { ids: role === 'any' || role === 'subject' ? owner.named.factIds : [] };
}
