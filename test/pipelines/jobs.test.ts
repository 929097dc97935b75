import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import pino from 'pino';
import { openStores, type StoreConfig } from '../../graph/open-stores.js';
import type { Stores } from '../../graph/stores.js';
import { UseLiteEmbedder } from '../../pipelines/embeddings/use-lite-embedder.js';
import { registerJobHandlers, type JobsConfig } from '../../pipelines/jobs.js';
import { CONSOLIDATION_JOB } from '../../pipelines/memory/consolidate.js';
import { tempDir } from '../helpers/temp-dir.js';

/** Real USE-lite that counts how often the model is run on each text (embedding it, or classifying it). */
class CountingEmbedder extends UseLiteEmbedder {
  readonly runs = new Map<string, number>();

  override embed(texts: string[]): Promise<Float32Array[]> {
    this.#count(texts);
    return super.embed(texts);
  }

  override classify(classifierId: number, texts: string[]): ReturnType<UseLiteEmbedder['classify']> {
    this.#count(texts);
    return super.classify(classifierId, texts);
  }

  #count(texts: string[]): void {
    for (const t of texts) this.runs.set(t, (this.runs.get(t) ?? 0) + 1);
  }
}

describe('registered job handlers (embedded stores, real USE-lite)', { timeout: 300_000 }, () => {
  const tmp = tempDir('parley-slotrace-jobs-');
  const embedder = new CountingEmbedder();
  let stores: Stores;
  before(async () => {
    const config: StoreConfig & JobsConfig = {
      dataDir: tmp.dir, queue: 'embedded', redisUrl: '', redisPrefix: 'parley', vectorStore: 'sqlite', qdrantUrl: '', qdrantApiKey: null,
      graphStore: 'sqlite', neo4jUri: '', neo4jUser: '', neo4jPassword: '', neo4jDatabase: '',
      apiKeys: [], extractor: 'embedded', llmModel: '', openaiApiKey: null, openaiBaseUrl: '',
    };
    stores = openStores(config, pino({ level: 'silent' }));
    await registerJobHandlers({ config, stores, embedder, logger: pino({ level: 'silent' }), publish: () => {} });
  });
  after(async () => {
    await stores.close();
    await embedder.close();
    tmp.remove();
  });

  test('a turn\'s text is run through the model once: affect classifies the vector consolidation made', async () => {
    const ana = await stores.graph.createParticipant('t', { name: 'Ana' });
    await stores.graph.openSession('t', 's', '2026-12-01T10:00:00.000Z');
    const text = 'I am so happy, I finally moved to Lisbon!';
    const [u] = await stores.graph.addUtterances('t', [{ sessionId: 's', speakerId: ana.id, addresseeIds: [], text,
      startMs: null, endMs: null, time: '2026-12-01T10:01:00.000Z', confidence: null, audioRef: null }]);
    assert.ok(u);
    await stores.queue.enqueue(CONSOLIDATION_JOB, { tenant: 't', sessionId: 's', utteranceId: u.id }, { attempts: 1 });
    await stores.queue.drain(CONSOLIDATION_JOB, 120_000);
    assert.deepEqual(await stores.queue.deadLetters(CONSOLIDATION_JOB), []);
    assert.ok(await stores.memory.processedFacts('t', u.id), 'consolidated');
    assert.equal(embedder.runs.get(text), 1, 'embedded for consolidation, not again for affect');
  });
});
