import type { ManagedTransaction } from 'neo4j-driver';
import type { AddUtterancesOptions, GraphStore, InteractionFilter, NewUtterance, ParticipantNames, ParticipantPage, ParticipantPatch, TranscriptPage } from '../graph-store.js';
import type { Participant, SessionRecord, StreamClock, TenantId, Utterance } from '../types.js';
import { backfillAddressees, GRAPH_SCHEMA, int, type Neo4jOptions } from './neo4j-connection.js';
import { Neo4jStoreBase, propRows as rows } from './neo4j-store-base.js';
import { newId } from '../core/ids.js';
import { withAttribute } from '../attribute-update.js';
import { externalIdTaken } from '../external-id.js';
import { namedInText, textNameWords } from '../name-words.js';
import type { RetiredParticipant } from '../retired-ids.js';
import { lookupRetired, RETIRED_IDS_SCHEMA } from './neo4j-retired-ids.js';
import type { ErasureLease, PendingErasure } from '../pending-erasures.js';
import { endMerge, pendingMerges, pendingMergesOf, PENDING_MERGES_SCHEMA, renewMerge } from './neo4j-pending-merges.js';
import type { PendingMerge } from '../pending-merges.js';
import { beginClaimedErasure, beginErasure, claimErasure, endErasure, pendingErasures, PENDING_ERASURES_SCHEMA, refuseWhileMerging } from './neo4j-pending-erasures.js';
import { BACKFILL_OWING_RENAME, backfillParticipantNames, OWING_RENAME_SCHEMA, SYNC_NAMES, SYNC_WORDS, syncOwingRename, wordsEntry } from './neo4j-participant-names.js';
import { toParticipant, toSession, toUtterance } from './neo4j-graph-rows.js';
import { eraseParticipant } from './neo4j-participant-erasure.js';
import { deleteSession, deleteUtterances, setUtteranceTexts, utterancesContaining } from './neo4j-utterance-erasure.js';
import { mergeMarker, mergeParticipantBatched } from './neo4j-participant-merge.js';
import { checkStreamOwner, setUtteranceSpeakerIn, writeUtterances } from './neo4j-utterance-writes.js';

export { ERASE_BATCH } from './neo4j-participant-erasure.js';

/** The participants of stored tenant `$tenant` holding lower-cased `$name` as name or alias, oldest first. */
const FIND_BY_NAME = `
  MATCH (k:ParticipantName {tenant: $tenant, key: $name})
  WITH DISTINCT k.participantId AS pid
  MATCH (n:Participant {tenant: $tenant, id: pid})
  RETURN n {.*} AS n ORDER BY n.createdAt, n.id`;

/**
 * `openActiveAt` (the idle sweep's index) for the open sessions stored before it existed: `activeAt` of each
 * session not ended.
 */
const BACKFILL_OPEN_ACTIVE_AT = `MATCH (s:Session) WHERE s.endedAt IS NULL AND s.activeAt IS NOT NULL AND s.openActiveAt IS NULL
  CALL { WITH s SET s.openActiveAt = s.activeAt } IN TRANSACTIONS OF 1000 ROWS`;

/**
 * The interaction graph in Neo4j: `(:Participant)-[:SPEAKS]->(:Utterance)-[:ADDRESSES]->(:Participant)`,
 * `(:Utterance)-[:IN_SESSION]->(:Session)`. Every node carries `tenant` (uniqueness on (tenant, id)
 * per label) and every query matches on it. Utterances also keep `speakerId` and `addresseeIds` as
 * properties, the record of truth (ids may name participants not created yet); the edges mirror them
 * for traversal. Parameterised Cypher only, in managed transactions that retry transient errors.
 */
export class Neo4jGraphStore extends Neo4jStoreBase implements GraphStore {
  private names: Promise<void> | undefined;

  /** The schema, then name keys for participants stored before they existed (once per process). */
  override async init(): Promise<void> {
    await super.init();
    this.names ??= (async () => {
      await backfillParticipantNames(this.db);
      await this.migrateOnce('utterance-addressees', backfillAddressees('Utterance'));
      await this.migrateOnce('participant-owing-rename', BACKFILL_OWING_RENAME);
      await this.migrateOnce('session-open-active-at', BACKFILL_OPEN_ACTIVE_AT);
    })().catch((err: unknown) => {
      this.names = undefined;
      throw err;
    });
    await this.names;
  }

