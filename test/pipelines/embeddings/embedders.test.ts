import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { UseLiteEmbedder } from '../../../pipelines/embeddings/use-lite-embedder.js';
import { OpenAiEmbedder } from '../../../pipelines/embeddings/openai-embedder.js';
import { cosine } from '../../../pipelines/embeddings/text-embedder.js';
import { startOpenAiDouble, type OpenAiDouble } from '../../doubles/openai-double.js';

describe('USE-lite embedder (real model in a worker thread)', () => {
  const embedder = new UseLiteEmbedder({ maxBatch: 4 });
  after(() => embedder.close());

  test('paraphrases are closer than unrelated sentences; 512-d unit vectors', async () => {
    const [a, b, c] = await embedder.embed(['I love eating sushi', 'Sushi is my favourite food', 'The train to Porto leaves at noon']);
    assert.ok(a && b && c);
    assert.equal(a.length, 512);
    assert.ok(Math.abs(cosine(a, a) - 1) < 1e-5);
    assert.ok(cosine(a, b) > cosine(a, c) + 0.2, `paraphrase ${cosine(a, b)} vs unrelated ${cosine(a, c)}`);
  });

  test('concurrent calls are batched and each gets its own vectors in order', async () => {
    const texts = ['one cat', 'two dogs', 'three birds', 'four fish', 'five cows', 'six goats'];
    const singles = await Promise.all(texts.map((t) => embedder.embed([t])));
    const together = await embedder.embed(texts);
    singles.forEach(([v], i) => assert.ok(v && cosine(v, together[i] as Float32Array) > 0.999, `text ${i}`));
  });
});

test('a closed USE-lite embedder refuses work instead of starting a new worker', async () => {
  const embedder = new UseLiteEmbedder();
  await embedder.close();
  await assert.rejects(embedder.embed(['too late']), { code: 'PARLEY_ERR_SHUTTING_DOWN' });
  await assert.rejects(embedder.start(), { code: 'PARLEY_ERR_SHUTTING_DOWN' });
});

describe('OpenAI-compatible embedder (against the test double)', () => {
  let double: OpenAiDouble;
  before(async () => (double = await startOpenAiDouble({ dimension: 32 })));
  after(() => double.close());

  test('batches, keeps order and checks the dimension', async () => {
    const e = new OpenAiEmbedder({ baseURL: double.baseURL, apiKey: 'k', model: 'm', dimension: 32, maxBatch: 2 });
    const v = await e.embed(['red apple', 'blue sky', 'red apple']);
    assert.equal(v.length, 3);
    assert.ok(cosine(v[0] as Float32Array, v[2] as Float32Array) > 0.999);
    assert.equal(double.requests.filter((r) => r.path.endsWith('/embeddings')).length, 2);
    const wrong = new OpenAiEmbedder({ baseURL: double.baseURL, apiKey: 'k', model: 'm', dimension: 16 });
    await assert.rejects(wrong.embed(['x']), { code: 'PARLEY_ERR_EMBEDDING_MISMATCH' });
  });
});
