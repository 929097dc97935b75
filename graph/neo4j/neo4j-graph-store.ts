import type { GraphStore, InteractionFilter, NewUtterance, ParticipantPage, ParticipantPatch, TranscriptPage } from '../graph-store.js';
import type { Participant, SessionRecord, TenantId, Utterance } from '../types.js';
import { backfillAddressees, GRAPH_SCHEMA, int, toNum, type Neo4jOptions } from './neo4j-connection.js';
import { DROP_ORPHAN_ADDRESSEE, Neo4jStoreBase, propRows as rows, stringList, type Props } from './neo4j-store-base.js';
import { newId } from '../core/ids.js';
import { checkMergeable, externalIdTaken } from '../external-id.js';
import { namedInText, participantNameWords, textNameWords } from '../name-words.js';
import type { RetiredParticipant } from '../retired-ids.js';
import { lookupRetired, recordErasure, recordMerge, RETIRED_IDS_SCHEMA } from './neo4j-retired-ids.js';

/**
 * Rewrite the name keys of participant `$pid`: one `(:ParticipantName {tenant, participantId, key})`
 * per distinct lower-cased name or alias, so a lookup by name seeks the `(tenant, key)` index instead
 * of filtering every participant of the tenant (Neo4j indexes neither `toLower` nor list elements).
 * The participant is written first (its write lock), and only then are its old keys read: a
 * concurrent rewrite of the same participant (an update, or another process's start-up backfill)
 * waits for the lock and then reads and deletes the keys the first one committed, so a participant
 * never ends with two sets of keys. The same order holds in BACKFILL_NAMES and SYNC_WORDS.
 */
const SYNC_NAMES = `
  MATCH (p:Participant {tenant: $tenant, id: $pid})
  SET p.namesIndexed = true
  WITH p
  OPTIONAL MATCH (old:ParticipantName {tenant: $tenant, participantId: $pid})
  DELETE old
  WITH DISTINCT p
  UNWIND [k IN [p.name] + coalesce(p.aliases, []) WHERE k IS NOT NULL | toLower(k)] AS key
  WITH DISTINCT p, key
  CREATE (:ParticipantName {tenant: $tenant, participantId: p.id, key: key})`;

/** Name keys for participants written before they existed, 500 participants per transaction. */
const BACKFILL_NAMES = `
  MATCH (p:Participant) WHERE p.namesIndexed IS NULL
  WITH p LIMIT 500
  SET p.namesIndexed = true
  WITH p
  OPTIONAL MATCH (old:ParticipantName {tenant: p.tenant, participantId: p.id})
  DELETE old
  WITH DISTINCT p
  WITH p, [k IN [p.name] + coalesce(p.aliases, []) WHERE k IS NOT NULL | toLower(k)] AS keys
  FOREACH (key IN reduce(acc = [], k IN keys | CASE WHEN k IN acc THEN acc ELSE acc + k END) |
    CREATE (:ParticipantName {tenant: p.tenant, participantId: p.id, key: key}))
  RETURN count(p) AS n`;

/**
 * Rewrite the name words of the participants in `$batch` (`{tenant, id, words, named}` each): one
 * `(:ParticipantWord {tenant, participantId, word})` per word (`nameWords`, split and folded in
 * JavaScript so they match the words callers look up), and `named` for recentNamedParticipants.
 */
const SYNC_WORDS = `
  UNWIND $batch AS b
  MATCH (p:Participant {tenant: b.tenant, id: b.id})
  SET p.wordsIndexed = true, p.named = b.named
  WITH p, b
  OPTIONAL MATCH (old:ParticipantWord {tenant: b.tenant, participantId: b.id})
  DELETE old
  WITH DISTINCT p, b
  FOREACH (w IN b.words | CREATE (:ParticipantWord {tenant: b.tenant, participantId: b.id, word: w}))`;

/** The SYNC_WORDS entry of a participant. */
function wordsEntry(tenant: string, p: { id: string; name: string | null; aliases: string[] }): Record<string, unknown> {
  return { tenant, id: p.id, words: participantNameWords(p.name, p.aliases), named: p.name !== null || p.aliases.length > 0 };
}

/** Participants stored before their words were indexed, 500 at a time. */
const UNINDEXED_WORDS = `
  MATCH (p:Participant) WHERE p.wordsIndexed IS NULL
  RETURN p.tenant AS tenant, p.id AS id, p.name AS name, coalesce(p.aliases, []) AS aliases LIMIT 500`;

