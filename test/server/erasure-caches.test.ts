import assert from 'node:assert/strict';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { pino } from 'pino';
import { SqliteEventBus } from '../../graph/sqlite/sqlite-event-bus.js';
import type { RecentEmbeddings } from '../../pipelines/embeddings/recent-embeddings.js';
import type { TextEmbedder } from '../../pipelines/embeddings/text-embedder.js';
import { registerJobHandlers } from '../../pipelines/jobs.js';
import { drainConsolidation } from '../../pipelines/memory/after-consolidation.js';
import { e5Channel } from '../../pipelines/retrieval/second-dense.js';
import { ParleyClient } from '../../clients/typescript/src/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

const T = 'default';

/** The app's own embedder, counting the texts it is asked to embed (a spy on the real model, not a double). */
function counting(inner: TextEmbedder): { embedder: TextEmbedder; calls: () => number } {
  let n = 0;
  return {
    embedder: { space: inner.space, embed: (texts) => { n += texts.length; return inner.embed(texts); }, close: async () => undefined },
    calls: () => n,
  };
}

describe('erasure clears what processes keep in memory of the person', () => {
  const apps: TestApp[] = [];
  after(async () => {
    for (const t of apps) await t.close();
  });

  test('in the server: recent questions and their memory texts, question vectors of both dense channels, schema vectors', async () => {
    const t = await startTestApp();
    apps.push(t);
    const api = new ParleyClient({ baseUrl: t.httpUrl });
    await api.postUtterances('caches', [{ speaker: 'Perpetua Glimwold', text: 'I grow saffron on my allotment in Haddersby.' }]);
    await drainConsolidation(t.app.stores.queue, 120_000);
    const id = (await api.interactions({ session_id: 'caches' }))[0]!.speaker.id;
    const spy = counting(t.app.models.textEmbedder);
    const channel = e5Channel(spy.embedder);
    t.app.retriever.secondDense = channel;
    await api.query({ question: 'What does Perpetua Glimwold grow in Haddersby?' });
    await channel.embedQuery('What does Perpetua Glimwold grow in Haddersby?');
    const embeddedOnce = spy.calls();
    await channel.embedQuery('What does Perpetua Glimwold grow in Haddersby?');
    assert.equal(spy.calls(), embeddedOnce, 'the second channel answers a repeated question from its cache');
    assert.ok(t.app.queryCoherence.held(T).queries > 0, 'the question was recorded for schema emergence');
    assert.ok(t.app.queryCoherence.held(T).texts > 0, 'with the texts it hit');
    assert.ok(t.app.retriever.cachedQuestionVectors > 0, 'its vector is cached');
    assert.ok(t.app.retriever.schemas.held(T) > 0, 'schema vectors are kept');

    await api.eraseParticipant(id);
    assert.deepEqual(t.app.queryCoherence.held(T), { queries: 0, texts: 0 });
    assert.equal(t.app.retriever.cachedQuestionVectors, 0);
    assert.equal(t.app.retriever.schemas.held(T), 0);
    await channel.embedQuery('What does Perpetua Glimwold grow in Haddersby?');
    assert.equal(spy.calls(), embeddedOnce + 1, 'the second channel embeds the question again: its cache was cleared');
  });

  test('in a worker process on the same file: the turn texts it keeps for running jobs, told over the event bus', async () => {
    const t = await startTestApp({ PARLEY_RUN_JOBS: 'false' });
    apps.push(t);
    // The worker's side, as `npm run worker` opens it: its own handle on the file's bus, handlers on the shared queue.
    const bus = SqliteEventBus.open(path.join(t.config.dataDir, 'parley.db'), { logger: pino({ level: 'silent' }), role: 'worker' });
    let kept: RecentEmbeddings | undefined;
    try {
      await registerJobHandlers({
        config: t.config, stores: t.app.stores, embedder: t.app.models.textEmbedder, logger: pino({ level: 'silent' }),
        publish: () => undefined, events: bus, onTurnEmbeddings: (k) => { kept = k; },
      });
      const api = new ParleyClient({ baseUrl: t.httpUrl });
      await api.postUtterances('worker-caches', [{ speaker: 'Ottoline Brask', text: 'I keep a tame raven called Morcant.' }]);
      await drainConsolidation(t.app.stores.queue, 120_000);
      assert.ok(kept && kept.size > 0, 'the worker kept the turn text it embedded');
      const id = (await api.interactions({ session_id: 'worker-caches' }))[0]!.speaker.id;
      await api.eraseParticipant(id);
      // Delivery over the bus is asynchronous (the worker's handle polls the file): wait for it, with a generous bound.
      for (let waited = 0; kept.size > 0 && waited < 60_000; waited += 100) await sleep(100);
      assert.equal(kept.size, 0, 'the worker forgot the texts on participant.erased');
    } finally {
      await bus.close();
    }
  });
});
