/**
 * A stay said ahead over HTTP (rules 30): "next month I'm in Tokyo for two weeks" becomes the participant's `staying_in`
 * when it begins and stops being it when it ends, read at the app's clock, with nothing run in between.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startClockedApp, type ClockedApp } from '../helpers/clocked-app.js';

describe('a stay said ahead: the participant\'s staying_in from its start to its end, with the clock moved', () => {
  let c: ClockedApp;

  before(async () => {
    c = await startClockedApp('2026-12-01T12:05:00.000Z');
    await c.say('home', [{ speaker: 'Sol', addressees: ['Ana'], text: 'I live in Lisbon.', time: '2026-11-02T10:00:00.000Z' }]);
    await c.say('trip', [
      { speaker: 'Sol', addressees: ['Ana'], text: "Next month I'm in Tokyo for two weeks.", time: '2026-12-01T12:00:00.000Z' },
      { speaker: 'Ana', addressees: ['Sol'], text: 'Lucky you!', time: '2026-12-01T12:00:30.000Z' },
    ]);
  });
  after(async () => {
    await c.close();
  });

  test('stored: the plan, and the stay with valid_from its start and valid_until its end', async () => {
    const all = await c.api.memories({ limit: 100 });
    const tokyo = all.find((m) => m.slot === 'staying_in' && m.value === 'Tokyo');
    assert.equal(tokyo?.valid_from, '2027-01-01T00:00:00.000Z', JSON.stringify(all));
    assert.equal(tokyo?.valid_until, '2027-01-15T00:00:00.000Z');
    assert.ok(all.some((m) => m.text === 'Sol will be in Tokyo'), JSON.stringify(all.map((m) => m.text)));
  });

  test('staying_in: none when said, Tokyo from 1 January, none from 15 January; the home throughout', async () => {
    const at = (iso: string): Promise<Record<string, unknown>> => c.attributesAt('Sol', iso);
    assert.equal((await at('2026-12-01T12:05:00.000Z')).staying_in, undefined);
    assert.equal((await at('2026-12-31T23:00:00.000Z')).staying_in, undefined);
    const during = await at('2027-01-05T00:00:00.000Z');
    assert.equal(during.staying_in, 'Tokyo');
    assert.equal(during.lives_in, 'Lisbon');
    const afterwards = await at('2027-01-15T00:00:00.000Z');
    assert.equal(afterwards.staying_in, undefined);
    assert.equal(afterwards.lives_in, 'Lisbon');
  });
});
