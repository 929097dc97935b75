/**
 * A speaker revision after consolidation, on real stores (SQLite, or Neo4j when `NEO4J_URI` is set), the real USE-lite
 * embedder and the embedded extractor: Ana tells Ben she lives in Porto, then "I moved to Lisbon last month" (consolidated:
 * Lisbon supersedes Porto); that turn is then given to Ben, as the first-turn revision does, and its job runs again.
 */
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import pino from 'pino';
import type { Fact } from '../../graph/memory-store.js';
import type { TextEmbedder } from '../../pipelines/embeddings/text-embedder.js';
import { UseLiteEmbedder } from '../../pipelines/embeddings/use-lite-embedder.js';
import { shownAttributes } from '../../pipelines/interaction/participant-attributes.js';
import { collectionFor } from '../../pipelines/memory/collections.js';
import { createConsolidationHandler, type ConsolidationDeps, type ConsolidationJob, type MemoryOp } from '../../pipelines/memory/consolidate.js';
import { EmbeddedExtractor } from '../../pipelines/memory/embedded-extractor.js';
import { gated, sqliteJobStores, type JobStores, type OpenJobStores } from './job-stores.js';

/** Store methods that write (the rest read): those the re-run tests count and cut before. */
export const WRITES = new Set(['addFacts', 'closeFact', 'reopenFact', 'restoreWithdrawn', 'reopenDeleted', 'patchFact', 'markProcessed', 'keepExtraction', 'forgetUtterances', 'upsert', 'delete', 'index', 'updateParticipant']);

/** One scene: Ana and Ben, Ana's Porto (closed by Lisbon) and the Lisbon turn, not yet moved. */
export interface Scene {
  sessionId: string;
  ana: string;
  ben: string;
  porto: Fact;
  lisbon: Fact;
  lisbonUid: string;
}

/** Builds scenes on `stores` and runs their consolidation jobs. */
export class RevisionFixture {
  readonly tenant = 't_revised';
  readonly extractor = new EmbeddedExtractor();
  #clock = Date.parse('2026-12-01T10:00:00.000Z');
  #jobs = 0;
  #scenes = 0;

  constructor(readonly stores: JobStores, readonly embedder: TextEmbedder) {}

  /**
   * Run the consolidation job of `uid` on `on` (default: the stores as they are); its ops are pushed to `ops`. `with_`
   * replaces the embedder or extractor (a gated or failing one).
   */
  async run(
    sessionId: string, uid: string, on: JobStores = this.stores, ops: MemoryOp[][] = [],
    with_: Partial<Pick<ConsolidationDeps, 'embedder' | 'extractor'>> = {},
  ): Promise<MemoryOp[][]> {
    const handler = createConsolidationHandler({
      ...on, embedder: this.embedder, extractor: this.extractor, ...with_, onOps: (_t, _s, o) => ops.push(o), logger: pino({ level: 'silent' }),
    });
    const data: ConsolidationJob = { tenant: this.tenant, sessionId, utteranceId: uid };
    await handler({ id: `j${++this.#jobs}`, name: 'memory.consolidate', attempt: 1, data }, new AbortController().signal);
    return ops;
  }

