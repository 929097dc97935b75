import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Retriever } from '../../../pipelines/retrieval/retriever.js';
import type { MemoryScope } from '../../../pipelines/retrieval/context-scope.js';
import type { MemoryItem } from '../../../graph/core/events.js';
import { memoryFixture, type MemoryFixture } from '../../helpers/memory-fixture.js';

const T = 't_scope';
const TEXT = 'the red Trek mountain bike order';

/**
 * A scoped retrieval filters inside retrieval, before the top k: a tenant where another customer's memories outrank the
 * caller's on every list still pushes k of the caller's own, never fewer because the others took the places.
 */
describe('a scoped retrieval: only the people of the session, k of them', () => {
  let f: MemoryFixture;
  let retriever: Retriever;
  let scope: MemoryScope;
  const involves = (i: MemoryItem, id: string): boolean => [i.speaker, ...i.addressees].some((p) => p.id === id);

  before(async () => {
    f = await memoryFixture(T, ['Maria', 'Luis', 'Sam']);
    // Maria's call: many turns on the very words of the search.
    const maria = Array.from({ length: 12 }, (_, i) => ({
      speaker: 'Maria', addressees: ['Sam'], text: `My red Trek mountain bike order number ${i + 1} needs a carbon frame and red pedals.`,
      time: `2026-11-02T10:${String(i).padStart(2, '0')}:00Z`,
    }));
    await f.sayBatch('call-maria', [...maria,
      { speaker: 'Sam', addressees: [], text: 'The red Trek mountain bike order ships on Friday.', time: '2026-11-02T10:30:00Z' }]);
    await f.sayBatch('call-luis', [
      { speaker: 'Luis', addressees: ['Sam'], text: 'I want a bike bell for my commute.', time: '2026-11-03T10:00:00Z' },
      { speaker: 'Luis', addressees: ['Sam'], text: 'My order of a bike lock came yesterday.', time: '2026-11-03T10:01:00Z' },
      { speaker: 'Luis', addressees: ['Sam'], text: 'The mountain trail near my house is muddy.', time: '2026-11-03T10:02:00Z' },
      { speaker: 'Sam', addressees: [], text: 'Your red bike bell order is ready.', time: '2026-11-03T10:03:00Z' },
    ]);
    retriever = new Retriever(f, f.entities, f.embedder, { minPool: 1 });
    scope = { people: new Set([f.people.Luis!, f.people.Sam!]), agents: new Set([f.people.Sam!]), sessionId: 'call-luis' };
  });
  after(async () => {
    await f.close();
  });

  test('unscoped, Maria\'s order fills the top 3; scoped to Luis\'s call, 3 items of Luis\'s own', async () => {
    const all = await retriever.retrieve({ tenant: T, text: TEXT, k: 3 });
    assert.equal(all.items.length, 3);
    assert.ok(all.items.every((i) => i.session_id === 'call-maria'), `Maria's turns outrank Luis's (${JSON.stringify(all.items.map((i) => i.text))})`);

    const scoped = await retriever.retrieve({ tenant: T, text: TEXT, k: 3, scope });
    assert.equal(scoped.items.length, 3, `k items, not what was left of the top k (${JSON.stringify(scoped.items.map((i) => i.text))})`);
    assert.ok(scoped.items.every((i) => i.session_id === 'call-luis' && !involves(i, f.people.Maria!)));
  });

  test('an agent\'s words count only from this session: not the agent\'s unaddressed line in Maria\'s call', async () => {
    const scoped = await retriever.retrieve({ tenant: T, text: 'Sam said the red Trek bike order ships on Friday', k: 5, scope });
    assert.ok(!scoped.items.some((i) => /ships on Friday/.test(i.text)), JSON.stringify(scoped.items.map((i) => i.text)));
    const elsewhere = await retriever.retrieve({ tenant: T, text: 'Sam said the red Trek bike order ships on Friday', k: 5, scope: { ...scope, sessionId: 'call-maria' } });
    assert.ok(elsewhere.items.some((i) => /ships on Friday/.test(i.text)), 'said in the session itself, it counts');
  });
});
