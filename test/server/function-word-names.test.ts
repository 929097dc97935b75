import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { drainConsolidation } from '../../pipelines/memory/after-consolidation.js';
import { tenantApp } from '../helpers/tenant-app.js';

interface TurnJson { text: string; addressees: { id: string; name: string | null }[] }

/**
 * A newcomer's trial (typed text): "My name is on the waiting list" gave Frank the alias "On", and Ana, who held
 * "On" from another session (a tenant poisoned before the fix), was made the addressee of every "on" and the
 * object of facts in a session she never joined.
 */
describe('"my name is on the list" and a function-word alias held elsewhere', () => {
  const api = tenantApp('fnwords', {});
  const { send, person } = api;

  test('no alias "On" for Frank, no turn addressed to the absent Ana, no fact about her', async () => {
    const setUp = await send('POST', '/v1/sessions/web-1/utterances', { utterances: [{ speaker: 'Ana', text: 'Hello everyone.' }] });
    assert.equal(setUp.statusCode, 201, setUp.body);
    // The poisoned alias, as an earlier build could leave it: the repair path (PATCH aliases) accepts and removes it.
    assert.equal((await send('PATCH', '/v1/participants/Ana', { aliases: ['On'] })).statusCode, 200);
    const res = await send('POST', '/v1/sessions/web-2/utterances', {
      utterances: [
        { speaker: 'Eve', text: 'Frank, I will repair your bike by Tuesday.' },
        { speaker: 'Frank', text: 'Great. My name is on the waiting list for the new flat.' },
        { speaker: 'Eve', text: 'I will see you on Wednesday then.' },
      ],
    });
    assert.equal(res.statusCode, 201, res.body);
    await drainConsolidation(api.t.app.stores.queue, 60_000);
    const frank = await person('Frank');
    assert.deepEqual(frank.aliases, [], JSON.stringify(frank));
    const ana = await person('On');
    assert.equal(ana.name, 'Ana', '"On" still names only Ana');
    const turns = (await send('GET', '/v1/sessions/web-2/transcript')).json().utterances as TurnJson[];
    for (const turn of turns) assert.ok(!turn.addressees.some((a) => a.id === ana.id), JSON.stringify(turn));
    const memories = (await send('GET', '/v1/memories')).json().memories as { text: string }[];
    assert.ok(!memories.some((m) => /\b(Ana|On)\b/.test(m.text)), memories.map((m) => m.text).join(' | '));
    // Repair: the alias is removed by PATCH, and the label then names no one.
    assert.equal((await send('PATCH', '/v1/participants/Ana', { aliases: [] })).statusCode, 200);
    assert.equal((await send('GET', '/v1/participants/On')).statusCode, 404);
  });

  test('a rename rewrites the memories that named them by the old label ("On", "An unnamed speaker")', async () => {
    const graph = api.t.app.stores.graph;
    const voice = await graph.createParticipant(api.tenant, {});
    const misnamed = await graph.createParticipant(api.tenant, { name: 'On' });
    const res = await send('POST', '/v1/sessions/voice-1/utterances', {
      utterances: [
        { speaker: voice.id, text: 'I will send you the contract on Friday.', addressees: ['Eve'] },
        { speaker: misnamed.id, text: 'I will call the bank on Monday.', addressees: ['Eve'] },
      ],
    });
    assert.equal(res.statusCode, 201, res.body);
    await drainConsolidation(api.t.app.stores.queue, 60_000);
    const texts = async (): Promise<string[]> => ((await send('GET', '/v1/memories')).json().memories as { text: string }[]).map((m) => m.text);
    const before = await texts();
    assert.ok(before.some((t) => /^An unnamed speaker .*contract/.test(t)) && before.some((t) => /^On .*bank/.test(t)), before.join(' | '));
    assert.equal((await send('PATCH', `/v1/participants/${voice.id}`, { name: 'Carla' })).statusCode, 200);
    const dora = await send('PATCH', `/v1/participants/${misnamed.id}`, { name: 'Dora' });
    assert.equal(dora.statusCode, 200, dora.body);
    assert.deepEqual(dora.json().aliases, [], 'the function word "On" is not kept as an alias');
    const after = await texts();
    assert.ok(after.some((t) => /^Carla .*contract on Friday/.test(t)), after.join(' | '));
    assert.ok(after.some((t) => /^Dora .*bank on Monday/.test(t)), after.join(' | '));
    assert.ok(!after.some((t) => /unnamed speaker|\bOn\b/.test(t)), after.join(' | '));
    // A rename that extends the name leaves a mention already reading the new one.
    const memories = (await send('GET', '/v1/memories')).json().memories as { id: string; text: string }[];
    const bank = memories.find((m) => /^Dora .*bank/.test(m.text))!;
    const full = await send('PATCH', `/v1/memories/${bank.id}`, { text: 'Dora will call the bank on Monday for Dora Silva.' });
    assert.equal(full.statusCode, 200, full.body);
    assert.equal((await send('PATCH', `/v1/participants/${misnamed.id}`, { name: 'Dora Silva' })).statusCode, 200);
    const last = await texts();
    assert.ok(last.includes('Dora Silva will call the bank on Monday for Dora Silva.'), last.join(' | '));
  });

  test('a given addressee no participant holds is created, as docs/PROTOCOL.md says (a listener who has not spoken yet)', async () => {
    const res = await send('POST', '/v1/sessions/web-3/utterances', {
      utterances: [{ speaker: 'Eve', text: 'See you tomorrow.', addressees: ['Nobody-at-all'] }],
    });
    assert.equal(res.statusCode, 201, res.body);
    const created = await person('Nobody-at-all');
    const [turn] = (await send('GET', '/v1/sessions/web-3/transcript')).json().utterances as TurnJson[];
    assert.deepEqual(turn!.addressees, [{ id: created.id, name: 'Nobody-at-all' }]);
  });
});
