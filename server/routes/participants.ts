import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyInstance } from 'fastify';
import { eraseParticipant, finishPendingErasures, type ErasureDeps, type ErasureOwner } from '../../pipelines/interaction/erase-participant.js';
import { knownTenants } from '../../pipelines/jobs.js';
import { ParleyError } from '../../graph/core/errors.js';
import { mergedAwayInto, mergeParticipantsByHand } from '../../pipelines/interaction/merge-participants.js';
import { finishAbandonedMerges, finishMergesBeforeErasure, MERGE_LEASE_MS } from '../../pipelines/interaction/finish-merges.js';
import { patchAttributes, taughtNames, withTaughtNames } from '../../pipelines/interaction/participant-attributes.js';
import { rederiveAttributes } from '../../pipelines/interaction/derived-attributes.js';
import { findParticipantByRef, resolveParticipantRef, unknownRef } from '../../pipelines/interaction/participant-ref.js';
import { finishTenantRenames, renameMemories, type RenameDeps } from '../../pipelines/interaction/finish-rename.js';
import { PENDING_RENAME, renameOwed } from '../../pipelines/interaction/pending-rename.js';
import { MemoryIndexer } from '../../pipelines/memory/memory-indexer.js';
import { isFunctionWord } from '../../pipelines/speaker/name-words.js';
import {
  errorResponse, errorResponses, PARTICIPANT_PAGE_DEFAULT, PARTICIPANT_PAGE_MAX, ParticipantErasedResponse, ParticipantMergeBody,
  ParticipantMergedResponse, ParticipantPatchBody, ParticipantRefParams, ParticipantsQuery, ParticipantsResponse, ParticipantView, ParticipantPatchedView, ref,
} from '../protocol/http-schemas.js';

import type { Participant } from '../../graph/types.js';
import { participantView } from './views.js';
import { forgetTenantCaches } from '../plugins/retrieval.js';

const NOT_FOUND = errorResponse(
  'PARLEY_ERR_NOT_FOUND: no participant by that id, external_id or name; an id merged away says which participant it was merged into, an erased one "participant was erased"');
const AMBIGUOUS = errorResponse('PARLEY_ERR_CONFLICT: several participants hold that name');
const ERASURE_CONFLICT = errorResponse('PARLEY_ERR_CONFLICT: several participants hold that name, or another server is finishing the erasure of that id (send it again once its claim ends), or a merge of that participant is running (send it again once it is done)');
const BAD_REF = errorResponse('PARLEY_ERR_BAD_REQUEST: the participant reference is blank or longer than 200 characters');

