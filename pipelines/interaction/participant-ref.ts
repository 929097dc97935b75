import { ParleyError } from '../../graph/core/errors.js';
import type { GraphStore } from '../../graph/graph-store.js';
import type { Participant, TenantId } from '../../graph/types.js';

/** How a candidate is listed in an ambiguity error: id, and external id when it has one. */
function describe(p: Participant): string {
  return p.externalId ? `${p.id} (external_id ${JSON.stringify(p.externalId)})` : p.id;
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
  const byName = await graph.findParticipantsByName(tenant, ref);
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
  if (!found) throw new ParleyError('PARLEY_ERR_NOT_FOUND', `no ${what} with id, external_id or name ${JSON.stringify(ref)}`);
  return found;
}