  /** Store a turn of `speakerId` to `addresseeId`, a minute after the last one. */
  async say(sessionId: string, speakerId: string, addresseeId: string, text: string): Promise<string> {
    this.#clock += 60_000;
    const [u] = await this.stores.graph.addUtterances(this.tenant, [{ sessionId, speakerId, addresseeIds: [addresseeId], text,
      startMs: null, endMs: null, time: new Date(this.#clock).toISOString(), confidence: null, audioRef: null }]);
    assert.ok(u);
    return u.id;
  }

  /**
   * A new scene, consolidated up to Lisbon superseding Porto (the Lisbon turn still Ana's). `cut`: the Lisbon turn's job
   * stops before its last write (recording the turn as processed), as a worker killed there, and is not run again.
   */
  async scene(cut = false): Promise<Scene> {
    const sessionId = `s${this.#scenes++}`;
    const { graph, memory } = this.stores;
    await graph.openSession(this.tenant, sessionId, new Date(this.#clock).toISOString());
    const ana = (await graph.createParticipant(this.tenant, { name: 'Ana' })).id;
    const ben = (await graph.createParticipant(this.tenant, { name: 'Ben' })).id;
    await this.run(sessionId, await this.say(sessionId, ana, ben, 'I live in Porto.'));
    const [porto] = await memory.listFacts(this.tenant, { subjectId: ana, slot: 'lives_in' });
    assert.equal(porto?.value, 'Porto');
    const lisbonUid = await this.say(sessionId, ana, ben, 'I moved to Lisbon last month.');
    if (!cut) await this.run(sessionId, lisbonUid);
    else {
      const killed = { ...this.stores, memory: gated(memory, new Set(['markProcessed']), () => { throw new Error('worker killed'); }) };
      await assert.rejects(this.run(sessionId, lisbonUid, killed), /worker killed/);
      assert.notEqual(await memory.keptExtraction(this.tenant, lisbonUid), null, 'its extraction is kept for a re-run');
    }
    const [lisbon] = await memory.listFacts(this.tenant, { subjectId: ana, slot: 'lives_in' });
    assert.equal(lisbon?.value, 'Lisbon');
    assert.equal(lisbon?.supersedes, porto.id);
    return { sessionId, ana, ben, porto, lisbon, lisbonUid };
  }

  /** Give the scene's Lisbon turn to Ben, as `moveUtterance` does before it queues the job. */
  async move(s: Scene): Promise<void> {
    assert.ok(await this.stores.graph.setUtteranceSpeaker(this.tenant, s.lisbonUid, s.ben));
  }

  /** The state a whole run of the moved turn's job leaves: Ana's Lisbon withdrawn, her Porto current, Ben's Lisbon. */
  async expectRevised(s: Scene): Promise<Fact> {
    const { graph, memory, vectors, lexical } = this.stores;
    const T = this.tenant;
    const withdrawn = await memory.getFact(T, s.lisbon.id);
    assert.equal(withdrawn?.validTo, s.lisbon.validFrom, "Ana's Lisbon is withdrawn: closed where it began");
    assert.equal(withdrawn?.supersededBy, null);
    const porto = await memory.getFact(T, s.porto.id);
    assert.deepEqual([porto?.validTo, porto?.supersededBy], [null, null], "Ana's Porto is current again");
    assert.deepEqual((await memory.listFacts(T, { subjectId: s.ana, slot: 'lives_in' })).map((f) => f.id), [s.porto.id]);
    const bens = await memory.listFacts(T, { subjectId: s.ben, includeHistory: true });
    assert.deepEqual(bens.map((f) => [f.slot, f.value, f.speakerId, f.validTo, f.referIds]), [['lives_in', 'Lisbon', s.ben, null, [s.lisbonUid]]], 'Ben lives in Lisbon, once');
    const ben = bens[0] as Fact;
    assert.notEqual(ben.id, s.lisbon.id);
    assert.deepEqual(await memory.processedFacts(T, s.lisbonUid), [ben.id], 'the turn now records only what it gave Ben');
    assert.equal(await memory.keptExtraction(T, s.lisbonUid), null);
    const [vector] = await this.embedder.embed(['lives in Lisbon']);
    const ids = [s.lisbon.id, s.porto.id, ben.id];
    const hits = await vectors.search(T, collectionFor('profile'), vector as Float32Array, 10, { ids });
    assert.deepEqual(hits.map((h) => h.id).sort(), [s.porto.id, ben.id].sort(), 'search: Porto and Ben\'s Lisbon, not Ana\'s');
    assert.deepEqual((await lexical.search(T, 'Lisbon', 10, { ids })).map((h) => h.id), [ben.id]);
    assert.deepEqual((await lexical.search(T, 'Porto', 10, { ids })).map((h) => h.id), [s.porto.id]);
    const home = async (id: string): Promise<unknown> => shownAttributes((await graph.getParticipant(T, id))?.attributes ?? {}).lives_in;
    assert.deepEqual([await home(s.ana), await home(s.ben)], ['Porto', 'Lisbon'], 'derived attributes follow');
    return ben;
  }
}

/** What {@link sqliteRevisions} gives a test file: set by its `before` hook. */
export interface RevisionContext {
  stores: OpenJobStores;
  fx: RevisionFixture;
  embedder: UseLiteEmbedder;
}

/** Call inside a `describe`: stores `open` gives (default in-memory SQLite), the USE-lite embedder and a fixture on them, released after. */
export function revisions(open: () => OpenJobStores = sqliteJobStores): RevisionContext {
  const c = { embedder: new UseLiteEmbedder() } as RevisionContext;
  before(() => {
    c.stores = open();
    c.fx = new RevisionFixture(c.stores, c.embedder);
  });
  after(async () => {
    await c.embedder.close();
    await c.stores?.dispose();
  });
  return c;
}

/** {@link revisions} on in-memory SQLite. */
export function sqliteRevisions(): RevisionContext {
  return revisions(sqliteJobStores);
}