/** Participant profiles: list, read, patch, erase; merges, erasures and renames cut short by a crash are finished at start. */
export async function participantRoutes(app: FastifyInstance): Promise<void> {
  // In the background once the server is ready, never inside `onReady`: a large erasure would outlast the plugin
  // timeout and fail every start. Closing waits for it (the stores it writes close after this plugin).
  // Each erasure is claimed for a while (`ERASURE_LEASE_MS`) first, so servers starting together on one store finish it
  // once; one claimed by another server is looked at again when its lease ends (taken over if that server crashed).
  let atStart: Promise<void> = Promise.resolve();
  let closing = false;
  let again: NodeJS.Timeout | undefined;
  const lease = erasureOwner(app);
  // Merges cut short go first (an erasure of either participant is refused until they are done), the same way: one
  // begun on another server less than `MERGE_LEASE_MS` ago may be running and is looked at again when that has passed.
  const finish = async (): Promise<void> => {
    const waits = [await finishMergesAtStart(app), await finishErasuresAtStart(app, lease)].filter((ms): ms is number => ms !== null);
    if (waits.length > 0 && !closing) again = setTimeout(() => { atStart = Promise.all([atStart, finish()]).then(() => undefined); }, Math.min(...waits)).unref();
  };
  app.addHook('onReady', async () => {
    // Renames cut short are finished once, after the erasures (an erased person's rename has nothing left to rewrite).
    atStart = finish().then(() => finishRenamesAtStart(app));
  });
  app.addHook('onClose', async () => {
    closing = true;
    clearTimeout(again);
    await atStart;
  });
  app.get<{ Querystring: ParticipantsQuery }>('/v1/participants', {
    schema: {
      operationId: 'listParticipants', tags: ['participants'], summary: 'The participants of the tenant, oldest first, a page at a time',
      querystring: ParticipantsQuery,
      response: { 200: ref(ParticipantsResponse), 400: errorResponse('PARLEY_ERR_BAD_REQUEST: a query parameter is invalid'), ...errorResponses() },
    },
  }, async (request) => listParticipantViews(app, request.tenant, request.query));

  app.get<{ Params: ParticipantRefParams }>('/v1/participants/:id', {
    schema: {
      operationId: 'getParticipant', tags: ['participants'], summary: 'One participant profile, by id, external_id or name',
      params: ParticipantRefParams,
      response: { 200: ref(ParticipantView), 400: BAD_REF, 404: NOT_FOUND, 409: AMBIGUOUS, ...errorResponses() },
    },
  }, async (request) => participantView(app, await resolveParticipantRef(app.stores.graph, request.tenant, request.params.id)));

  app.patch<{ Params: ParticipantRefParams; Body: ParticipantPatchBody }>('/v1/participants/:id', {
    schema: {
      operationId: 'updateParticipant', tags: ['participants'],
      summary: 'Set name, external_id, aliases or attributes (a merge patch: a key set is the client\'s own, which memories never change; null removes the client\'s value, ' +
        'and a key derived from profile memories, such as lives_in, shows their current value again); a rename keeps the old name as an alias (unless the patch sets aliases or another participant holds it) ' +
        'and rewrites their memories that name them by the old name (or as "an unnamed speaker") to the new one',
      params: ParticipantRefParams, body: ref(ParticipantPatchBody),
      response: { 200: ref(ParticipantPatchedView), 400: errorResponse('PARLEY_ERR_BAD_REQUEST: invalid body (a blank name, attributes over 64 KiB)'), 404: NOT_FOUND, 409: errorResponse('PARLEY_ERR_CONFLICT: the name is ambiguous, another participant holds that external_id, a new alias is another participant\'s name or alias, or the external_id changes while a merge of the participant runs'), ...errorResponses({ body: true }) },
    },
  }, async (request) => {
    const { name, external_id: externalId, aliases, attributes } = request.body;
    const target = await resolveParticipantRef(app.stores.graph, request.tenant, request.params.id);
    if (aliases !== undefined) await checkAliasesFree(app, request.tenant, target, aliases);
    const nextAliases = aliases !== undefined ? [...new Set(aliases)] : await aliasesAfterRename(app, request.tenant, target, name);
    // Checked on the attributes read now (a bad patch is refused before anything is written), applied below on those stored then.
    const patched = attributes !== undefined ? patchAttributes(target.attributes, attributes) : undefined;
    const words = [...(name ? [name] : []), ...(aliases ?? [])];
    // Recorded before the name is set: a rewrite cut short is finished by this PATCH sent again.
    const owed = renameOwed(target, name);
    if (owed && name !== target.name) await app.stores.graph.updateParticipantAttribute(request.tenant, target.id, PENDING_RENAME, () => owed);
    const named = await app.stores.graph.updateParticipant(request.tenant, target.id, {
      ...(name !== undefined ? { name } : {}),
      ...(externalId !== undefined ? { externalId } : {}),
      ...(nextAliases !== undefined ? { aliases: nextAliases } : {}),
    });
    // In the store's transaction over the attributes as stored: a job's attribute written since the read above stays.
    const withPatch = (stored: Record<string, unknown>): Record<string, unknown> => {
      const next = attributes !== undefined ? patchAttributes(stored, attributes).attributes : stored;
      return clientNamed(next, words) ?? next;
    };
    const p = named && (attributes !== undefined || words.length > 0 ? await app.stores.graph.updateParticipantAttributes(request.tenant, target.id, withPatch) : named);
    if (!p) throw new ParleyError('PARLEY_ERR_NOT_FOUND', `no participant ${target.id}`);
    if (owed) await renameMemories(renameDeps(app), request.tenant, target.id, owed);
    const sameName = name ? await othersNamed(app, request.tenant, target.id, name) : {};
    if (!patched || patched.cleared.length === 0) return { ...(await participantView(app, p)), ...sameName };
    // A key cleared by null shows what the profile memories say of it again, if they say anything.
    const slots = patched.cleared.map((slot) => ({ participantId: p.id, slot }));
    const [rederived] = await rederiveAttributes(app.stores.graph, app.stores.memory, request.tenant, slots, new Date(app.clock()).toISOString());
    return { ...(await participantView(app, rederived ?? p)), ...sameName };
  });

  app.post<{ Params: ParticipantRefParams; Body: ParticipantMergeBody }>('/v1/participants/:id/merge', {
    schema: {
      operationId: 'mergeParticipant', tags: ['participants'],
      summary: 'Merge this participant into another (both by id, external_id or name), as the end-of-session speaker merge does: ' +
        'utterances, interactions, facts, persona, voiceprints, names and aliases go to `into`, and live sessions get speaker.merged; ' +
        'the same merge sent again finishes one cut short',
      params: ParticipantRefParams, body: ref(ParticipantMergeBody),
      response: {
        200: ref(ParticipantMergedResponse), 400: errorResponse('PARLEY_ERR_BAD_REQUEST: invalid body, or a participant merged into themself'), 404: NOT_FOUND,
        409: errorResponse('PARLEY_ERR_CONFLICT: a name is ambiguous, both hold different external ids, or either is being erased or merged otherwise'), ...errorResponses({ body: true }),
      },
    },
  }, async (request) => mergePerson(app, request.tenant, request.params.id, request.body.into));

  app.delete<{ Params: ParticipantRefParams }>('/v1/participants/:id', {
    schema: {
      operationId: 'eraseParticipant', tags: ['participants'],
      summary: 'Erase the participant (by id, external_id or name) everywhere: profile, utterances, edges, memories, persona, voiceprints, index entries; ' +
        'in other people\'s utterances their names and identifying details (address, phone, email…) become "[erased]"; ' +
        'an erasure cut short after the participant was removed (a crash) is finished by the same request with their id (200)',
      params: ParticipantRefParams,
      response: { 200: ref(ParticipantErasedResponse), 400: BAD_REF, 404: NOT_FOUND, 409: ERASURE_CONFLICT, ...errorResponses() },
    },
  }, async (request) => erasePerson(app, request.tenant, request.params.id));
}

