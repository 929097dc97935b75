import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { drainConsolidation } from '../../pipelines/memory/after-consolidation.js';
import type { MemoryItem } from '../../graph/core/events.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { NEO4J_SKIP } from '../helpers/stores.js';
import { ParleyClient, type Memory } from '../../clients/typescript/src/index.js';

describe('a temporary state that has ended: not current anywhere, what it interrupted holds again', () => {
  let t: TestApp;
  let api: ParleyClient;
  const ask = async (question: string): Promise<MemoryItem[]> => (await api.query({ question })).evidence as MemoryItem[];
  const shown = (items: MemoryItem[]): string => JSON.stringify(items.map((i) => [i.layer, i.text, i.superseded]));
  const memories = async (): Promise<Memory[]> => api.memories({ limit: 100, include_history: true });

  before(async () => {
    t = await startTestApp();
    api = new ParleyClient({ baseUrl: t.httpUrl });
    await api.postUtterances('ana-1', [{ speaker: 'Ana', addressees: ['Ben'], text: 'I live in Berkeley.', time: '2026-05-01T10:00:00Z' }]);
    await drainConsolidation(t.app.stores.queue, 60_000);
    await api.postUtterances('ana-2', [{ speaker: 'Ana', addressees: ['Ben'], text: "I'm living in Lisbon for a month.", time: '2026-06-01T10:00:00Z' }]);
    await drainConsolidation(t.app.stores.queue, 60_000);
  });
  after(async () => {
    await t.close();
  });

  test('the stay carries its end; the home it interrupted is not closed by it', async () => {
    const all = await memories();
    const lisbon = all.find((m) => /Lisbon/.test(m.text));
    const berkeley = all.find((m) => /Berkeley/.test(m.text));
    assert.ok(lisbon && berkeley, JSON.stringify(all));
    assert.equal(lisbon.valid_until, '2026-07-01T10:00:00.000Z');
    assert.equal(berkeley.valid_to, null, JSON.stringify(berkeley));
  });

  test('the derived attribute is the home again once the stay has ended', async () => {
    const ana = await api.participant('Ana');
    assert.equal(ana.attributes.lives_in, 'Berkeley', JSON.stringify(ana.attributes));
  });

  test('"where does Ana live now?": Berkeley current, the ended stay not served as current', async () => {
    const evidence = await ask('Where does Ana live now?');
    assert.ok(evidence.some((i) => /Berkeley/.test(i.text) && !i.superseded), shown(evidence));
    assert.ok(evidence.every((i) => !/Lisbon/.test(i.text) || i.superseded), shown(evidence));
  });

  test('"where was Ana staying in June?" still finds the stay, marked past', async () => {
    const evidence = await ask('Where was Ana staying in June?');
    const stay = evidence.filter((i) => /Lisbon/.test(i.text));
    assert.ok(stay.length > 0, shown(evidence));
    for (const i of stay) assert.equal(i.superseded, true, shown(evidence));
  });

  test('a lasting move after the stay replaces the home it had interrupted too', async () => {
    await api.postUtterances('ana-3', [{ speaker: 'Ana', addressees: ['Ben'], text: 'I moved to Porto.', time: '2026-08-01T10:00:00Z' }]);
    await drainConsolidation(t.app.stores.queue, 60_000);
    const current = await api.memories({ limit: 100 });
    assert.deepEqual(current.filter((m) => m.slot === 'lives_in' && !m.valid_until).map((m) => m.value), ['Porto'], JSON.stringify(current));
    assert.equal((await api.participant('Ana')).attributes.lives_in, 'Porto');
  });
});

/**
 * Over the real server, its clock moved on with nothing run in between (no job, no new turn), against each graph store (a
 * networked one keeps its data: a tenant per run): the participant read is what holds at the clock.
 */
function endsSuite(label: string, env: Record<string, string>, skip?: string): void {
  describe(`a stay ending makes the home current with no sweep having run, clock moved on (${label})`, { skip }, () => {
    const key = `expiry-key-${process.pid}-${Date.now()}`;
    let t: TestApp;
    let api: ParleyClient;
    let clock = Date.now();
    const day = 86_400_000;
    const iso = (ms: number): string => new Date(ms).toISOString();
    const attributes = async (name: string): Promise<Record<string, unknown>> => (await api.participant(name)).attributes;

    before(async () => {
      t = await startTestApp({ ...env, PARLEY_API_KEYS: `${key}:expiry${process.pid}x${Date.now()}` }, true, undefined, { now: () => clock });
      api = new ParleyClient({ baseUrl: t.httpUrl, apiKey: key });
      await api.postUtterances('mia-1', [{ speaker: 'Mia', addressees: ['Ravi'], text: 'I live in Porto.', time: iso(clock - 10 * day) }]);
      await drainConsolidation(t.app.stores.queue, 60_000);
      await api.postUtterances('mia-2', [
        { speaker: 'Mia', addressees: ['Ravi'], text: "I'm living in Madrid for two weeks.", time: iso(clock - day) },
        { speaker: 'Ravi', addressees: ['Mia'], text: "I'm living in Oslo for a month.", time: iso(clock - day) },
      ]);
      await drainConsolidation(t.app.stores.queue, 60_000);
    });
    after(async () => {
      await t.close();
    });

    test('while the stays last they are the attribute', async () => {
      assert.equal((await attributes('Mia')).lives_in, 'Madrid');
      assert.equal((await attributes('Ravi')).lives_in, 'Oslo');
    });

    test('two weeks on, Mia lives in Porto again; Ravi is still in Oslo', async () => {
      const tenant = t.app.tenantForKey(key) ?? '';
      const stored = await t.app.stores.graph.listParticipants(tenant, { limit: 10 });
      clock += 14 * day;
      assert.deepEqual(await t.app.stores.graph.listParticipants(tenant, { limit: 10 }), stored, 'nothing was written');
      assert.equal((await attributes('Mia')).lives_in, 'Porto');
      assert.equal((await attributes('Ravi')).lives_in, 'Oslo');
      assert.equal((await api.participants()).find((p) => p.name === 'Mia')?.attributes.lives_in, 'Porto', 'the list reads the same');
      const home = (await api.memories({ limit: 100 })).find((m) => m.value === 'Porto');
      assert.equal(home?.valid_to, null, 'the home was never closed');
    });

    test('over a month on, Ravi has no lives_in: nothing else was said', async () => {
      clock += 20 * day;
      const ravi = await attributes('Ravi');
      assert.equal(ravi.lives_in, undefined, JSON.stringify(ravi));
      assert.equal((await attributes('Mia')).lives_in, 'Porto');
    });
  });
}

endsSuite('embedded SQLite', {});
endsSuite('Neo4j', {
  PARLEY_GRAPH_STORE: 'neo4j', NEO4J_URI: process.env.NEO4J_URI ?? '', NEO4J_USER: process.env.NEO4J_USER ?? 'neo4j',
  NEO4J_PASSWORD: process.env.NEO4J_PASSWORD ?? '', ...(process.env.NEO4J_DATABASE ? { NEO4J_DATABASE: process.env.NEO4J_DATABASE } : {}),
}, NEO4J_SKIP);
