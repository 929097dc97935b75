import assert from 'node:assert/strict';
import { test } from 'node:test';
import { appForSuite, startTestApp } from '../helpers/app.js';

const t = appForSuite(() => startTestApp());

/** trial12 F8: erasing someone only mentioned (never a speaker) was a bare 404, with no word of what to do instead. */
test('erasing a name no participant holds is a 404 that says how to remove the memories about that person', async () => {
  const res = await t.app.inject({ method: 'DELETE', url: '/v1/participants/Leo%20Gomez' });
  assert.equal(res.statusCode, 404);
  const { error } = res.json();
  assert.equal(error.code, 'PARLEY_ERR_NOT_FOUND');
  assert.match(error.message, /no participant with id, external_id or name "Leo Gomez"/);
  assert.match(error.message, /GET \/v1\/memories\?participant=Leo%20Gomez&role=subject/);
  assert.match(error.message, /DELETE \/v1\/memories\/\{id\}/);
});
