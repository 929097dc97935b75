/**
 * A preference held for now, over HTTP (rules 32): "For the moment I prefer sparkling water" said after "I prefer red
 * wine" is stored beside it, both current; a question about now gets the for-now preference first, with its cue in the
 * item's text, and a "usual" question the lasting one.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import { drainConsolidation } from '../../pipelines/memory/after-consolidation.js';
import { FOR_NOW_PREFERENCE } from '../../pipelines/memory/temporary-slots.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { ParleyClient } from '../../clients/typescript/src/index.js';

describe('a preference held for now: beside the lasting one, first when the present is asked', () => {
  let t: TestApp;
  let api: ParleyClient;

  before(async () => {
    t = await startTestApp({}, true, pino({ level: 'silent' }), { now: () => Date.parse('2026-12-03T12:00:00.000Z') });
    api = new ParleyClient({ baseUrl: t.httpUrl });
    await api.postUtterances('autumn', [{ speaker: 'Pat', addressees: ['Rae'], text: 'I prefer red wine.', time: '2026-10-06T09:00:00.000Z' }]);
    await drainConsolidation(t.app.stores.queue, 60_000);
    await api.postUtterances('december', [
      { speaker: 'Pat', addressees: ['Rae'], text: 'For the moment I prefer sparkling water.', time: '2026-12-01T10:00:00.000Z' },
      { speaker: 'Rae', addressees: ['Pat'], text: 'Good to know.', time: '2026-12-01T10:00:30.000Z' },
    ]);
    await drainConsolidation(t.app.stores.queue, 60_000);
  });
  after(async () => {
    await t.close();
  });

  test('stored: the for-now preference with no end, the lasting one still current', async () => {
    const all = await api.memories({ limit: 100 });
    const water = all.find((m) => m.slot === FOR_NOW_PREFERENCE);
    assert.equal(water?.value, 'sparkling water', JSON.stringify(all));
    assert.match(water?.text ?? '', /^For the moment Pat prefers sparkling water/);
    assert.equal(water?.valid_until ?? null, null);
    const wine = all.find((m) => m.slot === 'preference:red wine');
    assert.ok(wine, JSON.stringify(all));
    assert.equal(wine.valid_to, null, 'the lasting preference is not replaced');
  });

  test('"now" gets sparkling water first, "usually" red wine', async () => {
    const top = async (question: string): Promise<string> => (await api.query({ question })).evidence.find((i) => i.layer === 'fact')?.text ?? '';
    assert.match(await top('What does Pat prefer to drink now?'), /sparkling water/);
    assert.match(await top('What does Pat usually prefer to drink?'), /red wine/);
  });
});