  constructor(options: Neo4jOptions) {
    super(options, [...GRAPH_SCHEMA, ...RETIRED_IDS_SCHEMA, ...PENDING_ERASURES_SCHEMA, ...PENDING_MERGES_SCHEMA, ...OWING_RENAME_SCHEMA]);
  }

  async openSession(tenant: TenantId, sessionId: string, startedAt: string): Promise<SessionRecord> {
    await this.init();
    const [s] = await this.db.write('openSession', (tx) => rows(tx, `
      MERGE (n:Session {tenant: $tenant, id: $id})
      ON CREATE SET n.startedAt = $startedAt, n.metadata = '{}', n.lastEventSeq = 0
      RETURN n {.*} AS n`, { tenant: this.t(tenant), id: sessionId, startedAt }));
    return toSession(s!);
  }

  async getSession(tenant: TenantId, sessionId: string): Promise<SessionRecord | null> {
    await this.init();
    const [s] = await this.db.read('getSession', (tx) => rows(tx,
      'MATCH (n:Session {tenant: $tenant, id: $id}) RETURN n {.*} AS n', { tenant: this.t(tenant), id: sessionId }));
    return s ? toSession(s) : null;
  }

  async updateSession(
    tenant: TenantId,
    sessionId: string,
    patch: Partial<Pick<SessionRecord, 'endedAt' | 'metadata' | 'lastEventSeq' | 'audioStreamMs' | 'activeAt'>>,
  ): Promise<void> {
    await this.init();
    await this.db.write('updateSession', (tx) => tx.run(`
      MATCH (n:Session {tenant: $tenant, id: $id})
      SET n.endedAt = CASE WHEN $setEnded THEN $endedAt ELSE n.endedAt END,
          n.metadata = coalesce($metadata, n.metadata),
          n.lastEventSeq = CASE WHEN $seq IS NOT NULL AND $seq > n.lastEventSeq THEN $seq ELSE n.lastEventSeq END,
          n.audioStreamMs = CASE WHEN $setStream THEN $audioStreamMs ELSE n.audioStreamMs END,
          n.activeAt = coalesce($activeAt, n.activeAt)
      SET n.openActiveAt = CASE WHEN n.endedAt IS NULL THEN n.activeAt END`, {
      tenant: this.t(tenant), id: sessionId, setEnded: patch.endedAt !== undefined, endedAt: patch.endedAt ?? null,
      metadata: patch.metadata ? JSON.stringify(patch.metadata) : null,
      seq: patch.lastEventSeq === undefined ? null : int(patch.lastEventSeq),
      setStream: patch.audioStreamMs !== undefined, audioStreamMs: patch.audioStreamMs ?? null,
      activeAt: patch.activeAt ?? null,
    }));
  }

  async takeAudioStream(tenant: TenantId, sessionId: string, owner: string): Promise<void> {
    await this.init();
    await this.db.write('takeAudioStream', (tx) => tx.run('MATCH (n:Session {tenant: $tenant, id: $id}) SET n.streamOwner = $owner',
      { tenant: this.t(tenant), id: sessionId, owner }));
  }

  async startAudioStream(tenant: TenantId, sessionId: string, owner: string, audioStreamMs: number, clock: StreamClock | null = null): Promise<boolean> {
    await this.init();
    const result = await this.db.write('startAudioStream', (tx) => tx.run(`
      MATCH (n:Session {tenant: $tenant, id: $id}) WHERE n.streamOwner IS NULL OR n.streamOwner = $owner
      SET n.audioStreamMs = $ms, n.streamClock = $clock RETURN n.id AS id`,
    { tenant: this.t(tenant), id: sessionId, owner, ms: audioStreamMs, clock: clock ? JSON.stringify(clock) : null }));
    return result.records.length > 0;
  }

