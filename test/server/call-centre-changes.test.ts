import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { drainConsolidation } from '../../pipelines/memory/after-consolidation.js';
import { ParleyClient, type Schemas } from '../../clients/typescript/src/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

type Turn = [speaker: string, to: string, text: string];

// Newcomer trial 8 (issue #16 items 3–4): a call centre's bot imports calls over HTTP, a customer talking to one agent
// on day 1 and to another on day 2. A change the customer asks for replaces what it names, whichever agent heard it.
const DAY1: [string, Turn[]][] = [
  ['maria-1', [['Maria', 'Agent Kim', 'I ordered a kettle last week.'], ['Maria', 'Agent Kim', 'Please deliver it to 12 Park Road in Leeds.']]],
  ['tom-1', [['Tom Becker', 'Agent Kim', 'I ordered four garden chairs, order 5520.']]],
  ['lena-1', [['Lena', 'Agent Kim', 'I ordered a blue sofa, order 7781.']]],
  ['omar-1', [['Omar', 'Agent Kim', 'My delivery address is 5 Hill Road, Bristol.']]],
  ['ivan-1', [['Ivan', 'Agent Kim', 'I ordered an oak desk, order 6610.']]],
];
const DAY2: [string, Turn[]][] = [
  ['maria-2', [['Maria', 'Agent Raj', 'Please deliver the kettle to 4 Mill Lane in York instead of Park Road.']]],
  ['tom-2', [['Tom Becker', 'Agent Raj', 'I want to cancel order 5520.'], ['Agent Raj', 'Tom Becker', 'I have cancelled order 5520.']]],
  ['lena-2', [['Lena', 'Agent Raj', 'Please cancel my order 7781, I no longer need the sofa.']]],
  ['omar-2', [['Omar', 'Agent Raj', 'My delivery address is now 22 Quay Street, Bath.']]],
  // Only the agent tells it, to the caller, in a call of its own.
  ['ivan-2', [['Agent Raj', 'Ivan', 'I have cancelled order 6610 for you.']]],
];

describe('trial 8: a call centre\'s changes close what they replace (HTTP imports, two agents, embedded defaults)', () => {
  let t: TestApp;
  let api: ParleyClient;
  let facts: Schemas['Memory'][] = [];
  const ids = new Map<string, string>();
  const about = (re: RegExp): Schemas['Memory'][] => facts.filter((f) => re.test(f.text));
  const show = (list: Schemas['Memory'][]): string => list.map((f) => `${f.text} [${f.subject_id} to=${f.valid_to} by=${f.superseded_by}]`).join(' | ');

  before(async () => {
    t = await startTestApp();
    api = new ParleyClient({ baseUrl: t.httpUrl });
    const post = async (calls: [string, Turn[]][], day: string): Promise<void> => {
      for (const [session, turns] of calls) {
        await api.postUtterances(session, turns.map(([speaker, to, text], i) => ({
          speaker, text, addressees: [to], time: new Date(Date.parse(day) + i * 30_000).toISOString(),
        })));
      }
    };
    await post(DAY1, '2026-12-01T10:00:00Z');
    await drainConsolidation(t.app.stores.queue, 120_000);
    await post(DAY2, '2026-12-02T10:00:00Z');
    await drainConsolidation(t.app.stores.queue, 120_000);
    for (const p of await api.participants()) if (p.name) ids.set(p.name, p.id);
    facts = await api.memories({ include_history: true, limit: 500 });
  });
  after(async () => {
    await t?.close();
  });

  test('F1: a new delivery address told to another agent "instead of" the old one supersedes it; both are the customer\'s', async () => {
    const park = about(/Park Road/).filter((f) => !/Mill Lane/.test(f.text));
    const mill = about(/Mill Lane/);
    assert.ok(park.length >= 1 && mill.length >= 1, show(facts));
    for (const f of [...park, ...mill]) assert.equal(f.subject_id, ids.get('Maria'), show([f]));
    assert.ok(park.every((f) => f.valid_to !== null && f.superseded_by !== null), show(park));
    assert.ok(mill.some((f) => f.valid_to === null), show(mill));
    const evidence = (await api.query({ question: 'Where should we deliver now?', k: 5 })).evidence;
    assert.match(evidence[0]?.text ?? '', /Mill Lane/, evidence.map((e) => e.text).join(' | '));
  });

  test('F2: a cancellation by the customer, or confirmed by the agent, closes the order it names', async () => {
    for (const re of [/garden chairs|5520/, /sofa|7781/, /oak desk|6610/]) {
      const orders = about(re).filter((f) => /ordered/.test(f.text));
      assert.ok(orders.length >= 1, show(facts));
      assert.ok(orders.every((f) => f.valid_to !== null && f.superseded_by !== null), show(orders));
      const by = facts.find((f) => f.id === orders[0]!.superseded_by);
      assert.match(by?.text ?? '', /cancel/, show(orders));
    }
    const evidence = (await api.query({ question: "Is Lena's order still open?", k: 5 })).evidence;
    const first = evidence[0];
    assert.ok(first && (/cancel/i.test(first.text) || first.superseded), evidence.map((e) => `${e.text} ${e.superseded}`).join(' | '));
  });

  test('F3: "my delivery address is now …" replaces the old address, and each keeps its city', async () => {
    const addresses = about(/Hill Road|Quay Street/);
    const current = addresses.filter((f) => f.valid_to === null);
    assert.deepEqual(current.map((f) => f.text), ["Omar's delivery address is 22 Quay Street, Bath"], show(addresses));
    assert.ok(addresses.some((f) => /5 Hill Road, Bristol/.test(f.text) && f.valid_to !== null), show(addresses));
  });
});
