/**
 * Trial 9 (issue #16 F6, F7; a home robot): Ben asked the robot to remember his nut allergy, then corrected it to
 * peanuts. "What was Ben allergic to before?" served the current peanut fact first and nothing superseded: the request
 * "Ben asked Donna to remember that they are allergic to nuts" stayed current, and the nut allergy was closed with no
 * link to the peanut one, so the "before" question had no chain to follow.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { drainConsolidation } from '../../pipelines/memory/after-consolidation.js';
import { ParleyClient, type MemoryItem } from '../../clients/typescript/src/index.js';
import { clientFor, startTestApp, type TestApp } from '../helpers/app.js';
import { deployments } from '../helpers/deployments.js';

const shown = (items: readonly MemoryItem[]): string => items.map((i) => `${i.layer}${i.superseded ? ' (superseded)' : ''}: ${i.text}`).join(' | ');

for (const deployment of deployments('t9al')) describe(`an allergy corrected, asked about "before", ${deployment.name}`, { skip: deployment.skip }, () => {
  let t: TestApp;
  let api: ParleyClient;

  before(async () => {
    t = await startTestApp(deployment.env);
    api = clientFor(t, deployment.headers);
    await api.postUtterances('home-1', [
      { speaker: 'Donna', addressees: ['Ben'], text: "Hi, I'm Donna.", time: '2026-12-05T09:00:00Z' },
      { speaker: 'Ben', addressees: ['Donna'], text: 'please remember that I am allergic to nuts', time: '2026-12-05T09:01:00Z' },
      { speaker: 'Ben', addressees: ['Donna'], text: 'actually I am not allergic to nuts, it was peanuts', time: '2026-12-05T09:05:00Z' },
    ]);
    await drainConsolidation(t.app.stores.queue, 120_000);
  });
  after(async () => {
    await t?.close();
    await deployment.cleanup();
  });

  test('the nut allergy is served first, marked superseded; nothing current says nuts', async () => {
    const evidence = (await api.query({ question: 'What was Ben allergic to before?' })).evidence;
    const [top] = evidence;
    assert.ok(top, shown(evidence));
    assert.match(top.text, /\bnuts\b/, shown(evidence));
    assert.doesNotMatch(top.text, /peanuts/, shown(evidence));
    assert.equal(top.superseded, true, shown(evidence));
    const current = (await api.query({ question: 'What is Ben allergic to?' })).evidence.filter((i) => !i.superseded);
    assert.ok(current.every((i) => !/\bnuts\b/.test(i.text) || /peanuts/.test(i.text)), shown(current));
  });
});