  async releaseEventSeq(tenant: TenantId, sessionId: string, reserved: number, last: number): Promise<void> {
    if (last >= reserved) return;
    await this.init();
    await this.db.write('releaseEventSeq', (tx) => tx.run(`
      MATCH (n:Session {tenant: $tenant, id: $id}) WHERE n.lastEventSeq = $reserved
      SET n.lastEventSeq = $last`, { tenant: this.t(tenant), id: sessionId, reserved: int(reserved), last: int(last) }));
  }

  async endSession(tenant: TenantId, sessionId: string, endedAt: string): Promise<{ endedAt: string; ended: boolean } | null> {
    await this.init();
    // The first SET takes the node's write lock, so the read of endedAt after it sees any end committed
    // meanwhile: of two ends at once, the second finds the first's time.
    const [r] = await this.db.write('endSession', (tx) => rows(tx, `
      MATCH (n:Session {tenant: $tenant, id: $id})
      SET n._ending = true
      WITH n, n.endedAt IS NULL AS open
      SET n.endedAt = coalesce(n.endedAt, $endedAt)
      REMOVE n._ending, n.openActiveAt
      RETURN {endedAt: n.endedAt, ended: open} AS n`, { tenant: this.t(tenant), id: sessionId, endedAt }));
    return r ? { endedAt: String(r.endedAt), ended: r.ended === true } : null;
  }

  async idleSessions(activeBefore: string, limit: number): Promise<Array<{ tenant: TenantId; id: string }>> {
    await this.init();
    const found = await this.db.read('idleSessions', (tx) => rows(tx, `
      MATCH (s:Session) USING INDEX s:Session(openActiveAt)
      WHERE s.openActiveAt < $before AND s.tenant STARTS WITH $prefix AND s.endedAt IS NULL
      WITH s ORDER BY s.openActiveAt LIMIT $limit
      RETURN {tenant: s.tenant, id: s.id} AS n`, { prefix: this.prefix, before: activeBefore, limit: int(limit) }));
    return found.map((r) => ({ tenant: String(r.tenant).slice(this.prefix.length), id: String(r.id) }));
  }

  async createParticipant(tenant: TenantId, init: ParticipantPatch & { id?: string }): Promise<Participant> {
    await this.init();
    const t = this.t(tenant);
    return this.db.write('createParticipant', (tx) => this.createIn(tx, t, init));
  }

  async createNamedParticipant(tenant: TenantId, name: string): Promise<{ participants: Participant[]; created: boolean }> {
    await this.init();
    const t = this.t(tenant);
    const key = name.toLowerCase();
    return this.db.write('createNamedParticipant', async (tx) => {
      // MERGE under the uniqueness constraint on (tenant, key) locks the key until this transaction ends:
      // a concurrent call for the name, from any process, waits here and then finds this one's participant
      // below. The claim is deleted before commit, so no node keeps the name once the transaction is over.
      await tx.run('MERGE (c:ParticipantNameClaim {tenant: $tenant, key: $key}) SET c.at = $now', { tenant: t, key, now: new Date().toISOString() });
      const holders = await rows(tx, FIND_BY_NAME, { tenant: t, name: key });
      const participants = holders.length > 0 ? holders.map(toParticipant) : [await this.createIn(tx, t, { name })];
      await tx.run('MATCH (c:ParticipantNameClaim {tenant: $tenant, key: $key}) DELETE c', { tenant: t, key });
      return { participants, created: holders.length === 0 };
    });
  }

