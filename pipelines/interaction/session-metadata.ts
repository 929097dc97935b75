import { ParleyError } from '../../graph/core/errors.js';
import type { GraphStore } from '../../graph/graph-store.js';
import type { Stores } from '../../graph/stores.js';
import type { TenantId } from '../../graph/types.js';

/** Most bytes one session's metadata may take as JSON. */
export const MAX_SESSION_METADATA_BYTES = 64 * 1024;

/**
 * The key of a session's metadata that keeps its agents (participant ids) once a stream named them: a session that is no
 * longer live here (ended, or live on another server, or before a restart) is scoped and resumed with them. A key of the
 * server's own (`$`: `session.update` refuses every such key, as `PATCH /v1/participants` does `$pending_rename`), so no
 * client data is ever read as agents. The `agents` key earlier versions kept them under ({@link LEGACY_AGENTS_KEY}) is
 * never read as people: clients could write it then (`session.update {"agents": [...]}`), and a real participant's id
 * there would widen a `participants` scope to whoever the client named. It is read only to narrow a scope
 * (`legacySessionAgents`), so a call kept before the upgrade keeps another call's agent words out as it did; it stays as
 * client metadata otherwise (a scrub takes it), and a session kept before names its agents again when its stream
 * reconnects with `?agent=`.
 */
export const SESSION_AGENTS_KEY = '$agents';

/** The key earlier versions kept a session's agents under, which clients could write too ({@link SESSION_AGENTS_KEY}). */
export const LEGACY_AGENTS_KEY = 'agents';

/** Whether `key` of a session's metadata is the server's to write (`$`…, like {@link SESSION_AGENTS_KEY}): a client's never is. */
export function isServerMetadataKey(key: string): boolean {
  return key.startsWith('$');
}

/** Most agents one session keeps. */
export const MAX_AGENTS = 16;

/** The lock key (`Stores.locks`) of writing session `sessionId`'s metadata: every writer reads and writes it under it. */
export function sessionMetadataLockKey(tenant: TenantId, sessionId: string): string {
  return `session-metadata:${tenant}:${sessionId}`;
}

/**
 * Change session `sessionId`'s metadata under its lock (`sessionMetadataLockKey`), so that two writers (a stream keeping
 * its agents, an erasure's scrub, `session.update`, a Twilio call's start) never undo each other's change. `change` gets
 * the metadata as stored (undefined for no session) and returns the new one, or undefined to leave it as it is.
 * @returns the metadata written, or undefined when nothing was
 * @throws ParleyError `PARLEY_ERR_BAD_REQUEST` when the new metadata is over {@link MAX_SESSION_METADATA_BYTES} as JSON
 *   (`what` names the change in the message); nothing is written then.
 */
export async function changeSessionMetadata(
  stores: Pick<Stores, 'graph' | 'locks'>, tenant: TenantId, sessionId: string,
  change: (metadata: Record<string, unknown> | undefined) => Record<string, unknown> | undefined | Promise<Record<string, unknown> | undefined>,
  what: string,
): Promise<Record<string, unknown> | undefined> {
  return stores.locks.withLock([sessionMetadataLockKey(tenant, sessionId)], async () => {
    const record = await stores.graph.getSession(tenant, sessionId);
    const metadata = await change(record?.metadata);
    if (metadata === undefined) return undefined;
    const bytes = Buffer.byteLength(JSON.stringify(metadata));
    if (bytes > MAX_SESSION_METADATA_BYTES) {
      throw new ParleyError('PARLEY_ERR_BAD_REQUEST', `${what} would make the session metadata ${bytes} bytes; at most ${MAX_SESSION_METADATA_BYTES} are kept per session`);
    }
    await stores.graph.updateSession(tenant, sessionId, { metadata });
    return metadata;
  });
}

/**
 * The agents a session's `metadata` keeps ({@link SESSION_AGENTS_KEY}, written by the server only), as they are now: an
 * id of a participant of `tenant`, or of one merged into another (read as that one). Anything else goes: an erased
 * participant's id, and anything that is no participant id at all.
 */
export async function sessionAgents(graph: GraphStore, tenant: TenantId, metadata: Record<string, unknown>): Promise<string[]> {
  return participantsNow(graph, tenant, metadata[SESSION_AGENTS_KEY]);
}

/**
 * The agents a session kept before the server owned its agents' key ({@link LEGACY_AGENTS_KEY}), read as
 * `sessionAgents` reads its own. Only to narrow a scope (`MemoryScope.agents`), never to widen it (`people`): a client
 * could have written that list.
 */
export async function legacySessionAgents(graph: GraphStore, tenant: TenantId, metadata: Record<string, unknown>): Promise<string[]> {
  return participantsNow(graph, tenant, metadata[LEGACY_AGENTS_KEY]);
}

/** The participant ids in `kept` (a stored list; anything else is none) as they are now, at most {@link MAX_AGENTS}. */
async function participantsNow(graph: GraphStore, tenant: TenantId, kept: unknown): Promise<string[]> {
  if (!Array.isArray(kept)) return [];
  const agents: string[] = [];
  for (const id of kept.slice(0, MAX_AGENTS)) {
    if (typeof id !== 'string' || id === '') continue;
    let now: string | null = id;
    if (!(await graph.getParticipant(tenant, id))) {
      const retired = await graph.retiredParticipant(tenant, id);
      now = retired !== null && 'mergedInto' in retired ? retired.mergedInto : null;
    }
    if (now !== null && !agents.includes(now)) agents.push(now);
  }
  return agents;
}
