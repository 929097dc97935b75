import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { drainConsolidation } from '../../pipelines/memory/after-consolidation.js';
import { stateEnd } from '../../pipelines/memory/state-end.js';
import type { MemoryItem } from '../../graph/core/events.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { ParleyClient, type Memory } from '../../clients/typescript/src/index.js';

describe('stateEnd: the end a temporary state carries by its own words', () => {
  const monday = '2026-03-02T10:00:00.000Z';
  test('durations run from the utterance time', () => {
    assert.equal(stateEnd("I hurt my back, so I can't lift heavy things for a month.", monday), '2026-04-02T10:00:00.000Z');
    assert.equal(stateEnd("I'm staying with my sister for two weeks.", monday), '2026-03-16T10:00:00.000Z');
    assert.equal(stateEnd("I'm on antibiotics for the next few days.", monday), '2026-03-05T10:00:00.000Z', '"few" read as 3 days');
  });
  test('"until <day>" holds through that day; "this week" to next Monday, for a present state only', () => {
    assert.equal(stateEnd("I'm off work until Friday.", monday), '2026-03-07T00:00:00.000Z');
    assert.equal(stateEnd('My car is in the shop until the end of the month.', monday), '2026-04-01T00:00:00.000Z');
    assert.equal(stateEnd("I'm working from home this week.", '2026-03-04T15:00:00.000Z'), '2026-03-09T00:00:00.000Z');
    assert.equal(stateEnd("I'll send the list this week.", monday), null, 'a plan, not a state');
  });
  test('no end without one in the words', () => {
    assert.equal(stateEnd('I moved to Berkeley last month.', monday), null);
    assert.equal(stateEnd("I'll build the raised beds next week.", monday), null);
    assert.equal(stateEnd('I teach chemistry.', monday), null);
  });
});

describe('temporary states over the real pipeline: stored with their end, served as past after it', () => {
  let t: TestApp;
  let api: ParleyClient;
  const ask = async (question: string): Promise<MemoryItem[]> => (await api.query({ question })).evidence as MemoryItem[];
  const memories = async (): Promise<Memory[]> => api.memories({ limit: 100 });
  const memory = async (pattern: RegExp): Promise<Memory> => {
    const all = await memories();
    const m = all.find((x) => pattern.test(x.text));
    assert.ok(m, `${pattern} in ${JSON.stringify(all.map((x) => x.text))}`);
    return m;
  };
  // Mia's month is not over yet: said yesterday.
  const yesterday = new Date(Date.now() - 86_400_000).toISOString();

  before(async () => {
    t = await startTestApp();
    api = new ParleyClient({ baseUrl: t.httpUrl });
    await api.postUtterances('garden', [
      { speaker: 'Tom', addressees: ['Lena'], text: "I hurt my back, so I can't lift heavy things for a month.", time: '2026-03-02T10:00:00Z' },
      { speaker: 'Lena', addressees: ['Tom'], text: "I'm off work until Friday.", time: '2026-03-02T10:01:00Z' },
      { speaker: 'Tom', addressees: ['Lena'], text: "I'm staying with my sister in Oakland for two weeks.", time: '2026-03-02T10:02:00Z' },
      { speaker: 'Lena', addressees: ['Tom'], text: "I'm on antibiotics for the next few days.", time: '2026-03-02T10:03:00Z' },
      { speaker: 'Tom', addressees: ['Lena'], text: "I'm working from home this week.", time: '2026-03-04T15:00:00Z' },
    ]);
    await api.postUtterances('garage', [
      { speaker: 'Mia', addressees: ['Ravi'], text: "I broke my wrist, so I can't drive my car for a month.", time: yesterday },
    ]);
    await drainConsolidation(t.app.stores.queue, 60_000);
  });
  after(async () => {
    await t.close();
  });

  test('"for a month": valid_until is valid_from + 1 month; the fact stays open (valid_to null)', async () => {
    const m = await memory(/lift heavy things/);
    assert.equal(m.valid_from, '2026-03-02T10:00:00.000Z');
    assert.equal(m.valid_until, '2026-04-02T10:00:00.000Z');
    assert.equal(m.valid_to, null);
  });

  test('"until Friday", "for two weeks", "for the next few days", "this week" carry their ends', async () => {
    assert.equal((await memory(/off work/)).valid_until, '2026-03-07T00:00:00.000Z');
    assert.equal((await memory(/sister/)).valid_until, '2026-03-16T10:02:00.000Z');
    assert.equal((await memory(/antibiotics/)).valid_until, '2026-03-05T10:03:00.000Z');
    assert.equal((await memory(/working from home/)).valid_until, '2026-03-09T00:00:00.000Z');
  });

  test('"Can Tom lift things now?" after the month: the ended state is not served as current', async () => {
    const evidence = await ask('Can Tom lift heavy things now?');
    assert.ok(evidence.every((i) => !/lift heavy/.test(i.text)), JSON.stringify(evidence.map((i) => [i.text, i.superseded])));
  });

  test('with no temporal cue the ended state is served marked past, valid_to = its end', async () => {
    const evidence = await ask('Can Tom lift heavy things?');
    const lifted = evidence.filter((i) => /lift heavy/.test(i.text));
    assert.ok(lifted.length > 0, JSON.stringify(evidence.map((i) => i.text)));
    for (const i of lifted) {
      assert.equal(i.superseded, true, `${i.layer} "${i.text}" is marked past`);
      assert.equal(i.valid_to, '2026-04-02T10:00:00.000Z');
    }
  });

  test('a state whose end lies ahead is current: served for "now", with its end as valid_to', async () => {
    const evidence = await ask('Can Mia drive her car now?');
    const wrist = evidence.find((i) => i.layer === 'fact' && /drive/.test(i.text));
    assert.ok(wrist, JSON.stringify(evidence.map((i) => i.text)));
    assert.equal(wrist.superseded, false);
    assert.equal(wrist.valid_to, new Date(new Date(yesterday).setUTCMonth(new Date(yesterday).getUTCMonth() + 1)).toISOString());
  });

  test('live retrieval (memory.context) marks the ended state and its turn as past', async () => {
    const r = await t.app.retriever.retrieve({ tenant: 'default', text: 'Tom, can you lift the heavy bags of soil?', k: 10 });
    const lifted = r.items.filter((i) => /lift heavy/.test(i.text));
    assert.ok(lifted.length > 0, JSON.stringify(r.items.map((i) => i.text)));
    for (const i of lifted) assert.equal(i.superseded, true, `${i.layer} "${i.text}"`);
  });
});
