/**
 * trial11 F6: "My wife Maria ordered the road bike", said by Luis, made Luis the buyer. A relation named beside its
 * person ("my wife Maria", "my brother Tom", "my colleague Ana") opening a sentence makes that person the subject of the
 * clause where they are a participant, and the relation is kept ("Maria is Luis's wife"); in a recogniser's lower-case
 * text a listed given name is read as the name too.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { EmbeddedExtractor } from '../../../pipelines/memory/embedded-extractor.js';
import { memoryFixture, type MemoryFixture } from '../../helpers/memory-fixture.js';

const TIME = '2026-11-23T10:00:00.000Z';

/** [kind, content, subject] of the facts the rules read from `text`, said by Luis (a) to Sam (b); `names` adds people. */
async function read(text: string, names: Record<string, string> = {}): Promise<string[][]> {
  const r = await new EmbeddedExtractor().extract({
    current: { id: 'u1', speakerId: 'a', addresseeIds: ['b'], text, time: TIME, sessionId: 's', confidence: null } as never,
    previous: [], names: { a: 'Luis', b: 'Sam', ...names },
  });
  return r.facts.map((f) => [f.kind, f.content, f.subjectId]).sort((x, y) => x[0]!.localeCompare(y[0]!));
}

const fixtures: MemoryFixture[] = [];
after(async () => {
  for (const f of fixtures) await f.close();
});

describe('a relation named beside its person opens the clause (trial11 F6)', () => {
  test('"My wife Maria ordered the road bike", Maria a participant: Maria ordered it, and she is Luis\'s wife', async () => {
    for (const text of ['My wife Maria ordered the road bike.', 'my wife maria ordered the road bike', 'Hi, my wife Maria ordered the road bike.',
      'My wife, Maria, ordered the road bike.']) {
      assert.deepEqual(await read(text, { m: 'Maria Lopez' }), [
        ['relation', "Maria is Luis's wife", 'a'],
        ['statement', 'Maria Lopez ordered the road bike', 'm'],
      ], text);
    }
    assert.deepEqual(await read('My colleague Ana booked the room for Friday.', { n: 'Ana' }), [
      ['relation', "Ana is Luis's colleague", 'a'],
      ['statement', 'Ana booked the room for Friday 27 November 2026', 'n'],
    ]);
  });

  test('a clause that names the speaker too, or a person no participant, stays the speaker\'s, relation kept', async () => {
    assert.deepEqual(await read('My wife Maria ordered the road bike for me.', { m: 'Maria' }), [
      ['relation', "Maria is Luis's wife", 'a'],
      ['statement', "Luis's wife Maria ordered the road bike for Luis", 'a'],
    ]);
    assert.deepEqual(await read('My wife Maria ordered the road bike.'), [
      ['relation', "Maria is Luis's wife", 'a'],
      ['statement', "Luis's wife Maria ordered the road bike", 'a'],
    ]);
  });

  test('in lower-case text a listed given name is a relation\'s name; a verb or a month is not', async () => {
    assert.deepEqual((await read('my wife maria ordered the road bike')).filter((f) => f[0] === 'relation'), [['relation', "Maria is Luis's wife", 'a']]);
    assert.deepEqual((await read('my boss is carla')), [['relation', "Carla is Luis's boss", 'a']]);
    for (const text of ['my brother will come tomorrow', 'my sister may come tomorrow', 'my friend said hello']) {
      assert.deepEqual((await read(text)).filter((f) => f[0] === 'relation'), [], text);
    }
  });

  test('through consolidation: "Hi, my wife Maria ordered…" said by Luis is about Maria, who called before', async () => {
    const f = await memoryFixture('t-apposition', ['Luis', 'Sam', 'Maria']);
    fixtures.push(f);
    await f.say('s1', 'Luis', [f.people.Sam!], 'Hi, my wife Maria ordered the road bike last week.', TIME);
    const facts = await f.memory.listFacts('t-apposition', {});
    const order = facts.find((x) => /road bike/.test(x.content));
    assert.equal(order?.content, 'Maria ordered the road bike in the week of Monday 16 November 2026');
    assert.equal(order?.subjectId, f.people.Maria);
    assert.equal(facts.find((x) => x.kind === 'relation')?.subjectId, f.people.Luis);
  });
});