  /** Create participant `init.id` (a fresh id when absent) of stored tenant `t` in `tx`, or return it if it exists. */
  private async createIn(tx: ManagedTransaction, t: string, init: ParticipantPatch & { id?: string }): Promise<Participant> {
    const now = new Date().toISOString();
    const id = init.id ?? newId('p');
    // Checked in the write transaction; the uniqueness constraint on (tenant, externalId) backs it.
    if (init.externalId) {
      const [holder] = await rows(tx, 'MATCH (n:Participant {tenant: $tenant, externalId: $ext}) RETURN n {.*} AS n', { tenant: t, ext: init.externalId });
      if (holder && String(holder.id) !== id) throw externalIdTaken(init.externalId, String(holder.id));
    }
    const [p] = await rows(tx, `
      MERGE (n:Participant {tenant: $tenant, id: $id})
      ON CREATE SET n.name = $name, n.externalId = $externalId, n.aliases = $aliases, n.attributes = $attributes,
                    n.voiceprintCount = 0, n.createdAt = $now, n.updatedAt = $now
      ${syncOwingRename('n')}
      RETURN n {.*} AS n`, {
      tenant: t, id, name: init.name ?? null, externalId: init.externalId ?? null, aliases: init.aliases ?? [],
      attributes: JSON.stringify(init.attributes ?? {}), now,
    });
    if (p!.namesIndexed !== true) await tx.run(SYNC_NAMES, { tenant: t, pid: p!.id });
    if (p!.wordsIndexed !== true) await tx.run(SYNC_WORDS, { batch: [wordsEntry(t, toParticipant(p!))] });
    return toParticipant(p!);
  }

  async getParticipant(tenant: TenantId, id: string): Promise<Participant | null> {
    await this.init();
    const [p] = await this.db.read('getParticipant', (tx) => rows(tx,
      'MATCH (n:Participant {tenant: $tenant, id: $id}) RETURN n {.*} AS n', { tenant: this.t(tenant), id }));
    return p ? toParticipant(p) : null;
  }

  async getParticipants(tenant: TenantId, ids: string[]): Promise<Participant[]> {
    if (ids.length === 0) return [];
    await this.init();
    const found = await this.db.read('getParticipants', (tx) => rows(tx, `
      UNWIND $ids AS pid
      MATCH (n:Participant {tenant: $tenant, id: pid}) USING INDEX n:Participant(tenant, id)
      RETURN n {.*} AS n`, { tenant: this.t(tenant), ids: [...new Set(ids)] }));
    return found.map(toParticipant);
  }

  async getParticipantByExternalId(tenant: TenantId, externalId: string): Promise<Participant | null> {
    await this.init();
    const [p] = await this.db.read('getParticipantByExternalId', (tx) => rows(tx,
      'MATCH (n:Participant {tenant: $tenant, externalId: $ext}) RETURN n {.*} AS n', { tenant: this.t(tenant), ext: externalId }));
    return p ? toParticipant(p) : null;
  }

  async findParticipantsByName(tenant: TenantId, name: string): Promise<Participant[]> {
    await this.init();
    const found = await this.db.read('findParticipantsByName', (tx) => rows(tx, FIND_BY_NAME, { tenant: this.t(tenant), name: name.toLowerCase() }));
    return found.map(toParticipant);
  }

  async findParticipantsInText(tenant: TenantId, text: string): Promise<Participant[]> {
    return (await this.findParticipantsByWords(tenant, textNameWords(text))).filter((p) => namedInText(text, [p.name, ...p.aliases]));
  }

  async findParticipantsByWords(tenant: TenantId, words: readonly string[]): Promise<Participant[]> {
    const wanted = [...new Set(words.map((w) => w.toLowerCase()))];
    if (wanted.length === 0) return [];
    await this.init();
    const found = await this.db.read('findParticipantsByWords', (tx) => rows(tx, `
      UNWIND $words AS w
      MATCH (k:ParticipantWord {tenant: $tenant, word: w})
      WITH DISTINCT k.participantId AS pid
      MATCH (n:Participant {tenant: $tenant, id: pid})
      RETURN n {.*} AS n ORDER BY n.createdAt, n.id`, { tenant: this.t(tenant), words: wanted }));
    return found.map(toParticipant);
  }

