import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import pino from 'pino';
import { openDatabase, type SqliteDatabase } from '../../../graph/sqlite/database.js';
import { SqliteGraphStore } from '../../../graph/sqlite/sqlite-graph-store.js';
import { SqliteMemoryStore } from '../../../graph/sqlite/sqlite-memory-store.js';
import { SqliteVectorStore } from '../../../graph/sqlite/sqlite-vector-store.js';
import { SqliteLexicalIndex } from '../../../graph/sqlite/sqlite-lexical-index.js';
import { UseLiteEmbedder } from '../../../pipelines/embeddings/use-lite-embedder.js';
import { EmbeddedExtractor } from '../../../pipelines/memory/embedded-extractor.js';
import { collectionFor } from '../../../pipelines/memory/collections.js';
import { createConsolidationHandler, type ConsolidationJob, type MemoryOp } from '../../../pipelines/memory/consolidate.js';
import { ROOM_SPEECH_MIN_ASR_CONFIDENCE } from '../../../pipelines/memory/doubtful-speech.js';

const T = 't_cons';
let clock = Date.parse('2026-12-01T10:00:00.000Z');

describe('consolidation handler, embedded path (real USE-lite, real SQLite)', () => {
  let db: SqliteDatabase;
  let graph: SqliteGraphStore;
  let memory: SqliteMemoryStore;
  let vectors: SqliteVectorStore;
  let lexical: SqliteLexicalIndex;
  const embedder = new UseLiteEmbedder();
  const ops: MemoryOp[][] = [];
  let handler: ReturnType<typeof createConsolidationHandler>;
  let ana: string;
  let ben: string;
  let jobN = 0;

  /** Store an utterance, run the handler on it, return that job's ops. */
  async function say(speaker: string, addressee: string, text: string, confidence: number | null = null): Promise<{ ops: MemoryOp[]; id: string }> {
    clock += 60_000;
    const [u] = await graph.addUtterances(T, [{ sessionId: 's1', speakerId: speaker, addresseeIds: [addressee], text,
      startMs: null, endMs: null, time: new Date(clock).toISOString(), confidence, audioRef: null }]);
    assert.ok(u);
    const before = ops.length;
    const job = { id: `j${++jobN}`, name: 'memory.consolidate', attempt: 1, data: { tenant: T, sessionId: 's1', utteranceId: u.id } satisfies ConsolidationJob };
    await handler(job, new AbortController().signal);
    return { ops: ops.slice(before).flat(), id: u.id };
  }

  before(async () => {
    db = openDatabase(':memory:');
    graph = new SqliteGraphStore(db);
    memory = new SqliteMemoryStore(db);
    vectors = new SqliteVectorStore(db);
    lexical = new SqliteLexicalIndex(db);
    await graph.openSession(T, 's1', new Date(clock).toISOString());
    ana = (await graph.createParticipant(T, {})).id;
    ben = (await graph.createParticipant(T, { name: 'Ben' })).id;
    handler = createConsolidationHandler({
      graph, memory, vectors, lexical, embedder, extractor: new EmbeddedExtractor(),
      onOps: (_t, _s, o) => ops.push(o), logger: pino({ level: 'silent' }), minAsrConfidence: ROOM_SPEECH_MIN_ASR_CONFIDENCE,
    });
  });
  after(async () => {
    await embedder.close();
    db.close();
  });

  test('self-introduction sets the name and later facts use it', async () => {
    const r = await say(ana, ben, "Hi Ben, I'm Ana.");
    assert.equal(r.ops[0]?.op, 'ADD');
    assert.equal((await graph.getParticipant(T, ana))?.name, 'Ana');
    const p = await say(ana, ben, 'I love sushi.');
    assert.deepEqual(p.ops.map((o) => o.op), ['ADD']);
    assert.equal(p.ops[0]?.text, 'Ana loves sushi');
  });

  test('commitment with relative date, request and relation', async () => {
    const c = await say(ana, ben, "I'll send you the draft on Friday.");
    assert.equal(c.ops[0]?.text, 'Ana will send Ben the draft on Friday 4 December 2026');
    const fact = await memory.getFact(T, c.ops[0]?.memory_id ?? '');
    assert.equal(fact?.eventTime, '2026-12-04');
    assert.equal(fact?.kind, 'commitment');
    assert.deepEqual(fact?.addresseeIds, [ben]);
    assert.deepEqual(fact?.referIds, [c.id]);
    const req = await say(ben, ana, 'Can you book the meeting room?');
    assert.equal(req.ops[0]?.text, 'Ben asked Ana to book the meeting room');
    // A request is the asker's since trial 8 (a call centre's change told to another agent replaces it); the one asked is its addressee.
    const asked = await memory.getFact(T, req.ops[0]?.memory_id ?? '');
    assert.deepEqual([asked?.subjectId, asked?.addresseeIds], [ben, [ana]]);
    const rel = await say(ana, ben, 'My sister Maria is visiting next week.');
    assert.ok(rel.ops.some((o) => o.text === "Maria is Ana's sister"));
  });

  test('background, update closes the old fact with history, duplicate is kept', async () => {
    const a = await say(ana, ben, 'I live in Porto.');
    assert.deepEqual(a.ops.map((o) => o.op), ['ADD']);
    const oldId = a.ops[0]?.memory_id ?? '';
    assert.equal((await graph.getParticipant(T, ana))?.attributes.lives_in, 'Porto');
    const dup = await say(ana, ben, 'Yes, I live in Porto.');
    assert.deepEqual(dup.ops.map((o) => [o.op, o.memory_id]), [['KEEP', oldId]]);
    const up = await say(ana, ben, 'I moved to Lisbon last month.');
    assert.deepEqual(up.ops.map((o) => o.op), ['UPDATE']);
    const newFact = await memory.getFact(T, up.ops[0]?.memory_id ?? '');
    const old = await memory.getFact(T, oldId);
    assert.equal(newFact?.supersedes, oldId);
    assert.equal(old?.supersededBy, newFact?.id);
    assert.notEqual(old?.validTo, null, 'old fact closed, not erased');
    assert.equal((await graph.getParticipant(T, ana))?.attributes.lives_in, 'Lisbon');
    const current = await memory.listFacts(T, { participantId: ana, slot: 'lives_in' });
    assert.deepEqual(current.map((f) => f.id), [newFact?.id]);
    const history = await memory.listFacts(T, { participantId: ana, slot: 'lives_in', includeHistory: true });
    assert.equal(history.length, 2);
    // Closed facts leave the search indexes; history stays in the store.
    const hits = await lexical.search(T, 'Porto', 10, { layer: 'profile' });
    assert.ok(!hits.some((h) => h.id === oldId));
  });

  test('contradiction updates a preference; retraction deletes it', async () => {
    const pref = (await memory.listFacts(T, { slot: 'preference:sushi' }))[0];
    assert.ok(pref);
    const up = await say(ana, ben, 'Honestly I hate sushi.');
    assert.deepEqual(up.ops.map((o) => o.op), ['UPDATE']);
    const del = await say(ana, ben, "I don't like sushi anymore.");
    assert.deepEqual(del.ops.map((o) => o.op), ['DELETE']);
    assert.equal((await memory.listFacts(T, { slot: 'preference:sushi' })).length, 0);
    assert.equal((await memory.listFacts(T, { slot: 'preference:sushi', includeHistory: true })).length, 2);
  });

  test('"cancel that" withdraws the facts of the previous turn', async () => {
    const plan = await say(ana, ben, "I'm flying to Rome next Friday.");
    assert.equal(plan.ops[0]?.op, 'ADD');
    const cancel = await say(ana, ben, 'Actually, cancel that.');
    assert.deepEqual(cancel.ops.map((o) => [o.op, o.memory_id]), [['DELETE', plan.ops[0]?.memory_id]]);
    assert.notEqual((await memory.getFact(T, plan.ops[0]?.memory_id ?? ''))?.validTo, null);
  });

  // Trial 9 (issue #16 F9): "Forget what I just said." made no fact and withdrew nothing.
  test('"forget what I just said" withdraws the facts of the previous turn', async () => {
    const hid = await say(ben, ana, 'I hid the birthday present in the garage.');
    assert.equal(hid.ops[0]?.op, 'ADD');
    const forget = await say(ben, ana, 'Forget what I just said.');
    assert.deepEqual(forget.ops.map((o) => [o.op, o.memory_id]), [['DELETE', hid.ops[0]?.memory_id]]);
  });

  // Trial 9 (issue #16 F6): the request to remember was stored as a request, and the nut allergy, corrected to peanuts,
  // was closed with nothing linking it to the peanut allergy that replaced it.
  test('a request to remember is the statement; an allergy corrected replaces the one held, linked', async () => {
    const nuts = await say(ben, ana, 'please remember that I am allergic to nuts');
    assert.deepEqual(nuts.ops.map((o) => [o.op, o.text]), [['ADD', 'Ben is allergic to nuts']]);
    const peanuts = await say(ben, ana, 'actually I am not allergic to nuts, it was peanuts');
    assert.deepEqual(peanuts.ops.map((o) => o.op), ['UPDATE']);
    const now = await memory.getFact(T, peanuts.ops[0]?.memory_id ?? '');
    const old = await memory.getFact(T, nuts.ops[0]?.memory_id ?? '');
    assert.equal(now?.supersedes, old?.id);
    assert.equal(old?.supersededBy, now?.id);
    assert.notEqual(old?.validTo, null);
    const current = await memory.listFacts(T, { participantId: ben, limit: 1000 });
    assert.deepEqual(current.filter((f) => /\bnuts\b/.test(f.content) && !/\bpeanuts\b/.test(f.content)).map((f) => f.content), [], 'nothing current says Ben is allergic to nuts');
  });

  test('unslotted retraction closes the nearest plan', async () => {
    const plan = await say(ana, ben, "I'm running the Boston marathon in April.");
    const del = await say(ana, ben, "I'm not running the Boston marathon anymore.");
    assert.deepEqual(del.ops.map((o) => [o.op, o.memory_id]), [['DELETE', plan.ops[0]?.memory_id]]);
  });

  test('indexes utterances and facts for vector and lexical search', async () => {
    const r = await say(ben, ana, 'I work at Acme Robotics.');
    const [q] = await embedder.embed(['Where does Ben work?']);
    assert.ok(q);
    const factHits = await vectors.search(T, collectionFor('profile'), q, 3);
    assert.equal(factHits[0]?.id, r.ops[0]?.memory_id);
    assert.equal(factHits[0]?.payload.speakerId, ben);
    const lex = await lexical.search(T, 'Acme Robotics', 5, { layer: 'interaction' });
    assert.deepEqual(lex.map((h) => h.id), [r.id]);
    assert.equal(await vectors.count(T, collectionFor('interaction')), await graph.getTranscript(T, 's1').then((t) => t.length));
  });

  test('outcomes settle what they settle: done -> UPDATE, cancelled -> DELETE', async () => {
    const build = await say(ana, ben, "I'll build the raised beds for you.");
    assert.equal((await memory.getFact(T, build.ops[0]?.memory_id ?? ''))?.kind, 'commitment');
    const done = await say(ana, ben, 'The raised beds are finished.');
    assert.deepEqual(done.ops.map((o) => o.op), ['UPDATE']);
    const closed = await memory.getFact(T, build.ops[0]?.memory_id ?? '');
    assert.notEqual(closed?.validTo, null, 'the commitment is no longer open');
    assert.equal(closed?.supersededBy, done.ops[0]?.memory_id);
    const call = await say(ana, ben, "I'll call the plumber for you tomorrow.");
    const off = await say(ana, ben, "Sorry, I won't be able to call the plumber after all.");
    assert.deepEqual(off.ops.map((o) => [o.op, o.memory_id]), [['DELETE', call.ops[0]?.memory_id]]);
  });

  test('a change reported by someone else updates the person it is about', async () => {
    const before = (await memory.listFacts(T, { subjectId: ana, slot: 'lives_in' }))[0];
    assert.ok(before);
    const r = await say(ben, ana, 'Ana moved to Berkeley over the summer.');
    assert.deepEqual(r.ops.map((o) => [o.op, o.text]), [['UPDATE', 'Ana moved to Berkeley']]);
    const now = await memory.getFact(T, r.ops[0]?.memory_id ?? '');
    assert.equal(now?.subjectId, ana);
    assert.equal(now?.speakerId, ben, 'who said it is kept');
    assert.equal(now?.supersedes, before.id);
    assert.equal((await graph.getParticipant(T, ana))?.attributes.lives_in, 'Berkeley');
  });

  test('a worse ASR transcript of the same statement keeps the better fact and profile', async () => {
    const good = await say(ben, ana, 'I live in Barcelona.', 0.9);
    assert.deepEqual(good.ops.map((o) => o.op), ['ADD']);
    const worse = await say(ben, ana, 'I live in Barcelone.', 0.35);
    assert.deepEqual(worse.ops.map((o) => [o.op, o.memory_id, o.text]), [['KEEP', good.ops[0]?.memory_id, 'Ben lives in Barcelona']]);
    assert.equal((await graph.getParticipant(T, ben))?.attributes.lives_in, 'Barcelona');
  });

  test('doubtful speech (ASR confidence under the gate) stays in the transcript and gives memory nothing, run again too', async () => {
    const factsBefore = (await memory.listFacts(T, { includeHistory: true, limit: 1000 })).length;
    const doubtful = await say(ana, ben, 'I live in Zanzibar and my sister is called Quorra.', 0.11);
    assert.deepEqual(doubtful.ops, [], 'no memory.updated');
    assert.deepEqual(await memory.processedFacts(T, doubtful.id), [], 'recorded as processed, with no facts');
    await handler({ id: 'doubt-again', name: 'memory.consolidate', attempt: 2, data: { tenant: T, sessionId: 's1', utteranceId: doubtful.id } }, new AbortController().signal);
    assert.equal((await memory.listFacts(T, { includeHistory: true, limit: 1000 })).length, factsBefore, 'no fact');
    assert.equal((await graph.getParticipant(T, ana))?.attributes.lives_in, 'Berkeley', 'no profile update');
    assert.deepEqual((await lexical.search(T, 'Zanzibar Quorra', 10)).map((h) => h.id).filter((id) => id === doubtful.id), [], 'not indexed for search');
    assert.equal((await graph.getUtterance(T, doubtful.id))?.text, 'I live in Zanzibar and my sister is called Quorra.', 'kept in the transcript');
    const typed = await say(ana, ben, 'My sister is called Quorra.');
    assert.ok(typed.ops.some((o) => o.op === 'ADD'), 'a client\'s text (no ASR confidence) is never doubtful');
  });

  test('a doubtful turn\'s keyword entry from ingest is removed by its consolidation (review D M1)', async () => {
    clock += 60_000;
    const [u] = await graph.addUtterances(T, [{ sessionId: 's1', speakerId: ana, addresseeIds: [ben], text: 'My cousin Zebulon breeds axolotls.',
      startMs: null, endMs: null, time: new Date(clock).toISOString(), confidence: 0.11, audioRef: null }]);
    assert.ok(u);
    // As an ingest from before it left doubtful turns out indexed it.
    await lexical.index(T, [{ id: u.id, text: u.text, layer: 'interaction', sessionId: 's1', speakerId: ana, addresseeIds: [ben] }]);
    assert.deepEqual((await lexical.search(T, 'Zebulon axolotls', 10)).map((h) => h.id), [u.id]);
    await handler({ id: 'doubt-indexed', name: 'memory.consolidate', attempt: 1, data: { tenant: T, sessionId: 's1', utteranceId: u.id } }, new AbortController().signal);
    assert.deepEqual(await lexical.search(T, 'Zebulon axolotls', 10), [], 'no keyword entry left');
    assert.deepEqual(await memory.processedFacts(T, u.id), []);
  });

  // A doubtful turn gave memory nothing, but the next turn's extraction still read it: "Sure, I'll order it today" after a
  // doubtful "Can you order a chocolate cake …?" took the cake as what Ana will order; "cancel that" after a doubtful
  // plan stored "Ana withdrew: <its words>".
  test('a doubtful turn is no context for the turns after it: neither an antecedent nor what "cancel that" withdraws', async () => {
    await say(ben, ana, 'Can you order a chocolate cake from the bakery on Mill Street?', 0.11);
    const reply = await say(ana, ben, "Sure, I'll order it today.");
    assert.equal(reply.ops[0]?.op, 'ADD');
    const commitment = await memory.getFact(T, reply.ops[0]?.memory_id ?? '');
    assert.deepEqual(commitment?.planObject?.objects, [], 'what "it" is was not taken from the doubtful request');
    assert.ok(!reply.ops.some((o) => /cake/i.test(o.text)), JSON.stringify(reply.ops));
    const plan = await say(ana, ben, "I'm driving to Madrid on Sunday.");
    assert.equal(plan.ops[0]?.op, 'ADD');
    await say(ana, ben, "I'm flying to Tokyo next Friday.", 0.11);
    const cancel = await say(ana, ben, 'Actually, cancel that.');
    assert.deepEqual(cancel.ops, [], 'nothing before the doubtful turn is withdrawn in its place, and its words are not stored');
    assert.equal((await memory.getFact(T, plan.ops[0]?.memory_id ?? ''))?.validTo, null, 'the plan before it holds');
  });

  test('re-running a job is idempotent', async () => {
    const r = await say(ben, ana, 'My favourite band is Radiohead.');
    const countBefore = (await memory.listFacts(T, { includeHistory: true, limit: 1000 })).length;
    const opsBefore = ops.length;
    await handler({ id: 'again', name: 'memory.consolidate', attempt: 2, data: { tenant: T, sessionId: 's1', utteranceId: r.id } }, new AbortController().signal);
    assert.equal((await memory.listFacts(T, { includeHistory: true, limit: 1000 })).length, countBefore);
    assert.equal(ops.length, opsBefore, 'no ops on a replay');
  });
});
