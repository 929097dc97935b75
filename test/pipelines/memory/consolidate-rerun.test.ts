import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import pino from 'pino';
import type { Fact } from '../../../graph/memory-store.js';
import { UseLiteEmbedder } from '../../../pipelines/embeddings/use-lite-embedder.js';
import { collectionFor } from '../../../pipelines/memory/collections.js';
import { createConsolidationHandler, type ConsolidationJob, type MemoryOp } from '../../../pipelines/memory/consolidate.js';
import { EmbeddedExtractor } from '../../../pipelines/memory/embedded-extractor.js';
import { gatedJobStores, neo4jJobStores, sqliteJobStores, type JobStores, type OpenJobStores } from '../../helpers/job-stores.js';
import { NEO4J_SKIP } from '../../helpers/stores.js';

/*
 * A consolidation job run again after a worker died in the middle of it (BullMQ hands a stalled job
 * to another worker) must not store a fact twice. The "kill" is simulated exactly: every store write
 * the job makes is counted, and from the k-th on every write fails, as if the process had gone;
 * then the same job runs again on the real stores. This is done for every k a whole run reaches,
 * against SQLite and against the real Neo4j (every store in Neo4j, as the networked deployment).
 */

/** Store methods that write (the rest read). */
const WRITES = new Set(['addFacts', 'closeFact', 'markProcessed', 'keepExtraction', 'upsert', 'delete', 'index', 'updateParticipant']);

const norm = (s: string): string => s.toLowerCase().replace(/\s+/g, ' ').trim();
const NAMES = ['Ana', 'Bruno', 'Carla', 'Duarte', 'Elena', 'Filipe', 'Gabriela', 'Hugo', 'Irene', 'Joana', 'Kiko', 'Lara', 'Miguel', 'Nuno', 'Olga', 'Pedro', 'Rita', 'Sara', 'Tiago', 'Vera'];
/** One sentence that changes a slot (UPDATE), one unslotted commitment (ADD), one preference (ADD). */
const CHANGE = 'I moved to Lisbon last month. I will send you the draft on Friday. I love ramen.';