  // Ordered by the whole index key (tenant and named are fixed here): the planner then reads the
  // (tenant, named, updatedAt) index in order and stops after the page; by updatedAt alone it sorted them all.
  async recentNamedParticipants(tenant: TenantId, limit: number, offset = 0): Promise<Participant[]> {
    await this.init();
    // The hint keeps the plan an ordered seek of (tenant, named, updatedAt) whatever the statistics say: on a
    // small or new database the planner would otherwise seek (tenant) and sort the tenant's participants.
    const found = await this.db.read('recentNamedParticipants', (tx) => rows(tx, `
      MATCH (n:Participant {tenant: $tenant, named: true}) USING INDEX n:Participant(tenant, named, updatedAt) WHERE n.updatedAt IS NOT NULL
      WITH n ORDER BY n.tenant DESC, n.named DESC, n.updatedAt DESC, n.createdAt, n.id SKIP $offset LIMIT $limit
      RETURN n {.*} AS n`,
    { tenant: this.t(tenant), limit: int(Math.max(0, Math.floor(limit))), offset: int(Math.max(0, Math.floor(offset))) }));
    return found.map(toParticipant);
  }

  async listParticipants(tenant: TenantId, page: ParticipantPage = {}): Promise<Participant[]> {
    await this.init();
    const after = page.after ?? { createdAt: '', id: '' };
    const found = await this.db.read('listParticipants', (tx) => rows(tx,
      `MATCH (n:Participant {tenant: $tenant}) WHERE n.createdAt > $createdAt OR (n.createdAt = $createdAt AND n.id > $id)
       RETURN n {.*} AS n ORDER BY n.createdAt, n.id${page.limit === undefined ? '' : ' LIMIT $limit'}`,
      { tenant: this.t(tenant), createdAt: after.createdAt, id: after.id, limit: int(Math.max(0, page.limit ?? 0)) }));
    return found.map(toParticipant);
  }

  async participantsOwingRename(tenant: TenantId, page: ParticipantPage = {}): Promise<Participant[]> {
    await this.init();
    const after = page.after ?? { createdAt: '', id: '' };
    const found = await this.db.read('participantsOwingRename', (tx) => rows(tx,
      `MATCH (n:Participant {tenant: $tenant, pendingRename: true}) WHERE n.createdAt > $createdAt OR (n.createdAt = $createdAt AND n.id > $id)
       RETURN n {.*} AS n ORDER BY n.createdAt, n.id${page.limit === undefined ? '' : ' LIMIT $limit'}`,
      { tenant: this.t(tenant), createdAt: after.createdAt, id: after.id, limit: int(Math.max(0, page.limit ?? 0)) }));
    return found.map(toParticipant);
  }

  async updateParticipant(tenant: TenantId, id: string, patch: ParticipantPatch): Promise<Participant | null> {
    await this.init();
    const t = this.t(tenant);
    const [p] = await this.db.write('updateParticipant', async (tx) => {
      // A merge joins the two external ids in its last transaction: none changes while one runs.
      if (patch.externalId !== undefined) await refuseWhileMerging(tx, t, id, 'changing their external id');
      if (patch.externalId) {
        const [holder] = await rows(tx, 'MATCH (n:Participant {tenant: $tenant, externalId: $ext}) RETURN n {.*} AS n', { tenant: t, ext: patch.externalId });
        if (holder && String(holder.id) !== id) throw externalIdTaken(patch.externalId, String(holder.id));
      }
      return rows(tx, `
      MATCH (n:Participant {tenant: $tenant, id: $id})
      SET n.name = CASE WHEN $setName THEN $name ELSE n.name END,
          n.externalId = CASE WHEN $setExternalId THEN $externalId ELSE n.externalId END,
          n.aliases = coalesce($aliases, n.aliases),
          n.attributes = coalesce($attributes, n.attributes),
          n.updatedAt = $now
      ${syncOwingRename('n')}
      RETURN n {.*} AS n`, {
        tenant: t, id, setName: patch.name !== undefined, name: patch.name ?? null,
        setExternalId: patch.externalId !== undefined, externalId: patch.externalId ?? null,
        aliases: patch.aliases ?? null, attributes: patch.attributes ? JSON.stringify(patch.attributes) : null,
        now: new Date().toISOString(),
      }).then(async (found) => {
        if (found[0] && (patch.name !== undefined || patch.aliases !== undefined)) {
          await tx.run(SYNC_NAMES, { tenant: t, pid: id });
          await tx.run(SYNC_WORDS, { batch: [wordsEntry(t, toParticipant(found[0]))] });
        }
        return found;
      });
    });
    return p ? toParticipant(p) : null;
  }

