import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import { openDatabase, type SqliteDatabase } from '../../../graph/sqlite/database.js';
import { SqliteGraphStore } from '../../../graph/sqlite/sqlite-graph-store.js';
import { SqliteLexicalIndex } from '../../../graph/sqlite/sqlite-lexical-index.js';
import { SqliteMemoryStore } from '../../../graph/sqlite/sqlite-memory-store.js';
import { SqliteVectorStore } from '../../../graph/sqlite/sqlite-vector-store.js';
import { RecentEmbeddings } from '../../../pipelines/embeddings/recent-embeddings.js';
import type { TextEmbedder } from '../../../pipelines/embeddings/text-embedder.js';
import { UseLiteEmbedder } from '../../../pipelines/embeddings/use-lite-embedder.js';
import { oweMergeRename, relabelFacts } from '../../../pipelines/interaction/merge-participants.js';
import { collectionFor } from '../../../pipelines/memory/collections.js';
import { createConsolidationHandler, type ConsolidationJob } from '../../../pipelines/memory/consolidate.js';
import { EmbeddedExtractor } from '../../../pipelines/memory/embedded-extractor.js';
import { UNNAMED } from '../../../pipelines/memory/extractor.js';

const T = 't_reindex';

/** The real embedder, recording every text it is asked to embed. */
class CountingEmbedder implements TextEmbedder {
  readonly texts: string[] = [];
  constructor(private readonly inner: TextEmbedder) {}
  get space() { return this.inner.space; }
  embed(texts: string[]): Promise<Float32Array[]> {
    this.texts.push(...texts);
    return this.inner.embed(texts);
  }
  close(): Promise<void> { return this.inner.close(); }
}

describe('re-indexing a consolidated utterance (speaker merge) embeds only the texts that changed', () => {
  let db: SqliteDatabase;
  let graph: SqliteGraphStore;
  let memory: SqliteMemoryStore;
  let vectors: SqliteVectorStore;
  const embedder = new CountingEmbedder(new UseLiteEmbedder());
  // As the job handlers use it: consolidation and the affect step after it share the job's recent vectors.
  const recent = new RecentEmbeddings(embedder);
  let handler: ReturnType<typeof createConsolidationHandler>;
  let jobs = 0;
  const run = (utteranceId: string) => handler(
    { id: `j${++jobs}`, name: 'memory.consolidate', attempt: 1, data: { tenant: T, sessionId: 's1', utteranceId } satisfies ConsolidationJob },
    new AbortController().signal,
  );

  before(async () => {
    db = openDatabase(':memory:');
    graph = new SqliteGraphStore(db);
    memory = new SqliteMemoryStore(db);
    vectors = new SqliteVectorStore(db);
    handler = createConsolidationHandler({
      graph, memory, vectors, lexical: new SqliteLexicalIndex(db), embedder: recent, extractor: new EmbeddedExtractor(),
      onOps: () => {}, logger: pino({ level: 'silent' }),
    });
    await graph.openSession(T, 's1', '2026-12-01T10:00:00.000Z');
  });
  after(async () => {
    await embedder.close();
    db.close();
  });

  test('a merge that names an unnamed speaker re-embeds the renamed fact, not the utterance; a second re-index embeds nothing', async () => {
    const voice = (await graph.createParticipant(T, {})).id;
    const ben = (await graph.createParticipant(T, { name: 'Ben' })).id;
    const xena = (await graph.createParticipant(T, { name: 'Xena' })).id;
    const [u] = await graph.addUtterances(T, [{ sessionId: 's1', speakerId: voice, addresseeIds: [ben], text: 'I love green tea.',
      startMs: null, endMs: null, time: '2026-12-01T10:01:00.000Z', confidence: null, audioRef: null }]);
    await run(u!.id);
    const [factId] = (await memory.processedFacts(T, u!.id)) ?? [];
    const fact = await memory.getFact(T, factId ?? '');
    assert.ok(fact?.content.toLowerCase().includes(UNNAMED), `the fact names the unnamed speaker: ${fact?.content}`);
    assert.deepEqual(embedder.texts, [u!.text, fact!.content], 'the first consolidation embeds the turn and its fact');
    const [first] = await vectors.get(T, collectionFor('interaction'), [u!.id]);

    // What applyMerge does to the stores before it queues the re-index.
    await oweMergeRename({ graph, memory }, T, (await graph.getParticipant(T, voice))!, (await graph.getParticipant(T, xena))!);
    await graph.mergeParticipants(T, voice, xena);
    await relabelFacts({ graph, memory }, T, voice, xena);
    const renamed = (await memory.getFact(T, fact!.id))!.content;
    assert.match(renamed, /^Xena /);
    await recent.close(); // the re-index runs later, in a job of its own
    embedder.texts.length = 0;
    await run(u!.id);
    assert.deepEqual(embedder.texts, [renamed], 'only the renamed fact is embedded again');
    const [turn] = await vectors.get(T, collectionFor('interaction'), [u!.id]);
    assert.equal(turn!.payload.speakerId, xena, 'the turn is indexed under the surviving id');
    assert.deepEqual(Array.from(turn!.vector), Array.from(first!.vector), 'with its stored vector');
    const [point] = await vectors.get(T, collectionFor(fact!.layer), [fact!.id]);
    const [fresh] = await embedder.embed([renamed]);
    assert.deepEqual(Array.from(point!.vector), Array.from(fresh!), 'the fact\'s vector embeds its new text');

    await recent.close();
    embedder.texts.length = 0;
    await run(u!.id);
    assert.deepEqual(embedder.texts, [], 'nothing changed since: nothing is embedded');
    await recent.close();
    await run(u!.id);
    await recent.embed([u!.text]);
    assert.deepEqual(embedder.texts, [], 'the affect step after the job finds the reused vector of the turn');
  });

  test('a point indexed without a text digest (before this was kept) is embedded again, then reused', async () => {
    const ana = (await graph.createParticipant(T, { name: 'Ana' })).id;
    const [u] = await graph.addUtterances(T, [{ sessionId: 's1', speakerId: ana, addresseeIds: [], text: 'The weather is fine today.',
      startMs: null, endMs: null, time: '2026-12-01T10:02:00.000Z', confidence: null, audioRef: null }]);
    await run(u!.id);
    const [stored] = await vectors.get(T, collectionFor('interaction'), [u!.id]);
    const { textHash: _dropped, ...old } = stored!.payload;
    await vectors.upsert(T, collectionFor('interaction'), [{ id: u!.id, vector: stored!.vector, payload: old }]);
    await recent.close(); // a later job: the first consolidation's vectors are no longer recent
    embedder.texts.length = 0;
    await run(u!.id);
    assert.ok(embedder.texts.includes(u!.text), 'no digest: the text is embedded');
    await recent.close();
    embedder.texts.length = 0;
    await run(u!.id);
    assert.ok(!embedder.texts.includes(u!.text), 'the re-index wrote the digest: reused from then on');
  });
});
