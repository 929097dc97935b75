import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.js';

/**
 * A newcomer renamed one participant to the name of another ("Leo"); every lookup by "Leo" was then a 409, which the
 * rename had not said. Two people may share a name (allowed), but the PATCH now says so, and the 409 names the ids and
 * how to merge them when they are one person.
 */
describe('a PATCH that gives a participant a name another holds', () => {
  let t: TestApp;
  before(async () => { t = await startTestApp(); });
  after(async () => { await t.close(); });

  const call = async (method: string, path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> & { error?: { code: string; message: string } } }> => {
    const res = await t.app.inject({ method: method as 'GET', url: path, ...(body !== undefined ? { payload: body as object } : {}) });
    return { status: res.statusCode, body: res.json() };
  };

  test('is allowed and answered with same_name; the ambiguous lookup names both ids and the merge by id, which then works', async () => {
    assert.equal((await call('POST', '/v1/sessions/same-name/utterances', { utterances: [{ speaker: 'Leo', text: 'hello' }, { speaker: 'Mia', text: 'hi Leo' }] })).status, 201);
    const leo = (await call('GET', '/v1/participants/Leo')).body.id as string;
    const mia = (await call('GET', '/v1/participants/Mia')).body.id as string;

    const renamed = await call('PATCH', `/v1/participants/${mia}`, { name: 'Leo' });
    assert.equal(renamed.status, 200);
    assert.equal(renamed.body.name, 'Leo');
    assert.deepEqual(renamed.body.same_name, [leo]);

    const ambiguous = await call('GET', '/v1/participants/Leo');
    assert.equal(ambiguous.status, 409);
    assert.equal(ambiguous.body.error?.code, 'PARLEY_ERR_CONFLICT');
    const message = ambiguous.body.error?.message ?? '';
    for (const id of [leo, mia]) assert.ok(message.includes(id), message);
    assert.match(message, /send a participant id or external_id instead, or, if they are one person, merge them by id \(POST \/v1\/participants\/p_\w+\/merge \{"into": "p_\w+"\}\)/);
    assert.equal((await call('POST', '/v1/participants/Leo/merge', { into: 'Leo' })).status, 409, 'by name it stays ambiguous');

    const [from, into] = message.match(/\/v1\/participants\/(p_\w+)\/merge \{"into": "(p_\w+)"\}/)!.slice(1);
    assert.equal((await call('POST', `/v1/participants/${from}/merge`, { into })).status, 200, 'the merge the message gives works');
    assert.equal((await call('GET', '/v1/participants/Leo')).status, 200, 'one Leo again');
  });

  test('a name nobody else holds: no same_name', async () => {
    assert.equal((await call('POST', '/v1/sessions/unique-name/utterances', { utterances: [{ speaker: 'Ola', text: 'hello' }] })).status, 201);
    const renamed = await call('PATCH', '/v1/participants/Ola', { name: 'Olaf' });
    assert.equal(renamed.status, 200);
    assert.equal('same_name' in renamed.body, false);
  });
});