/**
 * Refuse aliases another participant holds as a name or alias (`PARLEY_ERR_CONFLICT`, naming them), as a
 * rename never takes another's name as an alias: a label two people share resolves to neither. Aliases
 * the participant holds already are not checked again.
 */
async function checkAliasesFree(app: FastifyInstance, tenant: string, target: Participant, aliases: string[]): Promise<void> {
  const held = new Set([target.name, ...target.aliases].flatMap((n) => (n ? [n.toLowerCase()] : [])));
  for (const alias of new Set(aliases)) {
    if (held.has(alias.toLowerCase())) continue;
    const other = (await app.stores.graph.findParticipantsByName(tenant, alias)).find((p) => p.id !== target.id);
    if (other) {
      throw new ParleyError('PARLEY_ERR_CONFLICT',
        `alias ${JSON.stringify(alias)} is the name or an alias of participant ${other.id}${other.name ? ` (${other.name})` : ''}; ` +
        'one label for two people would resolve to neither: merge them if they are one person');
    }
  }
}

/** What a rename's memory rewrite needs of the app (`renameMemories`). */
function renameDeps(app: FastifyInstance): RenameDeps {
  return {
    graph: app.stores.graph, memory: app.stores.memory, locks: app.stores.locks,
    indexer: new MemoryIndexer(app.stores.vectors, app.stores.lexical, app.models.textEmbedder, app.config.memoryMinAsrConfidence),
  };
}

