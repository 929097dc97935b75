import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { drainConsolidation } from '../../pipelines/memory/after-consolidation.js';
import { ParleyClient, type MemoryItem } from '../../clients/typescript/src/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { TestWsClient } from '../helpers/ws-client.js';

const DAY_MS = 86_400_000;
/** The first item's words: a fact stands for its turn and carries the turn's words. */
const said = (i: MemoryItem | undefined): string => i?.source_text ?? i?.text ?? '';
const texts = (items: MemoryItem[]): string => items.map((i) => `${i.layer}: ${i.text}`).join(' | ');

/**
 * For the tests of a `describe`: an app and its client, with Grace's two calls to Sam posted and consolidated, one asking
 * for a refund, one for a new router; `times()`, read as the app starts, gives each call's session id and time (ms since the epoch).
 */
function gracesCalls(times: () => { refund: [string, number]; router: [string, number] }): { t: () => TestApp; api: () => ParleyClient } {
  let t: TestApp | undefined;
  let api: ParleyClient | undefined;
  before(async () => {
    const app = (t = await startTestApp());
    const client = (api = new ParleyClient({ baseUrl: app.httpUrl }));
    const { refund, router } = times();
    const at = (ms: number, minute: number): string => new Date(ms + minute * 60_000).toISOString();
    await client.postUtterances(refund[0], [
      { speaker: 'Grace', addressees: ['Sam'], text: 'Could you send me a refund for the two days without internet?', time: at(refund[1], 0) },
      { speaker: 'Sam', addressees: ['Grace'], text: 'Of course, it is logged.', time: at(refund[1], 1) },
    ]);
    await client.postUtterances(router[0], [
      { speaker: 'Grace', addressees: ['Sam'], text: 'I have to ask you for a new router, the light is blinking red.', time: at(router[1], 0) },
      { speaker: 'Sam', addressees: ['Grace'], text: 'A new router will be posted today.', time: at(router[1], 1) },
    ]);
    await drainConsolidation(app.app.stores.queue, 60_000);
  });
  after(async () => {
    await t?.close();
  });
  return { t: () => t!, api: () => api! };
}

describe('a question that names a period is answered from then (HTTP, real consolidation, the server\'s clock)', () => {
  // POST /v1/query asks as of the clock: last week's call is on last week's Thursday, this week's within this week.
  const calls = gracesCalls(() => {
    const now = Date.now();
    const today = new Date(now);
    const monday = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - ((today.getUTCDay() + 6) % 7));
    return { refund: ['call-last-week', monday - 4 * DAY_MS + 10 * 3_600_000], router: ['call-this-week', Math.max(monday, now - 3_600_000)] };
  });

  test('POST /v1/query "What did Grace ask for last week?" puts last week\'s request first; this week\'s is still found', async () => {
    const evidence = (await calls.api().query({ question: 'What did Grace ask for last week?', k: 5 })).evidence;
    assert.match(said(evidence[0]), /refund/, texts(evidence));
    const thisWeek = (await calls.api().query({ question: 'What did Grace ask for this week?', k: 5 })).evidence;
    assert.match(said(thisWeek[0]), /router/, texts(thisWeek));
    assert.ok(thisWeek.some((i) => /refund/.test(said(i))), `a period is a ranking, not a filter: ${texts(thisWeek)}`);
  });
});

// A replay or an imported history asks as of its own day: `now` on the request, not the server's clock.
describe('POST /v1/query `now`: a period is counted from it', () => {
  // Thursday 6 March 2025 and Wednesday 12 March 2025: a week apart, both long before the server's clock.
  const calls = gracesCalls(() => ({ refund: ['call-march-6', Date.parse('2025-03-06T10:00:00Z')], router: ['call-march-12', Date.parse('2025-03-12T10:00:00Z')] }));

  test('"What did Grace ask for last week?" as of 13 March puts the refund first, as of 20 March the router', async () => {
    const asOf = async (now: string): Promise<MemoryItem[]> => (await calls.api().query({ question: 'What did Grace ask for last week?', k: 5, now })).evidence;
    const march13 = await asOf('2025-03-13T12:00:00Z');
    assert.match(said(march13[0]), /refund/, texts(march13));
    const march20 = await asOf('2025-03-20T12:00:00+00:00');
    assert.match(said(march20[0]), /router/, texts(march20));
  });

  test('WebSocket `query` takes the same `now`; one that is no date-time is a non-fatal error naming it', async () => {
    const c = await TestWsClient.connect(`${calls.t().wsUrl}/v1/stream?session_id=asks-later`);
    await c.next('session.started');
    const asOf = async (id: string, now: string): Promise<MemoryItem[]> => {
      c.sendJson({ type: 'query', id, question: 'What did Grace ask for last week?', k: 5, now });
      return (await c.next('query.result', (e) => e.id === id)).evidence as MemoryItem[];
    };
    const march13 = await asOf('q-13', '2025-03-13T12:00:00Z');
    assert.match(said(march13[0]), /refund/, texts(march13));
    const march20 = await asOf('q-20', '2025-03-20T12:00:00+00:00');
    assert.match(said(march20[0]), /router/, texts(march20));
    c.sendJson({ type: 'query', id: 'q-bad', question: 'What did Grace ask for?', now: 'last Tuesday' });
    const error = await c.next('error');
    assert.equal(error.code, 'PARLEY_ERR_BAD_FRAME');
    assert.equal(error.fatal, false);
    assert.match(error.message as string, /now/);
    c.close();
  });

  test('a `now` that is not an ISO-8601 date-time is a 400 naming it', async () => {
    const res = await fetch(`${calls.t().httpUrl}/v1/query`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ question: 'What did Grace ask for?', now: 'last Tuesday' }),
    });
    assert.equal(res.status, 400);
    const body = await res.json() as { error: { code: string; message: string } };
    assert.equal(body.error.code, 'PARLEY_ERR_BAD_REQUEST');
    assert.match(body.error.message, /now must match format "date-time"/);
  });
});
