import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { memoryFixture, type MemoryFixture } from './memory-fixture.js';

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