  async updateParticipantAttribute(tenant: TenantId, id: string, key: string, update: (current: unknown) => unknown): Promise<Participant | null> {
    return this.updateParticipantAttributes(tenant, id, (attributes) => withAttribute(attributes, key, update));
  }

  async updateParticipantAttributes(
    tenant: TenantId, id: string, update: (attributes: Record<string, unknown>) => Record<string, unknown>,
  ): Promise<Participant | null> {
    await this.init();
    const params = { tenant: this.t(tenant), id };
    const [p] = await this.db.write('updateParticipantAttributes', async (tx) => {
      // A property set and removed at once takes the node's write lock before the read, and leaves nothing: no other
      // transaction changes the attributes between the read and the write, and an update that changes nothing writes nothing.
      const [held] = await rows(tx, 'MATCH (n:Participant {tenant: $tenant, id: $id}) SET n.lockedForUpdate = true REMOVE n.lockedForUpdate RETURN n {.*} AS n', params);
      if (!held) return [];
      const stored = toParticipant(held).attributes;
      const attributes = update(stored);
      if (attributes === stored) return [held];
      return rows(tx, `MATCH (n:Participant {tenant: $tenant, id: $id}) SET n.attributes = $attributes, n.updatedAt = $now ${syncOwingRename('n')} RETURN n {.*} AS n`,
        { ...params, attributes: JSON.stringify(attributes), now: new Date().toISOString() });
    });
    return p ? toParticipant(p) : null;
  }

  async updateParticipantNames(tenant: TenantId, id: string, update: (stored: ParticipantNames) => ParticipantNames): Promise<Participant | null> {
    await this.init();
    const params = { tenant: this.t(tenant), id };
    const [p] = await this.db.write('updateParticipantNames', async (tx) => {
      // The node's write lock taken before the read, as in updateParticipantAttributes.
      const [held] = await rows(tx, 'MATCH (n:Participant {tenant: $tenant, id: $id}) SET n.lockedForUpdate = true REMOVE n.lockedForUpdate RETURN n {.*} AS n', params);
      if (!held) return [];
      const { name, aliases, attributes } = toParticipant(held);
      const stored = { name, aliases, attributes };
      const next = update(stored);
      if (next === stored) return [held];
      const found = await rows(tx, `MATCH (n:Participant {tenant: $tenant, id: $id})
        SET n.name = $name, n.aliases = $aliases, n.attributes = $attributes, n.updatedAt = $now ${syncOwingRename('n')} RETURN n {.*} AS n`,
      { ...params, name: next.name, aliases: next.aliases, attributes: JSON.stringify(next.attributes), now: new Date().toISOString() });
      await tx.run(SYNC_NAMES, { tenant: params.tenant, pid: id });
      await tx.run(SYNC_WORDS, { batch: [wordsEntry(params.tenant, { id, name: next.name, aliases: next.aliases })] });
      return found;
    });
    return p ? toParticipant(p) : null;
  }

  async setVoiceprintCount(tenant: TenantId, id: string, count: number): Promise<void> {
    await this.init();
    await this.db.write('setVoiceprintCount', (tx) => tx.run(
      'MATCH (n:Participant {tenant: $tenant, id: $id}) SET n.voiceprintCount = $count',
      { tenant: this.t(tenant), id, count: int(count) }));
  }

  /** Erase a participant, in batches that a repeated call resumes (`eraseParticipant`). */
  async deleteParticipant(tenant: TenantId, id: string): Promise<string[] | null> {
    await this.init();
    return eraseParticipant(this.db, this.t(tenant), id);
  }

  async deleteUtterances(tenant: TenantId, ids: string[]): Promise<string[]> {
    await this.init();
    return deleteUtterances(this.db, this.t(tenant), ids);
  }

  async utterancesContaining(tenant: TenantId, fragments: readonly string[], page: { afterId?: string; limit: number }): Promise<Utterance[]> {
    await this.init();
    return (await utterancesContaining(this.db, this.t(tenant), fragments, page)).map(toUtterance);
  }

