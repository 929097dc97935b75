/**
 * A temporary value that ends by a holiday, over HTTP (rules 31): "I'm working as a barista for the holidays" is the
 * participant's occupation until the holidays end (2 January), and the lasting one ("I'm a teacher") shows again after,
 * read at the app's clock, with nothing run in between.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import { drainConsolidation } from '../../pipelines/memory/after-consolidation.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { ParleyClient } from '../../clients/typescript/src/index.js';

describe('a job for the holidays: the occupation until they end, the lasting one after, with the clock moved', () => {
  let t: TestApp;
  let api: ParleyClient;
  let clock = Date.parse('2026-12-05T09:05:00.000Z');

  before(async () => {
    t = await startTestApp({}, true, pino({ level: 'silent' }), { now: () => clock });
    api = new ParleyClient({ baseUrl: t.httpUrl });
    await api.postUtterances('autumn', [{ speaker: 'Ria', addressees: ['Sam'], text: "I'm a teacher.", time: '2026-10-05T09:00:00.000Z' }]);
    await drainConsolidation(t.app.stores.queue, 60_000);
    await api.postUtterances('december', [
      { speaker: 'Ria', addressees: ['Sam'], text: "I'm working as a barista for the holidays.", time: '2026-12-05T09:00:00.000Z' },
      { speaker: 'Sam', addressees: ['Ria'], text: 'Enjoy the holidays!', time: '2026-12-05T09:00:30.000Z' },
    ]);
    await drainConsolidation(t.app.stores.queue, 60_000);
  });
  after(async () => {
    await t.close();
  });

  test('stored: the holiday job with valid_until 2 January, the teacher kept open beside it', async () => {
    const all = await api.memories({ limit: 100 });
    const barista = all.find((m) => m.slot === 'occupation' && m.value === 'barista');
    assert.equal(barista?.valid_until, '2027-01-02T00:00:00.000Z', JSON.stringify(all));
    const teacher = all.find((m) => m.slot === 'occupation' && m.value === 'teacher');
    assert.ok(teacher, JSON.stringify(all));
    assert.equal(teacher.valid_until ?? null, null);
  });

  test('occupation: barista now and on 20 December, teacher again from 2 January', async () => {
    const at = async (iso: string): Promise<Record<string, unknown>> => {
      clock = Date.parse(iso);
      return (await api.participant('Ria')).attributes;
    };
    assert.equal((await at('2026-12-05T09:05:00.000Z')).occupation, 'barista');
    assert.equal((await at('2026-12-20T00:00:00.000Z')).occupation, 'barista');
    assert.equal((await at('2027-01-02T00:00:00.000Z')).occupation, 'teacher');
    assert.equal((await at('2027-02-01T00:00:00.000Z')).occupation, 'teacher');
  });
});
