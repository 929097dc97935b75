import type { Stores } from '../../graph/stores.js';
import type { TenantId } from '../../graph/types.js';

/** Session settings kept in a session's metadata that say nothing about who took part. */
const SETTINGS = ['channel', 'language', 'context_scope'] as const;

/** Ids of the Twilio call kept with it; none identifies the caller. */
const TWILIO_IDS = ['call_sid', 'stream_sid', 'account_sid', 'tracks'] as const;

/** Twilio custom parameters that are call settings, not about the caller. */
const TWILIO_SETTINGS = ['start_time', 'context_scope'] as const;

/** The key of the session's agents (participant ids its stream named: `SESSION_AGENTS_KEY`); none is the caller. */
const AGENTS = 'agents';

/**
 * A session's metadata without what a caller gave about themselves: the settings (`channel`, `language`,
 * `context_scope`), its agents but `erasedId`, and the Twilio call's ids and setting parameters stay; the client's
 * `metadata`, every other Twilio custom parameter (`external_id`, a caller's number, a CRM id…) and any other key go.
 */
export function scrubbedSessionMetadata(metadata: Record<string, unknown>, erasedId?: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of SETTINGS) if (Object.hasOwn(metadata, key)) out[key] = metadata[key];
  const agents = Array.isArray(metadata[AGENTS]) ? (metadata[AGENTS] as unknown[]).filter((id) => typeof id === 'string' && id !== erasedId) : [];
  if (agents.length > 0) out[AGENTS] = agents;
  const twilio = metadata.twilio;
  if (typeof twilio === 'object' && twilio !== null && !Array.isArray(twilio)) {
    const call = twilio as Record<string, unknown>;
    const kept: Record<string, unknown> = {};
    for (const key of TWILIO_IDS) if (Object.hasOwn(call, key)) kept[key] = call[key];
    const params = call.custom_parameters;
    if (typeof params === 'object' && params !== null && !Array.isArray(params)) {
      const given = params as Record<string, unknown>;
      kept.custom_parameters = Object.fromEntries(TWILIO_SETTINGS.filter((k) => Object.hasOwn(given, k)).map((k) => [k, given[k]]));
    }
    out.twilio = kept;
  }
  return out;
}

/**
 * Scrub the metadata of the sessions the erased person `erasedId` spoke in (`scrubbedSessionMetadata`): a Twilio call
 * keeps its caller's `external_id` and other custom parameters there, a WebSocket client its own `metadata`, and an
 * agent's session its id. Idempotent.
 */
export async function scrubSessionMetadata(stores: Stores, tenant: TenantId, utteranceIds: readonly string[], erasedId: string): Promise<void> {
  const sessions = new Set<string>();
  for (const id of utteranceIds) {
    const u = await stores.graph.getUtterance(tenant, id);
    if (u) sessions.add(u.sessionId);
  }
  for (const sessionId of sessions) {
    const record = await stores.graph.getSession(tenant, sessionId);
    if (!record?.metadata) continue;
    const scrubbed = scrubbedSessionMetadata(record.metadata, erasedId);
    if (JSON.stringify(scrubbed) !== JSON.stringify(record.metadata)) await stores.graph.updateSession(tenant, sessionId, { metadata: scrubbed });
  }
}
