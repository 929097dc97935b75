/**
 * Preferences for a time over HTTP (rules 34): "I prefer tea for the next few days" after "My favourite drink is
 * coffee" is the for-now preference with its end, first for a question about now, the favourite first for a "usual"
 * one; "I'm drinking black coffee again" ends "At the moment I'm drinking hot chocolate".
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import { drainConsolidation } from '../../pipelines/memory/after-consolidation.js';
import { FOR_NOW_PREFERENCE } from '../../pipelines/memory/temporary-slots.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { ParleyClient } from '../../clients/typescript/src/index.js';

describe('a preference for a time: its end kept, first when the present is asked; a liking said again ends it', () => {
  let t: TestApp;
  let api: ParleyClient;

  before(async () => {
    t = await startTestApp({}, true, pino({ level: 'silent' }), { now: () => Date.parse('2026-12-03T12:00:00.000Z') });
    api = new ParleyClient({ baseUrl: t.httpUrl });
    await api.postUtterances('autumn', [
      { speaker: 'Ida', addressees: ['Jon'], text: 'My favourite drink is coffee.', time: '2026-11-02T09:00:00.000Z' },
      { speaker: 'Sal', addressees: ['Jon'], text: 'I like black coffee.', time: '2026-11-02T09:01:00.000Z' },
    ]);
    await drainConsolidation(t.app.stores.queue, 60_000);
    await api.postUtterances('late-november', [
      { speaker: 'Sal', addressees: ['Jon'], text: "At the moment I'm drinking hot chocolate.", time: '2026-11-20T09:00:00.000Z' },
    ]);
    await drainConsolidation(t.app.stores.queue, 60_000);
    await api.postUtterances('december', [
      { speaker: 'Ida', addressees: ['Jon'], text: 'I prefer tea for the next few days.', time: '2026-12-01T10:00:00.000Z' },
      { speaker: 'Sal', addressees: ['Jon'], text: "I'm drinking black coffee again.", time: '2026-12-01T10:01:00.000Z' },
    ]);
    await drainConsolidation(t.app.stores.queue, 60_000);
  });
  after(async () => {
    await t.close();
  });

  test('stored: the preference for a time with its end, the favourite still current', async () => {
    const all = await api.memories({ limit: 100 });
    const tea = all.find((m) => m.slot === FOR_NOW_PREFERENCE && m.value === 'tea');
    assert.equal(tea?.valid_until, '2026-12-04T10:00:00.000Z', JSON.stringify(all));
    const coffee = all.find((m) => m.slot === 'favourite:drink');
    assert.equal(coffee?.valid_to, null, 'the favourite is not replaced');
  });

  test('"now" gets tea first, "usually" coffee', async () => {
    // Ida's first fact: Sal's drinks are another person's family, ordered apart.
    const top = async (question: string): Promise<string> => (await api.query({ question })).evidence.find((i) => i.layer === 'fact' && /^Ida\b/.test(i.text))?.text ?? '';
    assert.match(await top('What does Ida prefer to drink at the moment?'), /tea/);
    assert.match(await top("What is Ida's usual drink?"), /coffee/);
  });

  test('the liking said again ends the value held for now', async () => {
    const all = await api.memories({ limit: 100, include_history: true });
    const cocoa = all.find((m) => m.slot === FOR_NOW_PREFERENCE && m.value === 'hot chocolate');
    assert.ok(cocoa, JSON.stringify(all));
    assert.notEqual(cocoa.valid_to, null, JSON.stringify(cocoa));
  });
});