  async setUtteranceTexts(tenant: TenantId, texts: ReadonlyArray<{ id: string; text: string }>): Promise<void> {
    await this.init();
    await setUtteranceTexts(this.db, this.t(tenant), texts);
  }

  async deleteSession(tenant: TenantId, sessionId: string): Promise<boolean> {
    await this.init();
    return deleteSession(this.db, this.t(tenant), sessionId);
  }

  async beginErasure(tenant: TenantId, id: string, plan: string, utteranceIds: string[]): Promise<void> {
    await this.init();
    await beginErasure(this.db, this.t(tenant), id, plan, utteranceIds, new Date().toISOString());
  }

  async beginClaimedErasure(tenant: TenantId, id: string, plan: string, utteranceIds: string[], lease: ErasureLease): Promise<boolean> {
    await this.init();
    return beginClaimedErasure(this.db, this.t(tenant), id, plan, utteranceIds, lease);
  }

  async pendingErasures(tenant: TenantId): Promise<PendingErasure[]> {
    await this.init();
    return pendingErasures(this.db, this.t(tenant));
  }

  async claimErasure(tenant: TenantId, id: string, lease: ErasureLease): Promise<boolean> {
    await this.init();
    return claimErasure(this.db, this.t(tenant), id, lease);
  }

  async endErasure(tenant: TenantId, id: string): Promise<void> {
    await this.init();
    await endErasure(this.db, this.t(tenant), id);
  }

  async retiredParticipant(tenant: TenantId, id: string): Promise<RetiredParticipant | null> {
    await this.init();
    return this.db.read('retiredParticipant', (tx) => lookupRetired(tx, this.t(tenant), id));
  }

  async mergeParticipants(tenant: TenantId, fromId: string, intoId: string, reindex: string[] = []): Promise<void> {
    if (fromId === intoId) return;
    await this.init();
    const t = this.t(tenant);
    await mergeParticipantBatched(this.db, t, fromId, intoId, reindex);
  }

  async pendingMerges(tenant: TenantId): Promise<PendingMerge[]> {
    await this.init();
    return pendingMerges(this.db, this.t(tenant));
  }

  async pendingMergesOf(tenant: TenantId, id: string): Promise<PendingMerge[]> {
    await this.init();
    return pendingMergesOf(this.db, this.t(tenant), id);
  }

  async renewMerge(tenant: TenantId, fromId: string, intoId: string, at: string, erasure?: string): Promise<boolean> {
    await this.init();
    return this.db.write('renewMerge', (tx) => renewMerge(tx, this.t(tenant), fromId, intoId, at, erasure));
  }

  async endMerge(tenant: TenantId, fromId: string, intoId: string): Promise<void> {
    await this.init();
    await endMerge(this.db, this.t(tenant), fromId, intoId, mergeMarker(fromId, intoId));
  }

  async setUtteranceSpeaker(tenant: TenantId, utteranceId: string, speakerId: string): Promise<Utterance | null> {
    await this.init();
    const t = this.t(tenant);
    const moved = await this.db.write('setUtteranceSpeaker', (tx) => setUtteranceSpeakerIn(tx, t, utteranceId, speakerId));
    return moved ? this.getUtterance(tenant, utteranceId) : null;
  }

  async pendingMoves(tenant: TenantId): Promise<string[]> {
    await this.init();
    const rows = await this.db.read('pendingMoves', (tx) => tx.run(`
      MATCH (u:Utterance {tenant: $tenant}) WHERE u.movedAt IS NOT NULL RETURN u.id AS id ORDER BY u.movedAt, u.id`,
    { tenant: this.t(tenant) }));
    return rows.records.map((r) => String(r.get('id')));
  }

  async clearPendingMoves(tenant: TenantId, utteranceIds: string[]): Promise<void> {
    await this.init();
    await this.db.write('clearPendingMoves', (tx) => tx.run(`
      UNWIND $ids AS id MATCH (u:Utterance {tenant: $tenant, id: id}) REMOVE u.movedAt`, { tenant: this.t(tenant), ids: utteranceIds }));
  }

