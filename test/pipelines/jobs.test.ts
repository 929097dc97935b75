import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import pino from 'pino';
import { openStores, type StoreConfig } from '../../graph/open-stores.js';
import type { Stores } from '../../graph/stores.js';
import { UseLiteEmbedder } from '../../pipelines/embeddings/use-lite-embedder.js';
import { registerJobHandlers, runAfterStep, type JobsConfig } from '../../pipelines/jobs.js';
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

describe('post-consolidation steps during a store outage', () => {
  const log = pino({ level: 'silent' });
  const job = { tenant: 't', sessionId: 's', utteranceId: 'u_1' };
  const outage = () => Object.assign(new Error('Neo4j (NEO4J_URI) unavailable during record'), { code: 'PARLEY_ERR_STORE_UNAVAILABLE' });

  test('a step that meets an outage is tried again until the store answers (also when the outage is the cause)', async () => {
    let calls = 0;
    const seen: string[][] = [];
    await runAfterStep(async (_job, factIds) => {
      calls += 1;
      seen.push(factIds);
      if (calls === 1) throw outage();
      if (calls === 2) throw new Error('record failed', { cause: outage() });
    }, job, ['f_1'], new AbortController().signal, log, { backoffMs: 1 });
    assert.equal(calls, 3);
    assert.deepEqual(seen, [['f_1'], ['f_1'], ['f_1']]);
  });

  test('any other failure is not retried; an outage longer than the limit, or an aborted job, gives up', async () => {
    let calls = 0;
    await runAfterStep(async () => {
      calls += 1;
      throw new Error('bad data');
    }, job, [], new AbortController().signal, log, { backoffMs: 1 });
    assert.equal(calls, 1);

    // No time left to wait out the outage: given up after the one try, whatever the machine's speed.
    calls = 0;
    await runAfterStep(async () => {
      calls += 1;
      throw outage();
    }, job, [], new AbortController().signal, log, { backoffMs: 5, outageMs: 0 });
    assert.equal(calls, 1, 'given up once the limit is passed');

    calls = 0;
    const abort = new AbortController();
    const running = runAfterStep(async () => {
      calls += 1;
      throw outage();
    }, job, [], abort.signal, log, { backoffMs: 60_000 });
    setTimeout(() => abort.abort(), 20);
    await running;
    assert.equal(calls, 1, 'the wait ends with the job');
  });

  test('registered handlers: the step runs again after the outage, and the job completes without a dead letter', async () => {
    const tmp = tempDir('parley-after-step-');
    const config: StoreConfig & JobsConfig = {
      dataDir: tmp.dir, queue: 'embedded', redisUrl: '', redisPrefix: 'parley', vectorStore: 'sqlite', qdrantUrl: '', qdrantApiKey: null,
      graphStore: 'sqlite', neo4jUri: '', neo4jUser: '', neo4jPassword: '', neo4jDatabase: '',
      apiKeys: [], extractor: 'embedded', llmModel: '', openaiApiKey: null, openaiBaseUrl: '',
    };
    const stores = openStores(config, log);
    const embedder = new UseLiteEmbedder();
    const done: string[] = [];
    let failures = 2;
    try {
      await registerJobHandlers({
        config, stores, embedder, logger: log, publish: () => {}, afterStepBackoffMs: 1,
        afterConsolidation: [async (j) => {
          if (failures-- > 0) throw outage();
          done.push(j.utteranceId);
        }],
      });
      const ana = await stores.graph.createParticipant('t', { name: 'Ana' });
      await stores.graph.openSession('t', 's', '2026-12-01T10:00:00.000Z');
      const [u] = await stores.graph.addUtterances('t', [{ sessionId: 's', speakerId: ana.id, addresseeIds: [], text: 'I live in Porto.',
        startMs: null, endMs: null, time: '2026-12-01T10:01:00.000Z', confidence: null, audioRef: null }]);
      assert.ok(u);
      await stores.queue.enqueue(CONSOLIDATION_JOB, { tenant: 't', sessionId: 's', utteranceId: u.id }, { attempts: 1 });
      await stores.queue.drain(CONSOLIDATION_JOB, 120_000);
      assert.deepEqual(await stores.queue.deadLetters(CONSOLIDATION_JOB), []);
      assert.deepEqual(done, [u.id], 'the step ran to the end once the store answered');
    } finally {
      await stores.close();
      await embedder.close();
      tmp.remove();
    }
  });
});
