import { ParleyError } from '../../graph/core/errors.js';
import type { GraphStore } from '../../graph/graph-store.js';
import type { Participant, TenantId } from '../../graph/types.js';

/** How a candidate is listed in an ambiguity error: id, and external id when it has one. */
function describe(p: Participant): string {
  return p.externalId ? `${p.id} (external_id ${JSON.stringify(p.externalId)})` : p.id;
}

/** A participant id's form: `p_` and letters or digits (ids are `p_` and 32 hex digits). */
const PARTICIPANT_ID_FORM = /^p_[A-Za-z0-9]+$/;

/**
 * Whether `label` has the form of a participant id: as a speaker or addressee no one holds, it is an
 * unknown id (a 404), never a new participant's name.
 */
export function looksLikeParticipantId(label: string): boolean {
  return PARTICIPANT_ID_FORM.test(label.trim());
}

/**
 * The one participant a client's reference names, tried in this order: a participant id, an
 * external id, a name or alias (case-insensitive).
 * @returns null when nothing matches.
 * @throws ParleyError `PARLEY_ERR_CONFLICT` when a name matches several participants: the message
 *   lists them, so the client can send an id or external id instead. Two people labelled alike are
 *   never taken for one.
 */
export async function findParticipantByRef(graph: GraphStore, tenant: TenantId, ref: string): Promise<Participant | null> {
  const byId = await graph.getParticipant(tenant, ref);
  if (byId) return byId;
  const byExternal = await graph.getParticipantByExternalId(tenant, ref);
  if (byExternal) return byExternal;
  return oneNamed(ref, await graph.findParticipantsByName(tenant, ref));
}

/**
 * The one participant of `byName` (those holding name `ref`), null when none.
 * @throws ParleyError `PARLEY_ERR_CONFLICT` listing them when there are several.
 */
export function oneNamed(ref: string, byName: readonly Participant[]): Participant | null {
  if (byName.length > 1) {
    throw new ParleyError('PARLEY_ERR_CONFLICT',
      `${JSON.stringify(ref)} names ${byName.length} participants: ${byName.map(describe).join(', ')}; send a participant id or external_id instead`);
  }
  return byName[0] ?? null;
}

/**
 * Like {@link findParticipantByRef}, for lookups and filters: an unknown reference is a 404.
 * @throws ParleyError `PARLEY_ERR_NOT_FOUND` or `PARLEY_ERR_CONFLICT`.
 */
export async function resolveParticipantRef(graph: GraphStore, tenant: TenantId, ref: string, what = 'participant'): Promise<Participant> {
  const found = await findParticipantByRef(graph, tenant, ref);
  if (found) return found;
  throw await unknownRef(graph, tenant, ref, what);
}

/**
 * The 404 for `ref`, which no participant holds: it says where a merged-away id went, that an erased one was erased,
 * or that there is no `what` by that reference (`also` appended: what else was looked for).
 */
export async function unknownRef(graph: GraphStore, tenant: TenantId, ref: string, what = 'participant', also = ''): Promise<ParleyError> {
  const retired = await graph.retiredParticipant(tenant, ref);
  if (retired && 'mergedInto' in retired) {
    return new ParleyError('PARLEY_ERR_NOT_FOUND', `participant ${ref} was merged into ${retired.mergedInto}; use ${retired.mergedInto}`);
  }
  if (retired) return new ParleyError('PARLEY_ERR_NOT_FOUND', 'participant was erased');
  return new ParleyError('PARLEY_ERR_NOT_FOUND', `no ${what} with id, external_id or name ${JSON.stringify(ref)}${also}`);
}

/**
 * For a write naming `ref` (an utterance's speaker or addressee) that no participant holds: the survivor
 * when `ref` is an id merged away (the write is attributed to them), null when `ref` was never retired.
 * @throws ParleyError `PARLEY_ERR_CONFLICT` when `ref` is an erased id: nothing is written under it, and no
 *   new participant takes it.
 */
export async function survivorOfRetired(graph: GraphStore, tenant: TenantId, ref: string): Promise<Participant | null> {
  const retired = await graph.retiredParticipant(tenant, ref);
  if (!retired) return null;
  if ('erased' in retired) {
    throw new ParleyError('PARLEY_ERR_CONFLICT', 'a speaker or addressee names a participant who was erased; nothing was stored (name the person anew)');
  }
  return graph.getParticipant(tenant, retired.mergedInto);
}
