import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import { createLeftBrainHandler } from '../../../pipelines/retrieval/left-brain-job.js';
import { memoryFixture, type MemoryFixture } from '../../helpers/memory-fixture.js';

/**
 * The left brain links a turn's entities weakly to those of the turns just before it in the session.
 * A session handed in as one batch must get the same links as one stored turn by turn: the window is
 * the turns before this one by sequence, not the session's newest turns.
 */
describe('left-brain session window', () => {
  const lines = [
    'We finally booked the cabin at Lake Tahoe for March.',
    'My brother Marco is driving up from Sacramento.',
    'The ski rental shop opens at eight.',
    'I still need new goggles before the trip.',
    'Dinner on Saturday is at the Ridge Tavern.',
    'The snow report says two feet of powder.',
    'Parking passes are in the glove box.',
    'We should leave by six to beat the traffic.',
  ];
  let batch: MemoryFixture;
  let oneByOne: MemoryFixture;
  before(async () => {
    batch = await memoryFixture('t', ['Ana', 'Ben']);
    oneByOne = await memoryFixture('t', ['Ana', 'Ben']);
    const timed = lines.map((text, i) => ({ speaker: i % 2 ? 'Ben' : 'Ana', addressees: [i % 2 ? 'Ana' : 'Ben'], text, time: `2026-11-02T10:0${i}:00Z` }));
    await batch.sayBatch('s1', timed);
    for (const l of timed) await oneByOne.say('s1', l.speaker, l.addressees, l.text, l.time);
  });
  after(async () => {
    await batch?.close();
    await oneByOne?.close();
  });

  const weakNeighbours = async (fx: MemoryFixture, name: string): Promise<string[]> => {
    const [entity] = await fx.entities.findByNames('t', [name]);
    assert.ok(entity, `an entity for ${name}`);
    const near = (await fx.entities.neighbours('t', [entity.id], 50)).filter((n) => n.strength === 'weak');
    return (await fx.entities.getEntities('t', near.map((n) => n.neighbourId))).map((e) => e.key).sort();
  };

  test('an early turn of a batch links to the turn before it, as when turns arrive one by one', async () => {
    const linked = await weakNeighbours(batch, 'Marco');
    assert.ok(linked.some((k) => /tahoe|cabin/i.test(k)), `Marco is weakly linked to the cabin at Lake Tahoe: ${linked.join(', ')}`);
    assert.deepEqual(linked, await weakNeighbours(oneByOne, 'Marco'));
  });
});

describe('left-brain job run again', () => {
  let fx: MemoryFixture;
  before(async () => {
    fx = await memoryFixture('t', ['Ana', 'Ben']);
  });
  after(async () => fx?.close());

  test('a job run again for a turn (a crash before it completed) leaves every link weight as one run did', async () => {
    const u = await fx.say('s1', 'Ana', ['Ben'], 'My brother Marco booked the cabin at Lake Tahoe with Ben.', '2026-11-02T10:00:00Z');
    const [marco] = await fx.entities.findByNames('t', ['Marco']);
    assert.ok(marco);
    const links = async () => (await fx.entities.neighbours('t', [marco.id], 50)).map((n) => [n.neighbourId, n.strength, n.weight]);
    const once = await links();
    assert.ok(once.length > 0, 'Marco is linked');
    const leftBrain = createLeftBrainHandler({ graph: fx.graph, memory: fx.memory, vectors: fx.vectors, entities: fx.entities, embedder: fx.embedder,
      logger: pino({ level: 'silent' }) });
    const factIds = (await fx.memory.processedFacts('t', u.id)) ?? [];
    await leftBrain({ id: 'again', name: 'retrieval.left-brain', attempt: 2, data: { tenant: 't', utteranceId: u.id, factIds } }, new AbortController().signal);
    assert.deepEqual(await links(), once);
  });
});
