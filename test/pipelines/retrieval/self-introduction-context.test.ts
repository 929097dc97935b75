/**
 * "Sarah introduced themself" (now "The speaker's name is Sarah") took a place in the end-of-turn memories (`memory.context`) of a home-robot trial (fix9,
 * issue #16 F6): once the name is known it tells nothing, so the retriever behind `memory.context` serves it only to a
 * turn about names, as the memory layer of `POST /v1/query` already did (`namesAsked`).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Retriever } from '../../../pipelines/retrieval/retriever.js';
import { memoryFixture, type MemoryFixture } from '../../helpers/memory-fixture.js';

const T = 't-self-intro';

describe('a self-introduction in the end-of-turn memories', () => {
  let f: MemoryFixture;
  let retriever: Retriever;
  before(async () => {
    f = await memoryFixture(T, ['Sarah', 'Tom']);
    await f.say('s1', 'Sarah', ['Tom'], "Hi, I'm Sarah.", '2026-12-01T10:00:00Z');
    await f.say('s1', 'Sarah', ['Tom'], 'I love gardening at the weekend.', '2026-12-01T10:01:00Z');
    retriever = new Retriever(f, f.entities, f.embedder, { minPool: 1 });
  });
  after(async () => {
    await f.close();
  });

  const texts = async (text: string): Promise<string[]> =>
    (await retriever.retrieve({ tenant: T, text, k: 8, askerId: f.people.Sarah! })).items.map((i) => i.text);

  test('it is stored, and served for a turn about names only', async () => {
    const stored = (await f.memory.listFacts(T, {})).map((x) => x.content);
    assert.ok(stored.includes("The speaker's name is Sarah"), JSON.stringify(stored));
    for (const turn of ['Sarah, what do you like doing?', 'Tell me about Sarah.']) {
      assert.ok(!(await texts(turn)).some((t) => /speaker's name is/.test(t)), turn);
    }
    assert.ok((await texts("What is Sarah's name?")).some((t) => /The speaker's name is Sarah/.test(t)));
  });
});
