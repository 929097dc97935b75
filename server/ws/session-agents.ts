import { ParleyError } from '../../graph/core/errors.js';
import type { GraphStore } from '../../graph/graph-store.js';
import type { TenantId } from '../../graph/types.js';
import type { Stores } from '../../graph/stores.js';
import { findParticipantByRef } from '../../pipelines/interaction/participant-ref.js';
import { changeSessionMetadata, MAX_AGENTS, SESSION_AGENTS_KEY } from '../../pipelines/interaction/session-metadata.js';

/**
 * Keep `agents` in session `sessionId`'s metadata ({@link SESSION_AGENTS_KEY}), the rest of it as it is, under the
 * session's metadata lock (`changeSessionMetadata`): a scrub or another write meanwhile is never undone.
 * @throws ParleyError `PARLEY_ERR_BAD_REQUEST` when that would take the metadata over its 64 KiB (nothing written).
 */
export async function keepSessionAgents(stores: Pick<Stores, 'graph' | 'locks'>, tenant: TenantId, sessionId: string, agents: readonly string[]): Promise<void> {
  await changeSessionMetadata(stores, tenant, sessionId,
    (metadata) => metadata && { ...metadata, [SESSION_AGENTS_KEY]: [...agents] }, `agent (${agents.length} agents)`);
}

/** What resolving a stream's agents needs to know besides the store. */
export interface AgentCheck {
  /** Whether the tenant's voiceprints are stored (`voiceprintsAllowed`): without them no agent's voice is known. */
  voiceprints: boolean;
  /** The stream's `external_id`, if any: an agent holding it would be the caller too. */
  externalId?: string;
  /** Where the agents were named, for errors; default `querystring/agent` (`/v1/twilio` also takes `start: customParameters.agent`). */
  field?: string;
}

/**
 * The participant ids of a stream's `?agent=` values (repeatable, each also a comma list; ids, external ids or
 * names), for a call centre: their voices never take the session's external id, which goes to the first speaker
 * who is not an agent (docs/PROTOCOL.md, `agent`). Checked before the upgrade, so a mistake is an HTTP error
 * naming the value, never a call whose caller id lands on the agent.
 * @throws ParleyError `PARLEY_ERR_BAD_REQUEST` for an unknown agent, one without a voiceprint (the server could
 *   not tell their voice from the caller's), one holding the stream's `external_id`, no voiceprints stored for the
 *   tenant, or more than {@link MAX_AGENTS}; `PARLEY_ERR_CONFLICT` for a name several participants hold.
 */
export async function resolveAgents(graph: GraphStore, tenant: TenantId, values: readonly string[], check: AgentCheck): Promise<string[]> {
  const field = check.field ?? 'querystring/agent';
  const refs = [...new Set(values.flatMap((v) => v.split(',')).map((r) => r.trim()).filter((r) => r !== ''))];
  if (refs.length === 0) throw new ParleyError('PARLEY_ERR_BAD_REQUEST', `${field} must name a participant (id, external_id or name), not be blank`);
  if (refs.length > MAX_AGENTS) throw new ParleyError('PARLEY_ERR_BAD_REQUEST', `${field} names ${refs.length} agents: at most ${MAX_AGENTS}`);
  if (!check.voiceprints) {
    throw new ParleyError('PARLEY_ERR_BAD_REQUEST',
      `${field} needs stored voiceprints to know the agent's voice, and this tenant has none (PARLEY_VOICEPRINTS does not include it)`);
  }
  const ids: string[] = [];
  for (const ref of refs) {
    const agent = await findParticipantByRef(graph, tenant, ref).catch((err: unknown) => {
      if (err instanceof ParleyError) throw new ParleyError(err.code, `${field}: ${err.message}`);
      throw err;
    });
    if (!agent) {
      throw new ParleyError('PARLEY_ERR_BAD_REQUEST',
        `${field}: no participant with id, external_id or name ${JSON.stringify(ref)} (name the agent once: let them speak on /v1/stream, then PATCH /v1/participants/{id} {"name": …})`);
    }
    if (agent.voiceprintCount === 0) {
      throw new ParleyError('PARLEY_ERR_BAD_REQUEST',
        `${field}: ${JSON.stringify(ref)} (${agent.id}) has no voiceprint, so their voice cannot be told from the caller's: let them speak once on /v1/stream first`);
    }
    if (check.externalId !== undefined && agent.externalId === check.externalId) {
      throw new ParleyError('PARLEY_ERR_BAD_REQUEST', `${field}: ${JSON.stringify(ref)} (${agent.id}) holds external_id ${JSON.stringify(check.externalId)}, the id this stream gives its caller`);
    }
    if (!ids.includes(agent.id)) ids.push(agent.id);
  }
  return ids;
}
