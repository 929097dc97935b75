import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { drainConsolidation } from '../../pipelines/memory/after-consolidation.js';
import { ParleyClient, type MemoryItem } from '../../clients/typescript/src/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

const texts = (items: MemoryItem[]): string => items.map((i) => `${i.layer}: ${i.text}`).join(' | ');

/** Turns of one weekly meeting on `day`, half a minute apart from 09:00 UTC. */
const meeting = (day: string, lines: Array<[string, string]>): Array<{ speaker: string; text: string; time: string }> =>
  lines.map(([speaker, text], i) => ({ speaker, text, time: new Date(Date.parse(`${day}T09:00:00Z`) + i * 30_000).toISOString() }));

// trial10: four colleagues, a meeting a week; asked on the Tuesday after the third.
describe('a weekly team meeting asked about after the fact (HTTP, real consolidation)', () => {
  let t: TestApp | undefined;
  let api: ParleyClient;
  before(async () => {
    t = await startTestApp();
    api = new ParleyClient({ baseUrl: t.httpUrl });
    await api.postUtterances('meeting-1', meeting('2026-11-09', [
      ['Ana', 'Good morning everyone, let us go through the week.'],
      ['Ben', 'I need the QA checklist before the release.'],
      ['Ana', 'Ben, I promise I will send you the QA checklist by Friday.'],
      ['Chidi', 'I am swamped with the data migration this week.'],
      ['Dana', 'Who can take the onboarding of the new hires?'],
      ['Chidi', 'I have got it.'],
    ]));
    await api.postUtterances('meeting-2', meeting('2026-11-16', [
      ['Ana', 'Morning all, quick round please.'],
      ['Chidi', 'Heads up, I am out on Friday, dentist.'],
      ['Ben', 'Chidi, can you review my pull request?'],
      ['Chidi', 'I am swamped again, maybe next week.'],
    ]));
    await api.postUtterances('meeting-3', meeting('2026-11-23', [
      ['Ana', 'Hello everyone, last meeting before the launch.'],
      ['Chidi', 'The migration is done, I have got it under control.'],
    ]));
    await drainConsolidation(t.app.stores.queue, 120_000);
  });
  after(async () => {
    await t?.close();
  });

  test('"When is Chidi out?" after the Friday leads with the day off: an absence that ended on its own still answers "when" (F3)', async () => {
    const { evidence } = await api.query({ question: 'When is Chidi out?', k: 5, now: '2026-11-24T09:00:00Z' });
    assert.match(`${evidence[0]?.text ?? ''} ${evidence[0]?.source_text ?? ''}`, /dentist/, texts(evidence));
    // Still marked as what no longer holds: the ranking changed, not the item.
    assert.equal(evidence[0]?.superseded, true);
  });
});

describe('"When…?" answered by absences that ended on their own: the newest first (HTTP, real consolidation)', () => {
  let t: TestApp | undefined;
  let api: ParleyClient;
  before(async () => {
    t = await startTestApp();
    api = new ParleyClient({ baseUrl: t.httpUrl });
    await api.postUtterances('meeting-1', meeting('2026-11-02', [
      ['Ana', 'Good morning everyone, quick round please.'],
      ['Chidi', 'Heads up, I am out on Friday, dentist.'],
    ]));
    await api.postUtterances('meeting-2', meeting('2026-11-16', [
      ['Ana', 'Morning all, quick round please.'],
      ['Chidi', 'Heads up, I am out on Friday, my sister is getting married.'],
    ]));
    await drainConsolidation(t.app.stores.queue, 120_000);
  });
  after(async () => {
    await t?.close();
  });

  test('"When is Chidi out?" after both Fridays leads with the later absence, the earlier one still served', async () => {
    const { evidence } = await api.query({ question: 'When is Chidi out?', k: 5, now: '2026-11-24T09:00:00Z' });
    const all = texts(evidence);
    assert.match(`${evidence[0]?.text ?? ''} ${evidence[0]?.source_text ?? ''}`, /married|sister/, all);
    assert.match(all, /dentist/, 'the earlier absence is still served');
  });
});