/**
 * A rename keeps the old name as an alias, so transcripts and imports that still say it reach the same
 * person (not a new participant), unless it is a function word, or another participant already holds that name or alias, or the
 * patch sets the aliases itself. Undefined when the aliases stay as they are.
 */
async function aliasesAfterRename(
  app: FastifyInstance, tenant: string, target: Participant, name: string | null | undefined,
): Promise<string[] | undefined> {
  const old = target.name;
  // A function word ("On", from "my name is on the list" before the fix) is no label to keep reaching them by.
  if (!old || !name || name.toLowerCase() === old.toLowerCase() || isFunctionWord(old)) return undefined;
  if (target.aliases.some((a) => a.toLowerCase() === old.toLowerCase())) return undefined;
  const holders = await app.stores.graph.findParticipantsByName(tenant, old);
  if (holders.some((h) => h.id !== target.id)) return undefined;
  return [...target.aliases, old];
}

/**
 * One page of the tenant's participants, oldest first, as the API shows them (`GET /v1/participants`,
 * MCP `list_participants`): at most `limit` (default 1,000) after `cursor`, and the cursor of the next
 * page (null on the last). The cursor is opaque to clients: the last participant's creation time and id.
 */
export async function listParticipantViews(
  app: FastifyInstance, tenant: string, query: ParticipantsQuery = {},
): Promise<{ participants: ParticipantView[]; next_cursor: string | null }> {
  const limit = Math.min(query.limit ?? PARTICIPANT_PAGE_DEFAULT, PARTICIPANT_PAGE_MAX);
  const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
  // One more than the page holds says whether another page follows.
  const read = await app.stores.graph.listParticipants(tenant, { ...(after ? { after } : {}), limit: limit + 1 });
  const page = read.slice(0, limit);
  const last = page[page.length - 1];
  return { participants: page.map((p) => participantView(app, p)), next_cursor: read.length > limit && last ? encodeCursor(last) : null };
}

function encodeCursor(p: { createdAt: string; id: string }): string {
  return Buffer.from(JSON.stringify([p.createdAt, p.id])).toString('base64url');
}

function decodeCursor(cursor: string): { createdAt: string; id: string } {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2 && value.every((v) => typeof v === 'string')) {
      return { createdAt: value[0] as string, id: value[1] as string };
    }
  } catch {
    // not JSON: refused below
  }
  throw new ParleyError('PARLEY_ERR_BAD_REQUEST', 'cursor is not a next_cursor this API gave');
}

/** Erase a participant, given by id, external_id or name, everywhere (`DELETE /v1/participants/{id}`, MCP `erase_participant`); 404 when unknown. */
export async function erasePerson(
  app: FastifyInstance, tenant: string, id: string,
): Promise<{ id: string; erased_utterances: number; erased_memories: number; erased_voiceprints: number }> {
  // An id whose erasure was cut short after the participant left the graph is erased again: that finishes it (200).
  const pending = (await app.stores.graph.pendingErasures(tenant)).some((e) => e.participantId === id);
  if (!pending) ({ id } = await findParticipantByRef(app.stores.graph, tenant, id) ?? await notAParticipant(app, tenant, id));
  // A merge cut short naming them (or leading to them) is finished first: what it owed moving to them is erased with them.
  await finishMergesBeforeErasure(app.stores, tenant, id, {
    leaseMs: MERGE_LEASE_MS, now: Date.now(), publish: (sessionId, event) => app.publish(tenant, sessionId, 'speaker.merged', event),
  });
  const erased = await eraseParticipant(erasureDeps(app), tenant, id, erasureOwner(app));
  if (!erased) throw new ParleyError('PARLEY_ERR_NOT_FOUND', `no participant ${id}`);
  forgetCachedTraces(app, tenant);
  return { id, erased_utterances: erased.utteranceIds.length, erased_memories: erased.factIds.length, erased_voiceprints: erased.voiceprints };
}

