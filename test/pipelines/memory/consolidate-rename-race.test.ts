import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import pino from 'pino';
import { openDatabase } from '../../../graph/sqlite/database.js';
import { SqliteGraphStore } from '../../../graph/sqlite/sqlite-graph-store.js';
import { SqliteMemoryStore } from '../../../graph/sqlite/sqlite-memory-store.js';
import { SqliteVectorStore } from '../../../graph/sqlite/sqlite-vector-store.js';
import { SqliteLexicalIndex } from '../../../graph/sqlite/sqlite-lexical-index.js';
import { UseLiteEmbedder } from '../../../pipelines/embeddings/use-lite-embedder.js';
import { EmbeddedExtractor } from '../../../pipelines/memory/embedded-extractor.js';
import type { ExtractionInput, Extractor } from '../../../pipelines/memory/extractor.js';
import { createConsolidationHandler, type ConsolidationJob } from '../../../pipelines/memory/consolidate.js';
import { PENDING_RENAME, renameOwed, withLearnedName } from '../../../pipelines/interaction/pending-rename.js';
import { finishPendingRenames, renameMemories } from '../../../pipelines/interaction/finish-rename.js';
import { MemoryKeyedLock } from '../../../graph/memory-keyed-lock.js';

const T = 't_race';

/**
 * A consolidation job that read the names before a rename and writes after the rename's rewrite finished: the order
 * is forced (the rename runs inside the extractor's call, once the names were read), no timing involved.
 */
describe('consolidation racing a learned name', () => {
  const embedder = new UseLiteEmbedder();
  after(async () => { await embedder.close(); });

  test('a fact extracted as "an unnamed speaker" before the name was learned is written with the name', async () => {
    const db = openDatabase(':memory:');
    const graph = new SqliteGraphStore(db);
    const memory = new SqliteMemoryStore(db);
    await graph.openSession(T, 's1', '2026-12-01T10:00:00.000Z');
    const unnamed = (await graph.createParticipant(T, {})).id;
    const ben = (await graph.createParticipant(T, { name: 'Ben' })).id;
    const real = new EmbeddedExtractor();
    let renamed = false;
    const extractor: Extractor = {
      source: real.source,
      async extract(input: ExtractionInput) {
        const result = await real.extract(input);
        // The names are read: now the person is named, and the rename's rewrite runs to its end (nothing of this turn stored yet).
        await graph.updateParticipantNames(T, unnamed, (stored) => withLearnedName(stored, 'Xena'));
        renamed = (await finishPendingRenames({ graph, memory }, T, [unnamed])) === 1;
        return result;
      },
    };
    const handler = createConsolidationHandler({
      graph, memory, vectors: new SqliteVectorStore(db), lexical: new SqliteLexicalIndex(db), embedder, extractor,
      onOps: () => undefined, logger: pino({ level: 'silent' }),
    });
    const [u] = await graph.addUtterances(T, [{ sessionId: 's1', speakerId: unnamed, addresseeIds: [ben], text: 'I love green tea.',
      startMs: null, endMs: null, time: '2026-12-01T10:01:00.000Z', confidence: null, audioRef: null }]);
    const job = { id: 'j1', name: 'memory.consolidate', attempt: 1, data: { tenant: T, sessionId: 's1', utteranceId: u!.id } satisfies ConsolidationJob };
    await handler(job, new AbortController().signal);
    assert.ok(renamed, 'the rename finished between the read of the names and the write');
    const texts = (await memory.listFacts(T, { participantId: unnamed })).map((f) => f.content);
    assert.ok(texts.length > 0, 'the turn gave a fact');
    assert.deepEqual(texts.filter((t) => /unnamed speaker/i.test(t)), [], `written with the name: ${texts.join(' | ')}`);
    assert.ok(texts.some((t) => /^Xena\b/.test(t)), texts.join(' | '));
    db.close();
  });

  test('a fact extracted with the old name before a rename (PATCH "Ana" → "Anna") committed is written with the new name', async () => {
    const db = openDatabase(':memory:');
    const graph = new SqliteGraphStore(db);
    const memory = new SqliteMemoryStore(db);
    const locks = new MemoryKeyedLock();
    await graph.openSession(T, 's2', '2026-12-01T10:00:00.000Z');
    const ana = await graph.createParticipant(T, { name: 'Ana' });
    const ben = (await graph.createParticipant(T, { name: 'Ben' })).id;
    const real = new EmbeddedExtractor();
    let seen: Record<string, string | null> = {};
    const extractor: Extractor = {
      source: real.source,
      async extract(input: ExtractionInput) {
        seen = input.names;
        const result = await real.extract(input);
        // The names are read ("Ana"): now a PATCH renames her, as the route does (the rewrite owed recorded, the name
        // set, the rewrite run under her subject lock to its end); nothing of this turn is stored yet.
        const owed = renameOwed(ana, 'Anna')!;
        await graph.updateParticipantAttribute(T, ana.id, PENDING_RENAME, () => owed);
        await graph.updateParticipant(T, ana.id, { name: 'Anna' });
        await renameMemories({ graph, memory, locks }, T, ana.id, owed);
        return result;
      },
    };
    const handler = createConsolidationHandler({
      graph, memory, vectors: new SqliteVectorStore(db), lexical: new SqliteLexicalIndex(db), embedder, extractor, locks,
      onOps: () => undefined, logger: pino({ level: 'silent' }),
    });
    const [u] = await graph.addUtterances(T, [{ sessionId: 's2', speakerId: ana.id, addresseeIds: [ben], text: 'I love green tea.',
      startMs: null, endMs: null, time: '2026-12-01T10:01:00.000Z', confidence: null, audioRef: null }]);
    const job = { id: 'j2', name: 'memory.consolidate', attempt: 1, data: { tenant: T, sessionId: 's2', utteranceId: u!.id } satisfies ConsolidationJob };
    await handler(job, new AbortController().signal);
    assert.equal(seen[ana.id], 'Ana', 'the extraction read the old name');
    assert.equal((await graph.getParticipant(T, ana.id))?.name, 'Anna');
    const texts = (await memory.listFacts(T, { participantId: ana.id, includeHistory: true })).map((f) => f.content);
    assert.ok(texts.length > 0, 'the turn gave a fact');
    assert.deepEqual(texts.filter((t) => /\bAna\b/.test(t)), [], `written with the new name: ${texts.join(' | ')}`);
    assert.ok(texts.some((t) => /^Anna\b/.test(t)), texts.join(' | '));
    db.close();
  });
});
