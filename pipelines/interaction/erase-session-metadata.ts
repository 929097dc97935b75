import type { Stores } from '../../graph/stores.js';
import type { TenantId } from '../../graph/types.js';
import { changeSessionMetadata, SESSION_AGENTS_KEY, sessionAgents } from './session-metadata.js';

/** Session settings kept in a session's metadata that say nothing about who took part. */
const SETTINGS = ['channel', 'language', 'context_scope'] as const;

/** Ids of the Twilio call kept with it; none identifies the caller. */
const TWILIO_IDS = ['call_sid', 'stream_sid', 'account_sid', 'tracks'] as const;

/** Twilio custom parameters that are call settings, not about the caller. */
const TWILIO_SETTINGS = ['start_time', 'context_scope'] as const;

/**
 * A session's metadata without what a caller gave about themselves: the settings (`channel`, `language`,
 * `context_scope`), {@link SESSION_AGENTS_KEY} (its agents' participant ids, as `sessionAgents` reads them, but the erased
 * person's: none is the caller), and the Twilio call's ids and setting parameters stay; the client's `metadata`, every
 * other Twilio custom parameter (`external_id`, a caller's number, a CRM id…) and any other key go (an `agents` a client
 * kept before the server owned its key among them).
 */
export function scrubbedSessionMetadata(metadata: Record<string, unknown>, agents: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of SETTINGS) if (Object.hasOwn(metadata, key)) out[key] = metadata[key];
  if (agents.length > 0) out[SESSION_AGENTS_KEY] = [...agents];
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
export async function scrubSessionMetadata(stores: Pick<Stores, 'graph' | 'locks'>, tenant: TenantId, utteranceIds: readonly string[], erasedId: string): Promise<void> {
  const sessions = new Set<string>();
  for (const id of utteranceIds) {
    const u = await stores.graph.getUtterance(tenant, id);
    if (u) sessions.add(u.sessionId);
  }
  for (const sessionId of sessions) {
    // Under the session's metadata lock: what a writer kept meanwhile (a stream's agents, a Twilio call's start) is
    // scrubbed too, and never written back over the scrub.
    await changeSessionMetadata(stores, tenant, sessionId, async (metadata) => {
      if (!metadata) return undefined;
      const agents = (await sessionAgents(stores.graph, tenant, metadata)).filter((id) => id !== erasedId);
      const scrubbed = scrubbedSessionMetadata(metadata, agents);
      return JSON.stringify(scrubbed) === JSON.stringify(metadata) ? undefined : scrubbed;
    }, 'erasure');
  }
}
