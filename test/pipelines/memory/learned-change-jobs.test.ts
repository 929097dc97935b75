import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import { openStores, type StoreConfig } from '../../../graph/open-stores.js';
import type { Stores } from '../../../graph/stores.js';
import { ONNX_TEXT_MODELS, OnnxTextEmbedder } from '../../../pipelines/embeddings/onnx-text-embedder.js';
import { textModelInstalled } from '../../../pipelines/embeddings/text-embedder-choice.js';
import { UseLiteEmbedder } from '../../../pipelines/embeddings/use-lite-embedder.js';
import { registerJobHandlers, type JobsConfig } from '../../../pipelines/jobs.js';
import { CONSOLIDATION_JOB } from '../../../pipelines/memory/consolidate.js';
import { modelsDir } from '../../../pipelines/models/repo-root.js';
import { tempDir } from '../../helpers/temp-dir.js';

const BGE = ONNX_TEXT_MODELS['bge-small-en-v1.5-q'];
const bgeSkip = textModelInstalled(modelsDir(), BGE.name) ? undefined : `${BGE.name} is not installed in ${modelsDir()}`;

/**
 * Changes of mind in words the rules were never written for (closures-14, development data of the shipped change model):
 * the rules alone add the second statement beside the first; the learned change model replaces the first.
 */
const CHANGES: [string, string, string][] = [
  ['Ruth', "I'm vegan, have been for about two years.", "I've started eating fish again, my doctor said my iron was through the floor."],
  ['Ellie', "My favourite band is Arctic Monkeys, I've seen them six times.", "Honestly I've gone right off Arctic Monkeys, it's all Fontaines D.C. for me now."],
  ['Gethin', 'I live on a narrowboat on the Kennet and Avon canal.', "Sold the boat in the end, I'm in a proper house in Devizes now, central heating and everything."],
];

type Logged = { msg: string; embedder?: string };

/** Stores and job handlers as the server registers them, with `PARLEY_CHANGE_CLASSIFIER` as given; log lines kept. */
async function deployment(changeClassifier: boolean, embedder = new OnnxTextEmbedder({ spec: BGE, modelsDir: modelsDir() })) {
  const tmp = tempDir('parley-learned-change-');
  const config: StoreConfig & JobsConfig = {
    dataDir: tmp.dir, queue: 'embedded', redisUrl: '', redisPrefix: 'parley', vectorStore: 'sqlite', qdrantUrl: '', qdrantApiKey: null,
    graphStore: 'sqlite', neo4jUri: '', neo4jUser: '', neo4jPassword: '', neo4jDatabase: '',
    apiKeys: [], extractor: 'embedded', llmModel: '', openaiApiKey: null, openaiBaseUrl: '', changeClassifier,
  };
  const lines: Logged[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => { lines.push(JSON.parse(line) as Logged); } });
  const stores: Stores = openStores(config, pino({ level: 'silent' }));
  await registerJobHandlers({ config, stores, embedder, logger, publish: () => {} });
  const say = async (tenant: string, who: string, session: string, time: string, text: string): Promise<string> => {
    await stores.graph.openSession(tenant, session, time);
    const [u] = await stores.graph.addUtterances(tenant, [{ sessionId: session, speakerId: who, addresseeIds: [], text,
      startMs: null, endMs: null, time, confidence: null, audioRef: null }]);
    await stores.queue.enqueue(CONSOLIDATION_JOB, { tenant, sessionId: session, utteranceId: u!.id }, { attempts: 1 });
    await stores.queue.drain(CONSOLIDATION_JOB, 120_000);
    assert.deepEqual(await stores.queue.deadLetters(CONSOLIDATION_JOB), []);
    return u!.id;
  };
  /** Whether the facts of the first statement are still current after the second, per pair. */
  const stillOpen = async (): Promise<boolean[]> => Promise.all(CHANGES.map(async ([name, first, second], i) => {
    const tenant = `t${i}`;
    const person = (await stores.graph.createParticipant(tenant, { name })).id;
    const a = await say(tenant, person, 's1', '2026-10-01T10:00:00.000Z', first);
    await say(tenant, person, 's2', '2026-11-01T10:00:00.000Z', second);
    const facts = await stores.memory.listFacts(tenant, { ids: (await stores.memory.processedFacts(tenant, a)) ?? [], includeHistory: true });
    assert.ok(facts.length > 0, `the first statement of ${name} gave a fact`);
    return facts.every((f) => f.validTo === null);
  }));
  return {
    lines, stillOpen, say, stores,
    async close() {
      await stores.close();
      await embedder.close();
      tmp.remove();
    },
  };
}

describe('PARLEY_CHANGE_CLASSIFIER: the learned change model after the rules, as the server registers consolidation', { timeout: 600_000, skip: bgeSkip }, () => {
  let on: Awaited<ReturnType<typeof deployment>>;
  let off: Awaited<ReturnType<typeof deployment>>;
  before(async () => {
    on = await deployment(true);
    off = await deployment(false);
  });
  after(async () => {
    await on?.close();
    await off?.close();
  });

  test('on: changes of mind the rules miss close the earlier fact; off: the rules alone leave it current', async () => {
    assert.deepEqual(await off.stillOpen(), [true, true, true], 'the rules alone add beside the earlier fact');
    assert.deepEqual(await on.stillOpen(), [false, false, false], 'the model replaces it');
    assert.ok(on.lines.some((l) => l.msg === 'changes of mind: rules, then the learned change model'), 'the server says what decides');
    assert.ok(!off.lines.some((l) => /learned change model/.test(l.msg)));
  });

  test('on: two facts of one turn stay side by side', async () => {
    const person = (await on.stores.graph.createParticipant('both', { name: 'Lena' })).id;
    const u = await on.say('both', person, 's1', '2026-10-01T10:00:00.000Z', 'I love hiking. I also really love rock climbing.');
    const facts = await on.stores.memory.listFacts('both', { ids: (await on.stores.memory.processedFacts('both', u)) ?? [], includeHistory: true });
    assert.ok(facts.length >= 2, JSON.stringify(facts.map((f) => f.content)));
    assert.deepEqual(facts.filter((f) => f.validTo !== null).map((f) => f.content), [], 'no fact of the turn closed by its sibling');
  });

  test('on, under an embedder no model was trained for: the rules decide alone, and the log says so', async () => {
    const useLite = await deployment(true, new UseLiteEmbedder() as unknown as OnnxTextEmbedder);
    try {
      const warned = useLite.lines.find((l) => /no change model was trained for this text embedder/.test(l.msg));
      assert.equal(warned?.embedder, 'use-lite-en-0.2');
      assert.deepEqual(await useLite.stillOpen(), [true, true, true]);
    } finally {
      await useLite.close();
    }
  });
});
