import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import pino from 'pino';
import { openStores, type StoreConfig } from '../../graph/open-stores.js';
import type { Stores } from '../../graph/stores.js';
import { ONNX_TEXT_MODELS, OnnxTextEmbedder } from '../../pipelines/embeddings/onnx-text-embedder.js';
import type { TextEmbedder } from '../../pipelines/embeddings/text-embedder.js';
import { textModelInstalled } from '../../pipelines/embeddings/text-embedder-choice.js';
import { UseLiteEmbedder } from '../../pipelines/embeddings/use-lite-embedder.js';
import { modelsDir } from '../../pipelines/models/repo-root.js';
import { registerJobHandlers, type JobsConfig } from '../../pipelines/jobs.js';
import { AFTER_CONSOLIDATION_JOB, drainConsolidation } from '../../pipelines/memory/after-consolidation.js';
import { CONSOLIDATION_JOB } from '../../pipelines/memory/consolidate.js';
import { deleteKeys, redisSkipReason, TEST_REDIS_URL } from '../helpers/redis.js';
import { tempDir } from '../helpers/temp-dir.js';

/** Counts how often the model is run on each text; classifying a text embeds it, so it counts too. */
function counting<E extends TextEmbedder>(embedder: E): E & { runs: Map<string, number> } {
  const runs = new Map<string, number>();
  const embed = embedder.embed.bind(embedder);
  return Object.assign(embedder, {
    runs,
    embed: (texts: string[]): Promise<Float32Array[]> => {
      for (const t of texts) runs.set(t, (runs.get(t) ?? 0) + 1);
      return embed(texts);
    },
  });
}

const BGE = ONNX_TEXT_MODELS['bge-small-en-v1.5-q'];
const bgeSkip = textModelInstalled(modelsDir(), BGE.name) ? undefined : `${BGE.name} is not installed in ${modelsDir()}`;
const ENCODERS: { name: string; make: () => TextEmbedder; skip: string | undefined }[] = [
  { name: 'real USE-lite', make: () => new UseLiteEmbedder(), skip: undefined },
  { name: 'real bge-small-en-v1.5-q', make: () => new OnnxTextEmbedder({ spec: BGE, modelsDir: modelsDir() }), skip: bgeSkip },
];

for (const encoder of ENCODERS) describe(`registered job handlers (embedded stores, ${encoder.name})`, { timeout: 300_000, skip: encoder.skip }, () => {
  const tmp = tempDir('parley-slotrace-jobs-');
  const embedder = counting(encoder.make());
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

  test('a turn\'s text is run through the model once: affect classifies the vector consolidation made, on that same model', async () => {
    const ana = await stores.graph.createParticipant('t', { name: 'Ana' });
    await stores.graph.openSession('t', 's', '2026-12-01T10:00:00.000Z');
    const text = 'I absolutely love my new job, it is wonderful';
    const [u] = await stores.graph.addUtterances('t', [{ sessionId: 's', speakerId: ana.id, addresseeIds: [], text,
      startMs: null, endMs: null, time: '2026-12-01T10:01:00.000Z', confidence: null, audioRef: null }]);
    assert.ok(u);
    await stores.queue.enqueue(CONSOLIDATION_JOB, { tenant: 't', sessionId: 's', utteranceId: u.id }, { attempts: 1 });
    await stores.queue.drain(CONSOLIDATION_JOB, 120_000);
    assert.deepEqual(await stores.queue.deadLetters(CONSOLIDATION_JOB), []);
    assert.ok(await stores.memory.processedFacts('t', u.id), 'consolidated');
    assert.equal(embedder.runs.get(text), 1, 'embedded for consolidation, not again for affect');
    const evidence = (await stores.memory.listPersona('t', ana.id)).filter((n) => n.kind === 'affect');
    assert.deepEqual(evidence.map((n) => [n.label, n.target]), [['joy', 'new job']], 'affect ran on this embedder\'s vectors');
  });
});