  async addUtterances(tenant: TenantId, utterances: NewUtterance[], options: AddUtterancesOptions = {}): Promise<Utterance[]> {
    if (utterances.length === 0) return [];
    await this.init();
    const t = this.t(tenant);
    const ids = utterances.map((u) => u.id ?? newId('u'));
    await this.db.write('addUtterances', async (tx) => {
      if (options.streamOwner !== undefined) await checkStreamOwner(tx, t, utterances, options.streamOwner);
      await writeUtterances(tx, t, utterances, ids);
    });
    return this.getUtterances(tenant, ids);
  }

  async getUtterance(tenant: TenantId, id: string): Promise<Utterance | null> {
    return (await this.getUtterances(tenant, [id]))[0] ?? null;
  }

  async getUtterances(tenant: TenantId, ids: string[]): Promise<Utterance[]> {
    if (ids.length === 0) return [];
    await this.init();
    const found = await this.db.read('getUtterances', (tx) => rows(tx,
      'MATCH (n:Utterance {tenant: $tenant}) WHERE n.id IN $ids RETURN n {.*} AS n', { tenant: this.t(tenant), ids }));
    const byId = new Map(found.map((u) => [String(u.id), toUtterance(u)]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  async getTranscript(tenant: TenantId, sessionId: string, page: TranscriptPage = {}): Promise<Utterance[]> {
    await this.init();
    const found = await this.db.read('getTranscript', (tx) => rows(tx,
      `MATCH (n:Utterance {tenant: $tenant, sessionId: $sessionId})
       WHERE n.time > $afterTime OR (n.time = $afterTime AND n.seq > $afterSeq)
       RETURN n {.*} AS n ORDER BY n.time, n.seq${page.limit === undefined ? '' : ' LIMIT $limit'}`,
      {
        tenant: this.t(tenant), sessionId, afterTime: page.after?.time ?? '', afterSeq: int(page.after?.seq ?? -1),
        limit: int(Math.max(0, page.limit ?? 0)),
      }));
    return found.map(toUtterance);
  }

  async recentUtterances(tenant: TenantId, sessionId: string, n: number, beforeSeq?: number): Promise<Utterance[]> {
    await this.init();
    const found = await this.db.read('recentUtterances', (tx) => rows(tx,
      `MATCH (n:Utterance {tenant: $tenant, sessionId: $sessionId}) WHERE n.seq < $beforeSeq
       RETURN n {.*} AS n ORDER BY n.seq DESC LIMIT $n`,
      { tenant: this.t(tenant), sessionId, n: int(Math.max(0, n)), beforeSeq: int(beforeSeq ?? Number.MAX_SAFE_INTEGER) }));
    return found.map(toUtterance).reverse();
  }

  async queryInteractions(tenant: TenantId, filter: InteractionFilter): Promise<Utterance[]> {
    await this.init();
    // Only fixed clauses are spliced in; every value travels as a parameter.
    const where: string[] = [];
    if (filter.speakerId) where.push('n.speakerId = $speakerId');
    if (filter.sessionId) where.push('n.sessionId = $sessionId');
    if (filter.since) where.push('n.time >= $since');
    if (filter.until) where.push('n.time < $until');
    // "Addressed to X" starts at X's addressee key node: an index seek, then its edges.
    const match = filter.addresseeId
      ? 'MATCH (:Addressee {tenant: $tenant, id: $addresseeId})<-[:ADDRESSED]-(n:Utterance)'
      : 'MATCH (n:Utterance {tenant: $tenant})';
    const limit = Math.min(Math.max(filter.limit ?? 100, 1), 1000);
    const found = await this.db.read('queryInteractions', (tx) => rows(tx, `
      ${match} ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
      RETURN n {.*} AS n ORDER BY n.time DESC, n.seq DESC, n.id DESC SKIP $offset LIMIT $limit`, {
      tenant: this.t(tenant), limit: int(limit), offset: int(Math.max(0, Math.floor(filter.offset ?? 0))), speakerId: filter.speakerId ?? null, sessionId: filter.sessionId ?? null,
      since: filter.since ?? null, until: filter.until ?? null, addresseeId: filter.addresseeId ?? null,
    }));
    return found.map(toUtterance);
  }
}
