import assert from 'node:assert/strict';
import { test } from 'node:test';
import { drainConsolidation } from '../../pipelines/memory/after-consolidation.js';
import { appForSuite, startTestApp } from '../helpers/app.js';

const t = appForSuite(() => startTestApp());

/** trial12 F8: an entity row made from the erased person's address ("elm street") stayed after their erasure. */
test('erasure leaves no entity row that only the erased person\'s turns and memories referred to', async () => {
  const posted = await t.app.inject({ method: 'POST', url: '/v1/sessions/elm-1/utterances', payload: { utterances: [
    { speaker: 'Tobin Becquerel', text: 'Hi, this is Tobin Becquerel. I live at 12 Elm Street and my phone is 555 0142.' },
  ] } });
  assert.ok(posted.statusCode < 300, posted.body);
  await drainConsolidation(t.app.stores.queue, 120_000);
  const rows = () => t.app.stores.sqlite.prepare("SELECT name FROM lb_entities").all() as { name: string }[];
  const before = rows().map((r) => r.name);
  const erased = await t.app.inject({ method: 'DELETE', url: '/v1/participants/Tobin%20Becquerel' });
  assert.equal(erased.statusCode, 200, erased.body);
  const left = rows().map((r) => r.name);
  assert.deepEqual(left, [], `entity rows left: ${JSON.stringify(left)} (before: ${JSON.stringify(before)})`);
});
