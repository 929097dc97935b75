import type { EntityIndex } from '../../graph/entity-index.js';
import type { GraphStore } from '../../graph/graph-store.js';
import type { FactFilter, MemoryStore } from '../../graph/memory-store.js';
import type { Participant, TenantId } from '../../graph/types.js';
import { FUNCTION_WORDS } from '../asr/name-spotting.js';
import { isCalendarWord } from '../speaker/calendar-words.js';
import { isFunctionWord, labelIsAlsoWord } from '../speaker/name-words.js';
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
  /** The names their facts are found by: the reference capitalised, or the entity index's capitalised names for it. */
  names: string[];
  /** Ids of the facts about them or naming them (history included), in no particular order. */
  factIds: string[];
}

/** `ref` in lower case, each word's first letter upper-case: names are written so in fact texts ("CARA" finds "Cara"). */
function capitalised(ref: string): string {
  return ref.toLocaleLowerCase().replace(/(^|\s)(\p{Ll})/gu, (_, space: string, letter: string) => space + letter.toLocaleUpperCase());
}

/** Whether a name is written as a proper noun: its first letter upper-case ("Cara", not "green tea"). */
function writtenProper(name: string): boolean {
  return /^\p{Lu}/u.test(name.trim());
}

/** Whether `word` is on the project's lists of words that are no name: function words (modals included), days and months. */
function listedWord(word: string): boolean {
  return FUNCTION_WORDS.has(word.toLowerCase()) || isFunctionWord(word) || isCalendarWord(word);
}

/**
 * What stored memories hold of `ref` when no participant holds it as id, external id or name (the caller looked first).
 * `ref` is taken as a proper noun, any case: its names are the entity index's names and aliases for it written
 * capitalised (looked up case-insensitively), or, when it keeps none, `ref` capitalised. A reference whose first word
 * is a function word, day or month ("the", "will", "may": `listedWord`) is no name; one that is also an ordinary word
 * or a verb ("tea", "likes": `labelIsAlsoWord`) is one only where the entity index writes it capitalised. Its
 * facts are those (history included) whose text names one of these names as a whole word, case as written, or whose
 * subject is its entity: the facts an erasure of a person of those names would take (`MemoryStore.erasedFactIds`, read
 * once), so the two never disagree.
 * @returns null when `ref` has the form of a participant id (a stale or mistyped id stays unknown), is a word rather
 *   than a name, or neither a fact nor the entity index (capitalised) names it.
 */
export async function namedInMemories(
  stores: Omit<OwnerStores, 'graph'>, tenant: TenantId, ref: string,
): Promise<NamedInMemories | null> {
  const given = ref.trim();
  if (given.length === 0 || looksLikeParticipantId(given)) return null;
  const first = given.split(/\s+/)[0]!;
  if (listedWord(first)) return null;
  const proper = (await stores.entities.findByNames(tenant, [given])).filter((e) => writtenProper(e.name));
  const entityNames = proper.flatMap((e) => [e.name, ...e.aliases]).filter(writtenProper);
  if (entityNames.length === 0 && labelIsAlsoWord(first)) return null;
  const names = [...new Set([...(entityNames.length === 0 ? [capitalised(given)] : []), ...entityNames])];
  const subject = `entity:${proper[0]?.key ?? capitalised(given)}`;
  const factIds = [...new Set(await stores.memory.erasedFactIds(tenant, subject, names))];
  if (factIds.length === 0 && proper.length === 0) return null;
  return { names, factIds };
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