/** Nodes changed per transaction when a participant is erased. */
export const ERASE_BATCH = 1000;

function toParticipant(p: Props): Participant {
  return {
    id: String(p.id), name: (p.name as string | undefined) ?? null,
    externalId: (p.externalId as string | undefined) ?? null, aliases: (p.aliases as string[] | undefined) ?? [],
    attributes: JSON.parse((p.attributes as string | undefined) ?? '{}') as Record<string, unknown>,
    voiceprintCount: toNum(p.voiceprintCount ?? 0), createdAt: String(p.createdAt), updatedAt: String(p.updatedAt),
  };
}

function toUtterance(u: Props): Utterance {
  const num = (v: unknown) => (v === undefined || v === null ? null : toNum(v));
  return {
    id: String(u.id), sessionId: String(u.sessionId), seq: toNum(u.seq), speakerId: String(u.speakerId),
    addresseeIds: [...((u.addresseeIds as string[] | undefined) ?? [])].sort(), text: String(u.text),
    startMs: num(u.startMs), endMs: num(u.endMs), time: String(u.time), confidence: num(u.confidence),
    audioRef: (u.audioRef as string | undefined) ?? null,
    ...(typeof u.turnId === 'string' ? { turnId: u.turnId } : {}),
  };
}

function toSession(s: Props): SessionRecord {
  return {
    id: String(s.id), startedAt: String(s.startedAt), endedAt: (s.endedAt as string | undefined) ?? null,
    metadata: JSON.parse((s.metadata as string | undefined) ?? '{}') as Record<string, unknown>,
    lastEventSeq: toNum(s.lastEventSeq ?? 0),
  };
}

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
      for (;;) {
        const n = await this.db.write('indexing participant names', async (tx) => toNum((await tx.run(BACKFILL_NAMES)).records[0]?.get('n') ?? 0));
        if (n < 500) break;
      }
      for (;;) {
        const n = await this.db.write('indexing participant name words', async (tx) => {
          const found = (await tx.run(UNINDEXED_WORDS)).records.map((r) => wordsEntry(String(r.get('tenant')), {
            id: String(r.get('id')), name: (r.get('name') as string | null) ?? null, aliases: r.get('aliases') as string[],
          }));
          if (found.length > 0) await tx.run(SYNC_WORDS, { batch: found });
          return found.length;
        });
        if (n < 500) break;
      }
      await this.migrateOnce('utterance-addressees', backfillAddressees('Utterance'));
    })().catch((err: unknown) => {
      this.names = undefined;
      throw err;
    });
    await this.names;
  }

  constructor(options: Neo4jOptions) {
    super(options, [...GRAPH_SCHEMA, ...RETIRED_IDS_SCHEMA]);
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
    patch: Partial<Pick<SessionRecord, 'endedAt' | 'metadata' | 'lastEventSeq'>>,
  ): Promise<void> {
    await this.init();
    await this.db.write('updateSession', (tx) => tx.run(`
      MATCH (n:Session {tenant: $tenant, id: $id})
      SET n.endedAt = CASE WHEN $setEnded THEN $endedAt ELSE n.endedAt END,
          n.metadata = coalesce($metadata, n.metadata),
          n.lastEventSeq = CASE WHEN $seq IS NOT NULL AND $seq > n.lastEventSeq THEN $seq ELSE n.lastEventSeq END`, {
      tenant: this.t(tenant), id: sessionId, setEnded: patch.endedAt !== undefined, endedAt: patch.endedAt ?? null,
      metadata: patch.metadata ? JSON.stringify(patch.metadata) : null,
      seq: patch.lastEventSeq === undefined ? null : int(patch.lastEventSeq),
    }));
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
      REMOVE n._ending
      RETURN {endedAt: n.endedAt, ended: open} AS n`, { tenant: this.t(tenant), id: sessionId, endedAt }));
    return r ? { endedAt: String(r.endedAt), ended: r.ended === true } : null;
  }

  async createParticipant(tenant: TenantId, init: ParticipantPatch & { id?: string }): Promise<Participant> {
    await this.init();
    const now = new Date().toISOString();
    const id = init.id ?? newId('p');
    const t = this.t(tenant);
    const [p] = await this.db.write('createParticipant', async (tx) => {
      // Checked in the write transaction; the uniqueness constraint on (tenant, externalId) backs it.
      if (init.externalId) {
        const [holder] = await rows(tx, 'MATCH (n:Participant {tenant: $tenant, externalId: $ext}) RETURN n {.*} AS n', { tenant: t, ext: init.externalId });
        if (holder && String(holder.id) !== id) throw externalIdTaken(init.externalId, String(holder.id));
      }
      return rows(tx, `
      MERGE (n:Participant {tenant: $tenant, id: $id})
      ON CREATE SET n.name = $name, n.externalId = $externalId, n.aliases = $aliases, n.attributes = $attributes,
                    n.voiceprintCount = 0, n.createdAt = $now, n.updatedAt = $now
      RETURN n {.*} AS n`, {
        tenant: t, id, name: init.name ?? null, externalId: init.externalId ?? null, aliases: init.aliases ?? [],
        attributes: JSON.stringify(init.attributes ?? {}), now,
      }).then(async (found) => {
        if (found[0] && found[0].namesIndexed !== true) await tx.run(SYNC_NAMES, { tenant: t, pid: found[0].id });
        if (found[0] && found[0].wordsIndexed !== true) await tx.run(SYNC_WORDS, { batch: [wordsEntry(t, toParticipant(found[0]))] });
        return found;
      });
    });
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
    const found = await this.db.read('findParticipantsByName', (tx) => rows(tx, `
      MATCH (k:ParticipantName {tenant: $tenant, key: $name})
      WITH DISTINCT k.participantId AS pid
      MATCH (n:Participant {tenant: $tenant, id: pid})
      RETURN n {.*} AS n ORDER BY n.createdAt, n.id`, { tenant: this.t(tenant), name: name.toLowerCase() }));
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

  async updateParticipant(tenant: TenantId, id: string, patch: ParticipantPatch): Promise<Participant | null> {
    await this.init();
    const t = this.t(tenant);
    const [p] = await this.db.write('updateParticipant', async (tx) => {
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

  async setVoiceprintCount(tenant: TenantId, id: string, count: number): Promise<void> {
    await this.init();
    await this.db.write('setVoiceprintCount', (tx) => tx.run(
      'MATCH (n:Participant {tenant: $tenant, id: $id}) SET n.voiceprintCount = $count',
      { tenant: this.t(tenant), id, count: int(count) }));
  }

  /**
   * Erase a participant in batches of `ERASE_BATCH` (one transaction each), not one transaction
   * holding every lock and change at once: first the ids of every utterance they spoke are recorded
   * on the participant node (`erasing`), then those utterances are deleted, their id removed from
   * addressee lists, their remaining edges deleted, and the participant last. An erasure cut short
   * (an outage, a crash) leaves the participant and its record in place, so calling it again
   * finishes the work and still returns every utterance id, including those deleted the first time.
   */
  async deleteParticipant(tenant: TenantId, id: string): Promise<string[] | null> {
    await this.init();
    const params = { tenant: this.t(tenant), id };
    const ids = await this.db.write('deleteParticipant.plan', async (tx) => {
      const found = await tx.run(`
        MATCH (p:Participant {tenant: $tenant, id: $id})
        CALL {
          WITH p
          OPTIONAL MATCH (u:Utterance {tenant: $tenant, speakerId: $id})
          WITH u ORDER BY u.sessionId, u.seq
          RETURN collect(u.id) AS spoken
        }
        SET p.erasing = CASE WHEN p.erasing IS NULL THEN spoken ELSE p.erasing + [x IN spoken WHERE NOT x IN p.erasing] END
        RETURN p.erasing AS ids`, params);
      return found.records.length === 0 ? null : stringList(found.records[0]!.get('ids'));
    });
    if (!ids) return null;
    for (let i = 0; i < ids.length; i += ERASE_BATCH) {
      await this.db.write('deleteParticipant.utterances', (tx) => tx.run(`
        UNWIND $ids AS uid
        MATCH (u:Utterance {tenant: $tenant, id: uid}) DETACH DELETE u`, { ...params, ids: ids.slice(i, i + ERASE_BATCH) }));
    }
    const batched = async (what: string, cypher: string) => {
      for (;;) {
        const n = await this.db.write(what, async (tx) => toNum((await tx.run(cypher, { ...params, batch: int(ERASE_BATCH) })).records[0]?.get('n') ?? 0));
        if (n < ERASE_BATCH) return;
      }
    };
    await batched('deleteParticipant.addressees', `
      MATCH (:Addressee {tenant: $tenant, id: $id})<-[r:ADDRESSED]-(u:Utterance)
      WITH u, r LIMIT $batch
      SET u.addresseeIds = [a IN u.addresseeIds WHERE a <> $id]
      DELETE r
      RETURN count(u) AS n`);
    await batched('deleteParticipant.edges', `
      MATCH (:Participant {tenant: $tenant, id: $id})-[r]-()
      WITH r LIMIT $batch
      DELETE r
      RETURN count(r) AS n`);
    await this.db.write('deleteParticipant', async (tx) => {
      await tx.run('MATCH (k:ParticipantName {tenant: $tenant, participantId: $id}) DELETE k', params);
      await tx.run('MATCH (k:ParticipantWord {tenant: $tenant, participantId: $id}) DELETE k', params);
      await tx.run('MATCH (n:Participant {tenant: $tenant, id: $id}) DETACH DELETE n', params);
      await tx.run(DROP_ORPHAN_ADDRESSEE, params);
      await recordErasure(tx, params.tenant, id, new Date().toISOString());
    });
    return ids;
  }

  async retiredParticipant(tenant: TenantId, id: string): Promise<RetiredParticipant | null> {
    await this.init();
    return this.db.read('retiredParticipant', (tx) => lookupRetired(tx, this.t(tenant), id));
  }

  async mergeParticipants(tenant: TenantId, fromId: string, intoId: string): Promise<void> {
    if (fromId === intoId) return;
    await this.init();
    const t = this.t(tenant);
    await this.db.write('mergeParticipants', async (tx) => {
      const found = await rows(tx, 'MATCH (n:Participant {tenant: $tenant}) WHERE n.id IN [$from, $into] RETURN n {.*} AS n', { tenant: t, from: fromId, into: intoId });
      const from = found.map(toParticipant).find((p) => p.id === fromId);
      const into = found.map(toParticipant).find((p) => p.id === intoId);
      if (!from || !into) return;
      checkMergeable(from, into);
      const name = into.name ?? from.name;
      const aliases = new Set([...into.aliases, ...from.aliases]);
      if (from.name && from.name !== into.name) aliases.add(from.name);
      if (name) aliases.delete(name);
      const params = { tenant: t, from: fromId, into: intoId };
      await tx.run(`
        MATCH (u:Utterance {tenant: $tenant, speakerId: $from}) SET u.speakerId = $into
        WITH u MATCH (i:Participant {tenant: $tenant, id: $into}) MERGE (i)-[:SPEAKS]->(u)`, params);
      await tx.run(`
        MATCH (:Addressee {tenant: $tenant, id: $from})<-[r:ADDRESSED]-(u:Utterance)
        DELETE r
        WITH u, [a IN u.addresseeIds WHERE a <> $from] AS rest
        SET u.addresseeIds = CASE WHEN $into IN rest OR u.speakerId = $into THEN rest ELSE rest + $into END
        WITH u WHERE u.speakerId <> $into
        MERGE (k:Addressee {tenant: $tenant, id: $into})
        MERGE (u)-[:ADDRESSED]->(k)
        WITH u MATCH (i:Participant {tenant: $tenant, id: $into}) MERGE (u)-[:ADDRESSES]->(i)`, params);
      // Fragments of one person that addressed each other: nobody addresses themself.
      await tx.run(`
        MATCH (:Addressee {tenant: $tenant, id: $into})<-[r:ADDRESSED]-(u:Utterance {speakerId: $into})
        DELETE r
        SET u.addresseeIds = [a IN u.addresseeIds WHERE a <> $into]
        WITH u MATCH (u)-[r:ADDRESSES]->(:Participant {tenant: $tenant, id: $into}) DELETE r`, params);
      await tx.run(DROP_ORPHAN_ADDRESSEE, { tenant: t, id: fromId });
      // The merged-away node goes first, so its external id is free for `into` (uniqueness constraint).
      await tx.run('MATCH (f:Participant {tenant: $tenant, id: $from}) DETACH DELETE f', params);
      await tx.run(`
        MATCH (i:Participant {tenant: $tenant, id: $into})
        SET i.name = $name, i.externalId = $externalId, i.aliases = $aliases, i.attributes = $attributes,
            i.voiceprintCount = i.voiceprintCount + $count, i.updatedAt = $now`, {
        ...params, name, externalId: into.externalId ?? from.externalId, aliases: [...aliases], attributes: JSON.stringify({ ...from.attributes, ...into.attributes }),
        count: int(from.voiceprintCount), now: new Date().toISOString(),
      });
      await tx.run('MATCH (k:ParticipantName {tenant: $tenant, participantId: $from}) DELETE k', params);
      await tx.run(SYNC_NAMES, { tenant: params.tenant, pid: intoId });
      await tx.run('MATCH (k:ParticipantWord {tenant: $tenant, participantId: $from}) DELETE k', params);
      await tx.run(SYNC_WORDS, { batch: [wordsEntry(params.tenant, { id: intoId, name, aliases: [...aliases] })] });
      await recordMerge(tx, params.tenant, fromId, intoId, new Date().toISOString());
    });
  }

  async addUtterances(tenant: TenantId, utterances: NewUtterance[]): Promise<Utterance[]> {
    if (utterances.length === 0) return [];
    await this.init();
    const t = this.t(tenant);
    const ids = utterances.map((u) => u.id ?? newId('u'));
    await this.db.write('addUtterances', async (tx) => {
      // Sequence numbers come from a per-session counter node; the write lock on it serialises writers.
      const perSession = new Map<string, number>();
      for (const u of utterances) perSession.set(u.sessionId, (perSession.get(u.sessionId) ?? 0) + 1);
      const base = new Map<string, number>();
      for (const [sessionId, n] of perSession) {
        const result = await tx.run(`
          MERGE (c:SessionCounter {tenant: $tenant, sessionId: $sessionId}) ON CREATE SET c.value = 0
          SET c.value = c.value + $n RETURN c.value - $n AS before`, { tenant: t, sessionId, n: int(n) });
        base.set(sessionId, toNum(result.records[0]?.get('before') ?? 0));
      }
      const list = utterances.map((u, i) => {
        const seq = (base.get(u.sessionId) ?? 0) + 1;
        base.set(u.sessionId, seq);
        return {
          id: ids[i]!, sessionId: u.sessionId, seq: int(seq), speakerId: u.speakerId,
          addresseeIds: [...new Set(u.addresseeIds)].filter((a) => a !== u.speakerId), text: u.text,
          startMs: u.startMs, endMs: u.endMs, time: u.time, confidence: u.confidence, audioRef: u.audioRef,
          turnId: u.turnId ?? null,
        };
      });
      await tx.run(`
        UNWIND $rows AS row
        CREATE (u:Utterance {tenant: $tenant, id: row.id, sessionId: row.sessionId, seq: row.seq,
          speakerId: row.speakerId, addresseeIds: row.addresseeIds, text: row.text, startMs: row.startMs,
          endMs: row.endMs, time: row.time, confidence: row.confidence, audioRef: row.audioRef, turnId: row.turnId})
        WITH u, row
        OPTIONAL MATCH (p:Participant {tenant: $tenant, id: row.speakerId})
        FOREACH (_ IN CASE WHEN p IS NULL THEN [] ELSE [1] END | CREATE (p)-[:SPEAKS]->(u))
        WITH u, row
        OPTIONAL MATCH (s:Session {tenant: $tenant, id: row.sessionId})
        FOREACH (_ IN CASE WHEN s IS NULL THEN [] ELSE [1] END | CREATE (u)-[:IN_SESSION]->(s))`, { tenant: t, rows: list });
      // Each addressee: the ADDRESSED edge to its key node (index-backed lookups) and, when the
      // participant exists, the ADDRESSES edge of the interaction graph.
      await tx.run(`
        UNWIND $rows AS row
        UNWIND row.addresseeIds AS aid
        MATCH (u:Utterance {tenant: $tenant, id: row.id})
        MERGE (k:Addressee {tenant: $tenant, id: aid})
        MERGE (u)-[:ADDRESSED]->(k)
        WITH u, aid
        OPTIONAL MATCH (a:Participant {tenant: $tenant, id: aid})
        FOREACH (_ IN CASE WHEN a IS NULL THEN [] ELSE [1] END | MERGE (u)-[:ADDRESSES]->(a))`, { tenant: t, rows: list });
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
      `MATCH (n:Utterance {tenant: $tenant, sessionId: $sessionId}) WHERE n.seq > $afterSeq
       RETURN n {.*} AS n ORDER BY n.seq${page.limit === undefined ? '' : ' LIMIT $limit'}`,
      { tenant: this.t(tenant), sessionId, afterSeq: int(page.afterSeq ?? -1), limit: int(Math.max(0, page.limit ?? 0)) }));
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
      RETURN n {.*} AS n ORDER BY n.time DESC, n.seq DESC LIMIT $limit`, {
      tenant: this.t(tenant), limit: int(limit), speakerId: filter.speakerId ?? null, sessionId: filter.sessionId ?? null,
      since: filter.since ?? null, until: filter.until ?? null, addresseeId: filter.addresseeId ?? null,
    }));
    return found.map(toUtterance);
  }
}
