import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { drainConsolidation } from '../../pipelines/memory/after-consolidation.js';
import { ParleyClient, type MemoryItem } from '../../clients/typescript/src/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

const DAY_MS = 86_400_000;
/** The first item's words: a fact stands for its turn and carries the turn's words. */
const said = (i: MemoryItem | undefined): string => i?.source_text ?? i?.text ?? '';
const texts = (items: MemoryItem[]): string => items.map((i) => `${i.layer}: ${i.text}`).join(' | ');

describe('a question that names a period is answered from then (HTTP, real consolidation, the server\'s clock)', () => {
  let t: TestApp | undefined;
  let api: ParleyClient;
  before(async () => {
    const app = (t = await startTestApp());
    api = new ParleyClient({ baseUrl: app.httpUrl });
    // POST /v1/query asks as of the clock: last week's call is on last week's Thursday, this week's within this week.
    const now = Date.now();
    const today = new Date(now);
    const monday = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - ((today.getUTCDay() + 6) % 7));
    const lastWeek = new Date(monday - 4 * DAY_MS + 10 * 3_600_000);
    const thisWeek = new Date(Math.max(monday, now - 3_600_000));
    const at = (d: Date, minute: number): string => new Date(d.getTime() + minute * 60_000).toISOString();
    await api.postUtterances('call-last-week', [
      { speaker: 'Grace', addressees: ['Sam'], text: 'Could you send me a refund for the two days without internet?', time: at(lastWeek, 0) },
      { speaker: 'Sam', addressees: ['Grace'], text: 'Of course, it is logged.', time: at(lastWeek, 1) },
    ]);
    await api.postUtterances('call-this-week', [
      { speaker: 'Grace', addressees: ['Sam'], text: 'I have to ask you for a new router, the light is blinking red.', time: at(thisWeek, 0) },
      { speaker: 'Sam', addressees: ['Grace'], text: 'A new router will be posted today.', time: at(thisWeek, 1) },
    ]);
    await drainConsolidation(app.app.stores.queue, 60_000);
  });
  after(async () => {
    await t?.close();
  });

  test('POST /v1/query "What did Grace ask for last week?" puts last week\'s request first; this week\'s is still found', async () => {
    const evidence = (await api.query({ question: 'What did Grace ask for last week?', k: 5 })).evidence;
    assert.match(said(evidence[0]), /refund/, texts(evidence));
    const thisWeek = (await api.query({ question: 'What did Grace ask for this week?', k: 5 })).evidence;
    assert.match(said(thisWeek[0]), /router/, texts(thisWeek));
    assert.ok(thisWeek.some((i) => /refund/.test(said(i))), `a period is a ranking, not a filter: ${texts(thisWeek)}`);
  });
});

// A replay or an imported history asks as of its own day: `now` on the request, not the server's clock.
describe('POST /v1/query `now`: a period is counted from it', () => {
  let t: TestApp | undefined;
  let api: ParleyClient;
  before(async () => {
    const app = (t = await startTestApp());
    api = new ParleyClient({ baseUrl: app.httpUrl });
    // Thursday 6 March 2025 and Wednesday 12 March 2025: a week apart, both long before the server's clock.
    await api.postUtterances('call-march-6', [
      { speaker: 'Grace', addressees: ['Sam'], text: 'Could you send me a refund for the two days without internet?', time: '2025-03-06T10:00:00Z' },
      { speaker: 'Sam', addressees: ['Grace'], text: 'Of course, it is logged.', time: '2025-03-06T10:01:00Z' },
    ]);
    await api.postUtterances('call-march-12', [
      { speaker: 'Grace', addressees: ['Sam'], text: 'I have to ask you for a new router, the light is blinking red.', time: '2025-03-12T10:00:00Z' },
      { speaker: 'Sam', addressees: ['Grace'], text: 'A new router will be posted today.', time: '2025-03-12T10:01:00Z' },
    ]);
    await drainConsolidation(app.app.stores.queue, 60_000);
  });
  after(async () => {
    await t?.close();
  });

  test('"What did Grace ask for last week?" as of 13 March puts the refund first, as of 20 March the router', async () => {
    const asOf = async (now: string): Promise<MemoryItem[]> => (await api.query({ question: 'What did Grace ask for last week?', k: 5, now })).evidence;
    const march13 = await asOf('2025-03-13T12:00:00Z');
    assert.match(said(march13[0]), /refund/, texts(march13));
    const march20 = await asOf('2025-03-20T12:00:00+00:00');
    assert.match(said(march20[0]), /router/, texts(march20));
  });

  test('a `now` that is not an ISO-8601 date-time is a 400 naming it', async () => {
    const res = await fetch(`${t!.httpUrl}/v1/query`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ question: 'What did Grace ask for?', now: 'last Tuesday' }),
    });
    assert.equal(res.status, 400);
    const body = await res.json() as { error: { code: string; message: string } };
    assert.equal(body.error.code, 'PARLEY_ERR_BAD_REQUEST');
    assert.match(body.error.message, /now must match format "date-time"/);
  });
});