/**
 * The 404 of erasing a reference no participant holds; for a name, what to do instead: someone only mentioned in others'
 * words (a child a parent books for) is no participant, and the memories about them are deleted one by one.
 */
async function notAParticipant(app: FastifyInstance, tenant: string, ref: string): Promise<never> {
  const hint = `; someone only mentioned in other people's words is not a participant: list the memories about them with `
    + `GET /v1/memories?participant=${encodeURIComponent(ref)}&role=subject and delete each with DELETE /v1/memories/{id}`;
  throw await unknownRef(app.stores.graph, tenant, ref, 'participant', hint);
}

/** How long a server's claim on a pending erasure holds (`GraphStore.claimErasure`): past it, another server may take it. */
const ERASURE_LEASE_MS = 10 * 60_000;

/** Each server's owner name on pending erasures, one per server (keyed by its stores: every plugin of it sees the same). */
const erasureOwners = new WeakMap<object, ErasureOwner>();

/**
 * Who this server is when it claims a pending erasure (`GraphStore.claimErasure`): its start-up finisher and its
 * `DELETE` requests claim under one name, so a request never runs beside another server's finisher, and a request
 * repeated on the same server renews its own claim.
 */
export function erasureOwner(app: FastifyInstance): ErasureOwner {
  let owner = erasureOwners.get(app.stores);
  if (!owner) {
    owner = { owner: `${hostname()}:${process.pid}:${randomUUID()}`, leaseMs: ERASURE_LEASE_MS };
    erasureOwners.set(app.stores, owner);
  }
  return owner;
}

/**
 * Finish the erasures a crash (or a store failing) cut short, for every tenant this deployment knows, while the server
 * already serves and takes jobs. One that fails again is logged and stays pending (the next start, or the same DELETE,
 * finishes it); nothing here fails the start. Costs one indexed read per tenant when none is pending. Returns how long
 * until the first lease of another server on one left to it ends, or null when none was.
 */
async function finishErasuresAtStart(app: FastifyInstance, lease: ErasureOwner): Promise<number | null> {
  const log = app.log.child({ component: 'erasure' });
  let firstEnd: number | null = null;
  for (const tenant of knownTenants(app.config)) {
    try {
      const pending = (await app.stores.graph.pendingErasures(tenant)).length;
      if (pending === 0) continue;
      log.info({ tenant, erasures: pending }, 'finishing erasures cut short before, in the background');
      const { done, held } = await finishPendingErasures(erasureDeps(app), tenant, lease);
      if (done.length > 0) forgetCachedTraces(app, tenant);
      for (const h of held) firstEnd = Math.min(firstEnd ?? Infinity, Date.parse(h.leaseUntil));
      log.info({ tenant, erasures: done.length, leftToOthers: held.length }, 'erasures cut short before were finished');
    } catch (err) {
      log.error({ err, tenant }, 'an erasure cut short could not be finished; it stays pending until the next start or a repeated request');
    }
  }
  return firstEnd === null ? null : Math.max(0, firstEnd - Date.now()) + 1000;
}

/**
 * Finish (or roll back) the merges a crash cut short (`finishAbandonedMerges`), for every tenant this deployment knows.
 * Returns in how many ms to look again (a merge begun less than `MERGE_LEASE_MS` ago), or null.
 */
async function finishMergesAtStart(app: FastifyInstance): Promise<number | null> {
  const log = app.log.child({ component: 'merge' });
  let wait: number | null = null;
  for (const tenant of knownTenants(app.config)) {
    try {
      const publish = (sessionId: string, event: { from: string; into: string }): void => app.publish(tenant, sessionId, 'speaker.merged', event);
      const left = await finishAbandonedMerges(app.stores, tenant, { leaseMs: MERGE_LEASE_MS, now: Date.now(), log, publish });
      if (left !== null) wait = Math.min(wait ?? Infinity, left + 1000);
    } catch (err) {
      log.error({ err, tenant }, 'merges cut short could not be read; they stay pending until the next start');
    }
  }
  return wait;
}

