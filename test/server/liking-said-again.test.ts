/**
 * A liking said again over HTTP (rules 35): "I'm back on coffee" after "I love coffee" and "For now I'm drinking decaf"
 * closes the value held for now and the stored copy of the liking it interrupted, so one liking of coffee is current,
 * the new one, and the question about now gets coffee.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import { drainConsolidation } from '../../pipelines/memory/after-consolidation.js';
import { FOR_NOW_PREFERENCE } from '../../pipelines/memory/temporary-slots.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { ParleyClient } from '../../clients/typescript/src/index.js';

describe('a liking said again: the for-now value and the old copy of the liking both replaced', () => {
  let t: TestApp;
  let api: ParleyClient;

  before(async () => {
    t = await startTestApp({}, true, pino({ level: 'silent' }), { now: () => Date.parse('2026-12-03T12:00:00.000Z') });
    api = new ParleyClient({ baseUrl: t.httpUrl });
    const say = async (session: string, text: string, time: string): Promise<void> => {
      await api.postUtterances(session, [{ speaker: 'Kofi', addressees: ['Ama'], text, time }]);
      await drainConsolidation(t.app.stores.queue, 60_000);
    };
    await say('october', 'I love coffee.', '2026-10-06T09:00:00.000Z');
    await say('november', "For now I'm drinking decaf.", '2026-11-10T09:00:00.000Z');
    await say('december', "I'm back on coffee.", '2026-12-01T10:00:00.000Z');
  });
  after(async () => {
    await t.close();
  });

  test('one current liking of coffee, the latest; no value held for now', async () => {
    const current = await api.memories({ limit: 100 });
    assert.deepEqual(current.filter((m) => m.slot === FOR_NOW_PREFERENCE), [], JSON.stringify(current));
    const coffee = current.filter((m) => m.slot === 'preference:coffee');
    assert.equal(coffee.length, 1, JSON.stringify(current));
    assert.match(coffee[0]!.text, /back on coffee/);
  });

  test('both replaced facts are closed by the liking said again', async () => {
    const all = await api.memories({ limit: 100, include_history: true });
    const again = all.find((m) => /back on coffee/.test(m.text));
    for (const old of [/loves coffee/, /drinking decaf/]) {
      const f = all.find((m) => old.test(m.text));
      assert.ok(f, JSON.stringify(all));
      assert.equal(f.valid_to, '2026-12-01T10:00:00.000Z', JSON.stringify(f));
      assert.equal(f.superseded_by, again?.id, JSON.stringify(f));
    }
  });
});