const redisSkip = await redisSkipReason();

for (const queue of ['embedded', 'redis'] as const) {
  describe(`around consolidation: its later steps inline, a durable job of their own when they fail, kept extractions bounded (${queue === 'embedded' ? 'SQLite queue' : 'BullMQ'})`, {
    timeout: 300_000, skip: queue === 'redis' ? redisSkip : undefined,
  }, () => {
    const log = pino({ level: 'silent' });
    const outage = () => Object.assign(new Error('Neo4j (NEO4J_URI) unavailable during record'), { code: 'PARLEY_ERR_STORE_UNAVAILABLE' });
    const embedder = new UseLiteEmbedder();
    const prefix = `parley-afterstep-${process.pid}-${Date.now()}`;
    let n = 0;
    after(async () => {
      await embedder.close();
      if (queue === 'redis') await deleteKeys(prefix);
    });

    /** A data dir (and Redis prefix) of its own per test, so queues of one test never see another's jobs. */
    function deployment(): { config: StoreConfig & JobsConfig; remove: () => void } {
      const tmp = tempDir('parley-after-step-');
      n += 1;
      return {
        config: {
          dataDir: tmp.dir, queue, redisUrl: TEST_REDIS_URL, redisPrefix: `${prefix}-${n}`, vectorStore: 'sqlite', qdrantUrl: '',
          qdrantApiKey: null, graphStore: 'sqlite', neo4jUri: '', neo4jUser: '', neo4jPassword: '', neo4jDatabase: '',
          apiKeys: [], extractor: 'embedded', llmModel: '', openaiApiKey: null, openaiBaseUrl: '',
        },
        remove: tmp.remove,
      };
    }

    async function storeTurn(stores: Stores): Promise<string> {
      const ana = await stores.graph.createParticipant('t', { name: 'Ana' });
      await stores.graph.openSession('t', 's', '2026-12-01T10:00:00.000Z');
      const [u] = await stores.graph.addUtterances('t', [{ sessionId: 's', speakerId: ana.id, addresseeIds: [], text: 'I live in Porto.',
        startMs: null, endMs: null, time: '2026-12-01T10:01:00.000Z', confidence: null, audioRef: null }]);
      assert.ok(u);
      await stores.queue.enqueue(CONSOLIDATION_JOB, { tenant: 't', sessionId: 's', utteranceId: u.id }, { jobId: `consolidate-t-${u.id}` });
      return u.id;
    }

    async function until(what: string, done: () => Promise<boolean>): Promise<void> {
      const deadline = Date.now() + 60_000;
      while (!(await done())) {
        assert.ok(Date.now() < deadline, `timed out waiting until ${what}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    }

    test('steps that succeed run inside the consolidation job: one job per utterance', async () => {
      const { config, remove } = deployment();
      const stores = openStores(config, log);
      const enqueued: string[] = [];
      const enqueue = stores.queue.enqueue.bind(stores.queue);
      stores.queue.enqueue = (async (name: string, data: unknown, options?: { jobId?: string }) => {
        enqueued.push(name);
        return enqueue(name, data as never, options);
      }) as typeof stores.queue.enqueue;
      const done: { utteranceId: string; factIds: string[] }[] = [];
      try {
        await registerJobHandlers({
          config, stores, embedder, logger: log, publish: () => {},
          afterConsolidation: [async (j, factIds) => { done.push({ utteranceId: j.utteranceId, factIds }); }],
        });
        const id = await storeTurn(stores);
        await drainConsolidation(stores.queue, 120_000);
        const facts = await stores.memory.processedFacts('t', id);
        assert.ok(facts && facts.length > 0);
        assert.deepEqual(done, [{ utteranceId: id, factIds: facts }], 'the step ran once, with the facts');
        assert.deepEqual(enqueued, [CONSOLIDATION_JOB], 'no job of its own for the step');
      } finally {
        await stores.close(1000);
        remove();
      }
    });

    test('a store outage in a step holds no consolidation job; the step runs once when the store answers', async () => {
      const { config, remove } = deployment();
      const stores = openStores(config, log);
      let down = true;
      let tries = 0;
      const done: { utteranceId: string; factIds: string[] }[] = [];
      try {
        await registerJobHandlers({
          config, stores, embedder, logger: log, publish: () => {},
          afterConsolidation: [async (j, factIds) => {
            tries += 1;
            if (down) throw new Error('record failed', { cause: outage() });
            done.push({ utteranceId: j.utteranceId, factIds });
          }],
        });
        const id = await storeTurn(stores);
        // The consolidation job completes while the store the step needs is still down.
        await stores.queue.drain(CONSOLIDATION_JOB, 120_000);
        await until('the step waits on the outage', async () => (await stores.queue.stats(AFTER_CONSOLIDATION_JOB)).outageWaiting === 1);
        assert.ok(tries >= 1);
        down = false;
        await drainConsolidation(stores.queue, 120_000);
        const facts = await stores.memory.processedFacts('t', id);
        assert.ok(facts && facts.length > 0, 'the turn made a fact');
        assert.deepEqual(done, [{ utteranceId: id, factIds: facts }], 'the step ran to the end once, with the facts');
        assert.deepEqual(await stores.queue.deadLetters(AFTER_CONSOLIDATION_JOB), []);
        assert.deepEqual(await stores.queue.deadLetters(CONSOLIDATION_JOB), []);
      } finally {
        await stores.close(1000);
        remove();
      }
    });

    test('an extraction kept for a job that crashed and never ran again is dropped after PARLEY_KEPT_EXTRACTION_DAYS; a fresh one stays', async () => {
      const { config, remove } = deployment();
      const stores = openStores(config, log);
      try {
        await stores.memory.keepExtraction('t', 'u_crashed', '{"facts":[],"profileUpdates":[]}');
        await stores.memory.keepExtraction('t', 'u_running', '{"facts":[],"profileUpdates":[]}');
        // Kept eight days ago by a job that has not run since.
        stores.sqlite.prepare("UPDATE memory_extractions SET kept_at = ? WHERE utterance_id = 'u_crashed'")
          .run(new Date(Date.now() - 8 * 86_400_000).toISOString());
        await registerJobHandlers({ config: { ...config, keptExtractionDays: 7 }, stores, embedder, logger: log, publish: () => {} });
        await until('the old extraction is dropped', async () => (await stores.memory.keptExtraction('t', 'u_crashed')) === null);
        assert.ok(await stores.memory.keptExtraction('t', 'u_running'), 'an extraction younger than the bound stays');
      } finally {
        await stores.close(1000);
        remove();
      }
    });

    test('the step survives the process ending between the consolidation and the step, and runs once in the next', async () => {
      const { config, remove } = deployment();
      const first = openStores(config, log);
      let firstTries = 0;
      const done: string[] = [];
      let second: Stores | undefined;
      try {
        await registerJobHandlers({
          config, stores: first, embedder, logger: log, publish: () => {},
          afterConsolidation: [async () => {
            firstTries += 1;
            throw outage();
          }],
        });
        const id = await storeTurn(first);
        await first.queue.drain(CONSOLIDATION_JOB, 120_000);
        await until('the first process tried the step', async () => firstTries > 0);
        await first.close(1000);

        second = openStores(config, log);
        await registerJobHandlers({
          config, stores: second, embedder, logger: log, publish: () => {},
          afterConsolidation: [async (j) => { done.push(j.utteranceId); }],
        });
        await drainConsolidation(second.queue, 120_000);
        assert.deepEqual(done, [id], 'the next process ran the step, once');
        assert.deepEqual(await second.queue.deadLetters(AFTER_CONSOLIDATION_JOB), []);
      } finally {
        await first.close(1000).catch(() => undefined);
        await second?.close(1000);
        remove();
      }
    });
  });
}
