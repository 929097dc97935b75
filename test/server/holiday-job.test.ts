/**
 * A temporary value that ends by a holiday, over HTTP (rules 31): "I'm working as a barista for the holidays" is the
 * participant's occupation until the holidays end (2 January), and the lasting one ("I'm a teacher") shows again after,
 * read at the app's clock, with nothing run in between.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startClockedApp, type ClockedApp } from '../helpers/clocked-app.js';

describe('a job for the holidays: the occupation until they end, the lasting one after, with the clock moved', () => {
  let c: ClockedApp;

  before(async () => {
    c = await startClockedApp('2026-12-05T09:05:00.000Z');
    await c.say('autumn', [{ speaker: 'Ria', addressees: ['Sam'], text: "I'm a teacher.", time: '2026-10-05T09:00:00.000Z' }]);
    await c.say('december', [
      { speaker: 'Ria', addressees: ['Sam'], text: "I'm working as a barista for the holidays.", time: '2026-12-05T09:00:00.000Z' },
      { speaker: 'Sam', addressees: ['Ria'], text: 'Enjoy the holidays!', time: '2026-12-05T09:00:30.000Z' },
    ]);
  });
  after(async () => {
    await c.close();
  });

  test('stored: the holiday job with valid_until 2 January, the teacher kept open beside it', async () => {
    const all = await c.api.memories({ limit: 100 });
    const barista = all.find((m) => m.slot === 'occupation' && m.value === 'barista');
    assert.equal(barista?.valid_until, '2027-01-02T00:00:00.000Z', JSON.stringify(all));
    const teacher = all.find((m) => m.slot === 'occupation' && m.value === 'teacher');
    assert.ok(teacher, JSON.stringify(all));
    assert.equal(teacher.valid_until ?? null, null);
  });

  test('occupation: barista now and on 20 December, teacher again from 2 January', async () => {
    const at = (iso: string): Promise<Record<string, unknown>> => c.attributesAt('Ria', iso);
    assert.equal((await at('2026-12-05T09:05:00.000Z')).occupation, 'barista');
    assert.equal((await at('2026-12-20T00:00:00.000Z')).occupation, 'barista');
    assert.equal((await at('2027-01-02T00:00:00.000Z')).occupation, 'teacher');
    assert.equal((await at('2027-02-01T00:00:00.000Z')).occupation, 'teacher');
  });
});