function rerunSuite(name: string, open: () => Promise<OpenJobStores>, skip?: string): void {
  describe(`consolidation re-run after a partial write: ${name}`, { skip, timeout: 300_000 }, () => {
    const T = 't_rerun';
    let stores: OpenJobStores;
    const embedder = new UseLiteEmbedder();
    const extractor = new EmbeddedExtractor();
    let clock = Date.parse('2026-12-01T10:00:00.000Z');
    let jobs = 0;
    let people = 0;
    let ben: string;

    const handlerOn = (s: JobStores, ops: MemoryOp[][] = []) => createConsolidationHandler({
      ...s, embedder, extractor, onOps: (_t, _s, o) => ops.push(o), logger: pino({ level: 'silent' }),
    });
    const job = (sessionId: string, utteranceId: string) => ({
      id: `j${++jobs}`, name: 'memory.consolidate', attempt: 1, data: { tenant: T, sessionId, utteranceId } satisfies ConsolidationJob,
    });
    const store = async (sessionId: string, speakerId: string, text: string): Promise<string> => {
      clock += 60_000;
      const [u] = await stores.graph.addUtterances(T, [{ sessionId, speakerId, addresseeIds: [ben], text,
        startMs: null, endMs: null, time: new Date(clock).toISOString(), confidence: null, audioRef: null }]);
      assert.ok(u);
      return u.id;
    };
    /** A new named participant, in a session of their own, who lives in Porto (consolidated in full). */
    const person = async (): Promise<{ id: string; sessionId: string; porto: Fact }> => {
      const n = people++;
      const sessionId = `s${n}`;
      await stores.graph.openSession(T, sessionId, new Date(clock).toISOString());
      const p = await stores.graph.createParticipant(T, { name: NAMES[n % NAMES.length]! });
      await handlerOn(stores)(job(sessionId, await store(sessionId, p.id, 'I live in Porto.')), new AbortController().signal);
      const [porto] = await stores.memory.listFacts(T, { subjectId: p.id, slot: 'lives_in' });
      assert.equal(porto?.value, 'Porto');
      return { id: p.id, sessionId, porto };
    };
    /** Every fact (history included) that came from utterance `uid`. */
    const factsFrom = async (subjectId: string, uid: string): Promise<Fact[]> =>
      (await stores.memory.listFacts(T, { participantId: subjectId, includeHistory: true, limit: 1000 })).filter((f) => f.referIds.includes(uid));

    /** The state a whole run leaves, as the assertions compare it. */
    const check = async (who: { id: string; porto: Fact }, uid: string, expectedCount: number): Promise<void> => {
      const facts = await factsFrom(who.id, uid);
      const texts = facts.map((f) => norm(f.content));
      assert.deepEqual(texts.filter((t, i) => texts.indexOf(t) !== i), [], `a fact stored twice: ${JSON.stringify(texts)}`);
      assert.equal(facts.length, expectedCount, `as many facts as one uninterrupted run stores: ${JSON.stringify(texts)}`);
      const recorded = await stores.memory.processedFacts(T, uid);
      assert.ok(recorded, 'the re-run recorded the utterance as processed');
      assert.deepEqual([...recorded].sort(), facts.map((f) => f.id).sort(), 'every fact stored from it is the one its consolidation recorded');
      const current = await stores.memory.listFacts(T, { subjectId: who.id, slot: 'lives_in' });
      assert.deepEqual(current.map((f) => f.value), ['Lisbon'], 'one current home');
      const old = await stores.memory.getFact(T, who.porto.id);
      assert.notEqual(old?.validTo, null, 'Porto closed');
      assert.equal(old?.supersededBy, current[0]?.id);
      // Search sees the new home and no longer the old one; every current fact is indexed.
      const [vector] = await embedder.embed(['lives in Lisbon']);
      const hits = await stores.vectors.search(T, collectionFor('profile'), vector as Float32Array, 10, { ids: [who.porto.id, current[0]!.id] });
      assert.deepEqual(hits.map((h) => h.id), [current[0]!.id]);
      for (const f of facts.filter((x) => x.validTo === null)) {
        const found = await stores.vectors.search(T, collectionFor(f.layer), vector as Float32Array, 1, { ids: [f.id] });
        assert.equal(found.length, 1, `${f.content} is indexed`);
      }
    };

    before(async () => {
      stores = await open();
      ben = (await stores.graph.createParticipant(T, { name: 'Ben' })).id;
    });
    after(async () => {
      await embedder.close();
      await stores?.dispose();
    });

    test('every interruption point: the re-run stores each fact once and finishes what the cut run left', { timeout: 300_000 }, async (t) => {
      // An uninterrupted run, counting its writes; and the same job run again stores nothing more.
      const control = await person();
      let writes = 0;
      const count = gatedJobStores(stores, WRITES, () => { writes += 1; });
      const uid = await store(control.sessionId, control.id, CHANGE);
      const ops: MemoryOp[][] = [];
      await handlerOn(count, ops)(job(control.sessionId, uid), new AbortController().signal);
      assert.deepEqual(ops.flat().map((o) => o.op).sort(), ['ADD', 'ADD', 'UPDATE']);
      const expected = (await factsFrom(control.id, uid)).length;
      assert.equal(expected, 3);
      await check(control, uid, expected);
      await handlerOn(stores)(job(control.sessionId, uid), new AbortController().signal);
      await check(control, uid, expected);
      t.diagnostic(`a whole run makes ${writes} store writes`);
      assert.ok(writes >= 6, `${writes} writes`);

      // Cut before write k, then run again. People and sessions are apart, so the cases run side by side.
      const cut = async (k: number): Promise<void> => {
        const who = await person();
        const u = await store(who.sessionId, who.id, CHANGE);
        let made = 0;
        const gate = (): void => {
          made += 1;
          if (made >= k) throw new Error(`worker killed before write ${k}`);
        };
        const dying = gatedJobStores(stores, WRITES, gate);
        await assert.rejects(handlerOn(dying)(job(who.sessionId, u), new AbortController().signal), /worker killed/, `cut before write ${k}`);
        assert.equal(await stores.memory.processedFacts(T, u), null);
        await handlerOn(stores)(job(who.sessionId, u), new AbortController().signal);
        await check(who, u, expected);
      };
      const points = Array.from({ length: writes }, (_, i) => i + 1);
      for (let i = 0; i < points.length; i += 6) await Promise.all(points.slice(i, i + 6).map(cut));
    });
  });
}

rerunSuite('SQLite', async () => sqliteJobStores());
rerunSuite('Neo4j (every store)', async () => neo4jJobStores('test-rerun'), NEO4J_SKIP);