/**
 * Finish the memory rewrites of renames a crash cut short (`PENDING_RENAME`: a PATCH, a name learned from speech or by
 * a profile job, a merge), for every tenant this deployment knows, in the background like erasures. A pass over each
 * tenant's participants owing one (`GraphStore.participantsOwingRename`, an indexed read), a page at a time; one that fails is logged and stays pending for the next start (or the same
 * PATCH, or the participant's next consolidation job).
 */
async function finishRenamesAtStart(app: FastifyInstance): Promise<void> {
  const log = app.log.child({ component: 'rename' });
  for (const tenant of knownTenants(app.config)) {
    try {
      const finished = await finishTenantRenames(renameDeps(app), tenant);
      if (finished > 0) log.info({ tenant, renames: finished }, 'memory rewrites of renames cut short before were finished');
    } catch (err) {
      log.error({ err, tenant }, 'a rename cut short could not be finished; it stays pending until the next start');
    }
  }
}

/** Drop what this process keeps in memory of an erased person's tenant (`forgetTenantCaches`), where retrieval runs. */
export function forgetCachedTraces(app: FastifyInstance, tenant: string): void {
  if (app.hasDecorator('queryCoherence')) forgetTenantCaches(app, tenant);
}

/** What erasure needs of the app. */
export function erasureDeps(app: FastifyInstance): ErasureDeps {
  return {
    stores: app.stores, audioSpans: app.models.audioSpans, embedder: app.models.textEmbedder, minAsrConfidence: app.config.memoryMinAsrConfidence,
    events: app.events,
  };
}

/** Merge one participant into another, both given by id, external_id or name (`POST /v1/participants/{id}/merge`, MCP `merge_participants`). */
export async function mergePerson(
  app: FastifyInstance, tenant: string, fromRef: string, intoRef: string,
): Promise<{ from: string; into: ParticipantView; moved_utterances: number; moved_voiceprints: number; session_ids: string[] }> {
  const into = await resolveParticipantRef(app.stores.graph, tenant, intoRef);
  // The same merge sent again after the graph retired `from` into `into` finishes what it left (`mergeParticipantsByHand`).
  const from = await mergedAwayInto(app.stores.graph, tenant, fromRef, into.id) ? { id: fromRef } : await resolveParticipantRef(app.stores.graph, tenant, fromRef);
  const report = await mergeParticipantsByHand(app.stores, tenant, from.id, into.id, (sessionId, event) => app.publish(tenant, sessionId, 'speaker.merged', event));
  const merged = await app.stores.graph.getParticipant(tenant, into.id);
  if (!merged) throw new ParleyError('PARLEY_ERR_NOT_FOUND', `no participant ${into.id}`);
  return {
    from: from.id, into: participantView(app, merged), moved_utterances: report.utteranceIds.length,
    moved_voiceprints: report.voiceprints, session_ids: report.sessionIds,
  };
}

/**
 * `attributes` with the names a PATCH sets (`words`: its name and aliases) no longer recorded as taught by profile
 * updates (`TAUGHT_NAMES`): the client's now, never taken back by a speaker revision. Undefined when none was taught.
 */
function clientNamed(attributes: Record<string, unknown>, words: string[]): Record<string, unknown> | undefined {
  const taught = taughtNames(attributes);
  const claimed = words.map((w) => w.toLowerCase()).filter((w) => taught.has(w));
  if (claimed.length === 0) return undefined;
  for (const w of claimed) taught.delete(w);
  return withTaughtNames(attributes, taught);
}

/**
 * A name given by PATCH that other participants hold too (as name or alias): `same_name` with their ids, so the client
 * learns at once that the name now looks up several people (409) rather than at its next lookup. Nothing otherwise.
 */
async function othersNamed(app: FastifyInstance, tenant: string, id: string, name: string): Promise<{ same_name?: string[] }> {
  const others = (await app.stores.graph.findParticipantsByName(tenant, name)).filter((p) => p.id !== id).map((p) => p.id);
  return others.length > 0 ? { same_name: others } : {};
}
