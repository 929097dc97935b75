import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { drainConsolidation } from '../../pipelines/memory/after-consolidation.js';
import type { MemoryItem } from '../../graph/core/events.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { ParleyClient } from '../../clients/typescript/src/index.js';

const DAY = 86_400_000;
const ago = (days: number): string => new Date(Date.now() - days * DAY).toISOString();

describe('a stay beside a home: where the person is now first while it holds, the home for where they live', () => {
  let t: TestApp;
  let api: ParleyClient;
  const ask = async (question: string): Promise<MemoryItem[]> => (await api.query({ question })).evidence as MemoryItem[];
  const shown = (items: MemoryItem[]): string => JSON.stringify(items.map((i) => [i.layer, i.text, i.superseded]));
  /** The current items naming one of `places`, best first, as the place each names. */
  const places = (items: MemoryItem[], ...names: string[]): string[] =>
    items.filter((i) => !i.superseded).flatMap((i) => names.filter((n) => i.text.includes(n)).slice(0, 1));

  before(async () => {
    t = await startTestApp();
    api = new ParleyClient({ baseUrl: t.httpUrl });
    await api.postUtterances('home', [
      { speaker: 'Lena', addressees: ['Ben'], text: 'I live in Denver.', time: ago(40) },
      { speaker: 'Ravi', addressees: ['Ben'], text: 'I live in Oslo.', time: ago(40) },
    ]);
    await drainConsolidation(t.app.stores.queue, 60_000);
    await api.postUtterances('away', [
      { speaker: 'Lena', addressees: ['Ben'], text: "I'm staying in Madrid for two weeks.", time: ago(2) },
      { speaker: 'Ravi', addressees: ['Ben'], text: "I'll be in Rome for a week.", time: ago(20) },
    ]);
    await drainConsolidation(t.app.stores.queue, 60_000);
  });
  after(async () => {
    await t.close();
  });

  test('the stay is a staying_in memory with its end; the home stays open and stays lives_in', async () => {
    const all = await api.memories({ limit: 100, include_history: true });
    const madrid = all.find((m) => m.slot === 'staying_in' && m.value === 'Madrid');
    assert.ok(madrid?.valid_until, JSON.stringify(all));
    const denver = all.find((m) => m.slot === 'lives_in' && m.value === 'Denver');
    assert.equal(denver?.valid_to, null, JSON.stringify(all));
    const lena = await api.participant('Lena');
    assert.equal(lena.attributes.lives_in, 'Denver');
    assert.equal(lena.attributes.staying_in, 'Madrid');
  });

  test('"where is Lena now?" and "where is Lena staying?": Madrid before Denver', async () => {
    for (const q of ['Where is Lena now?', 'Where is Lena staying?']) {
      const evidence = await ask(q);
      assert.equal(places(evidence, 'Madrid', 'Denver')[0], 'Madrid', `${q} ${shown(evidence)}`);
    }
  });

  test('"where does Lena live?": Denver before Madrid', async () => {
    const evidence = await ask('Where does Lena live?');
    assert.equal(places(evidence, 'Madrid', 'Denver')[0], 'Denver', shown(evidence));
  });

  test('a stay that has ended, nothing said since: "where is Ravi now?" is the home, the stay not current', async () => {
    const evidence = await ask('Where is Ravi now?');
    assert.deepEqual(places(evidence, 'Rome', 'Oslo'), ['Oslo'], shown(evidence));
    assert.equal((await api.participant('Ravi')).attributes.lives_in, 'Oslo');
  });
});
