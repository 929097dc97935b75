import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { drainConsolidation } from '../../pipelines/memory/after-consolidation.js';
import { NEO4J_SKIP } from '../helpers/stores.js';
import { CLIENT_KEYS, NAME_EVIDENCE, TAUGHT_NAMES } from '../../pipelines/interaction/participant-attributes.js';
import { tenantApp } from '../helpers/tenant-app.js';

interface MemoryJson { id: string; text: string; kind: string; slot: string | null; value: string | null; subject_id: string }

/**
 * Participant attributes derived from profile memories follow what users do to those memories: a deleted,
 * corrected, retracted or erased memory changes or removes the attribute, and an attribute the client set
 * itself by PATCH stays as the client set it. Runs against each graph store.
 */
function derivedAttributes(label: string, env: Record<string, string>, skip?: string): void {
  describe(`derived attributes follow memory edits (${label})`, { skip }, () => {
    const api = tenantApp('facts', env);
    const { send, tenant } = api;
    const attributes = async (ref: string): Promise<Record<string, unknown>> => {
      const res = await send('GET', `/v1/participants/${encodeURIComponent(ref)}`);
      assert.equal(res.statusCode, 200, res.body);
      return res.json().attributes as Record<string, unknown>;
    };
    const memories = async (ref: string): Promise<MemoryJson[]> => {
      const res = await send('GET', `/v1/memories?participant=${encodeURIComponent(ref)}&role=subject`);
      assert.equal(res.statusCode, 200, res.body);
      return res.json().memories as MemoryJson[];
    };
    const slotMemory = async (ref: string, slot: string): Promise<MemoryJson> => {
      const found = (await memories(ref)).find((m) => m.slot === slot);
      assert.ok(found, `${ref} has a ${slot} memory: ${JSON.stringify(await memories(ref))}`);
      return found;
    };
    const say = async (sessionId: string, utterances: Array<{ speaker: string; text: string }>): Promise<void> => {
      const res = await send('POST', `/v1/sessions/${sessionId}/utterances`, { utterances });
      assert.equal(res.statusCode, 201, res.body);
      await drainConsolidation(api.t.app.stores.queue, 120_000);
    };

    test('set-up: Ana says where she lives and works', async () => {
      await say('da-1', [{ speaker: 'Ana', text: 'I live in Oslo and I work at Acme.' }]);
      const attrs = await attributes('Ana');
      assert.equal(attrs.lives_in, 'Oslo', JSON.stringify(attrs));
      assert.equal(attrs.works_at, 'Acme', JSON.stringify(attrs));
      assert.equal((await slotMemory('Ana', 'lives_in')).value, 'Oslo', 'GET /v1/memories shows slot and value');
    });

    test('PATCH /v1/memories/{id} of a profile memory: the attribute follows its new value; a text that drops the value needs `value`', async () => {
      const home = await slotMemory('Ana', 'lives_in');
      const moved = await send('PATCH', `/v1/memories/${home.id}`, { text: 'Ana lives in Bergen' });
      assert.equal(moved.statusCode, 200, moved.body);
      assert.equal(moved.json().value, 'Bergen');
      assert.equal((await attributes('Ana')).lives_in, 'Bergen');

      const vague = await send('PATCH', `/v1/memories/${home.id}`, { text: 'Ana has a flat by the sea' });
      assert.equal(vague.statusCode, 400, vague.body);
      assert.equal(vague.json().error.code, 'PARLEY_ERR_BAD_REQUEST');
      assert.match(vague.json().error.message, /value/);
      assert.equal((await slotMemory('Ana', 'lives_in')).text, 'Ana lives in Bergen', 'a refused patch changes nothing');

      const given = await send('PATCH', `/v1/memories/${home.id}`, { text: 'Ana has a flat by the sea in Stavanger', value: 'Stavanger' });
      assert.equal(given.statusCode, 200, given.body);
      assert.equal((await attributes('Ana')).lives_in, 'Stavanger');

      const typo = await send('PATCH', `/v1/memories/${home.id}`, { text: 'Ana has a flat by the sea, in Stavanger' });
      assert.equal(typo.statusCode, 200, typo.body);
      assert.equal(typo.json().value, 'Stavanger', 'a text that still says the value keeps it');
    });

    test('DELETE /v1/memories/{id} of a profile memory: the attribute falls back to the next current memory of its slot, then goes', async () => {
      const ana = (await send('GET', '/v1/participants/Ana')).json() as { id: string };
      const at = '2020-01-01T00:00:00.000Z';
      // An older memory of the same slot that nothing replaced (as an import or a second extractor may leave).
      const [older] = await api.t.app.stores.memory.addFacts(tenant, [{
        content: 'Ana lives in Tromsø', speakerId: ana.id, subjectId: ana.id, addresseeIds: [], kind: 'profile', slot: 'lives_in',
        value: 'Tromsø', time: at, referIds: [], validFrom: at, supersedes: null, confidence: 0.8, sessionId: 'da-0', source: 'test',
      }]);
      const newest = await slotMemory('Ana', 'lives_in');
      assert.equal(newest.value, 'Stavanger', 'newest first');
      const res = await send('DELETE', `/v1/memories/${newest.id}`);
      assert.equal(res.statusCode, 200, res.body);
      assert.equal((await attributes('Ana')).lives_in, 'Tromsø');
      assert.equal((await send('DELETE', `/v1/memories/${older!.id}`)).statusCode, 200);
      assert.ok(!('lives_in' in (await attributes('Ana'))), 'no lives_in memory is left');
    });

    test('a client-set attribute stays when memories change; null clears it and shows what the memories say again', async () => {
      const set = await send('PATCH', '/v1/participants/Ana', { attributes: { works_at: 'Globex', tier: 'gold' } });
      assert.equal(set.statusCode, 200, set.body);
      assert.deepEqual(set.json().attributes, { works_at: 'Globex', tier: 'gold' }, 'no bookkeeping key shown');
      // Stored beside the attributes, shown by no read: GET one, GET the list.
      const stored = await api.t.app.stores.graph.getParticipant(tenant, String(set.json().id));
      assert.deepEqual(stored?.attributes[CLIENT_KEYS], ['tier', 'works_at']);
      assert.deepEqual(await attributes('Ana'), { works_at: 'Globex', tier: 'gold' });
      const list = await send('GET', '/v1/participants?limit=1000');
      assert.equal(list.statusCode, 200, list.body);
      for (const p of list.json().participants as { attributes: Record<string, unknown> }[]) assert.ok(!(CLIENT_KEYS in p.attributes), JSON.stringify(p));
      const job = await slotMemory('Ana', 'works_at');
      assert.equal((await send('PATCH', `/v1/memories/${job.id}`, { text: 'Ana works at Initech' })).statusCode, 200);
      await say('da-2', [{ speaker: 'Ana', text: 'I work at Umbrella.' }]);
      assert.equal((await attributes('Ana')).works_at, 'Globex', 'neither a corrected nor a new memory overwrites the client\'s value');

      const cleared = await send('PATCH', '/v1/participants/Ana', { attributes: { works_at: null, tier: null } });
      assert.equal(cleared.statusCode, 200, cleared.body);
      assert.deepEqual(cleared.json().attributes, { works_at: 'Umbrella' }, 'the client\'s values are gone; the derived one shows again');
      const now = await slotMemory('Ana', 'works_at');
      assert.equal((await send('DELETE', `/v1/memories/${now.id}`)).statusCode, 200);
      assert.deepEqual(await attributes('Ana'), {}, JSON.stringify(await memories('Ana')));

      const reserved = await send('PATCH', '/v1/participants/Ana', { attributes: { $client_keys: ['lives_in'] } });
      assert.equal(reserved.statusCode, 400, reserved.body);
      assert.equal(reserved.json().error.code, 'PARLEY_ERR_BAD_REQUEST');
      assert.match(reserved.json().error.message, /reserved/);
      const forged = await send('PATCH', '/v1/participants/Ana', { attributes: { $client_keys: null } });
      assert.equal(forged.statusCode, 400, 'removing the record is refused too');
    });

    test('a name taught by a self-introduction is recorded, shown by no read; a PATCH that sets it makes it the client\'s', async () => {
      await say('da-taught', [{ speaker: 'Dana', text: "Hi, I'm Dora." }]);
      const dana = (await send('GET', '/v1/participants/Dana')).json() as { id: string; aliases: string[]; attributes: Record<string, unknown> };
      assert.deepEqual(dana.aliases, ['Dora']);
      assert.ok(!(TAUGHT_NAMES in dana.attributes), JSON.stringify(dana.attributes));
      const stored = async (): Promise<unknown> => (await api.t.app.stores.graph.getParticipant(tenant, dana.id))?.attributes[TAUGHT_NAMES];
      assert.deepEqual(await stored(), ['dora']);
      const refused = await send('PATCH', `/v1/participants/${dana.id}`, { attributes: { [TAUGHT_NAMES]: [] } });
      assert.equal(refused.statusCode, 400, refused.body);
      const res = await send('PATCH', `/v1/participants/${dana.id}`, { aliases: ['Dora'] });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(await stored(), undefined, 'the client set it: no longer the self-introduction\'s to take back');
    });

    test('naming\'s address evidence is kept in the store, shown by no read and refused in a PATCH', async () => {
      const ana = (await send('GET', '/v1/participants/Ana')).json() as { id: string; attributes: Record<string, unknown> };
      const stored = await api.t.app.stores.graph.getParticipant(tenant, ana.id);
      assert.ok(stored);
      const evidence = { ana: { events: 2, sessions: ['da-1'], score: 2 } };
      await api.t.app.stores.graph.updateParticipant(tenant, ana.id, { attributes: { ...stored.attributes, [NAME_EVIDENCE]: evidence } });
      assert.ok(!(NAME_EVIDENCE in (await attributes('Ana'))), 'GET one');
      const list = await send('GET', '/v1/participants?limit=1000');
      for (const p of list.json().participants as { attributes: Record<string, unknown> }[]) assert.ok(!(NAME_EVIDENCE in p.attributes), JSON.stringify(p));
      for (const value of [{ bob: { events: 99, sessions: ['x'] } }, null]) {
        const res = await send('PATCH', '/v1/participants/Ana', { attributes: { [NAME_EVIDENCE]: value } });
        assert.equal(res.statusCode, 400, res.body);
        assert.equal(res.json().error.code, 'PARLEY_ERR_BAD_REQUEST');
        assert.match(res.json().error.message, /name_evidence is reserved/);
      }
      assert.deepEqual((await api.t.app.stores.graph.getParticipant(tenant, ana.id))?.attributes[NAME_EVIDENCE], evidence, 'the evidence is untouched');
    });

    test('a retracted profile memory takes its attribute with it', async () => {
      await say('da-3', [{ speaker: 'Ben', text: 'I work at Hooli.' }]);
      assert.equal((await attributes('Ben')).works_at, 'Hooli');
      await say('da-3', [{ speaker: 'Ben', text: 'I no longer work at Hooli.' }]);
      assert.ok(!('works_at' in (await attributes('Ben'))), JSON.stringify(await attributes('Ben')));
    });

    test('a profile memory closed by an UPDATE into another slot takes its attribute with it', async () => {
      await say('da-6', [{ speaker: 'Finn', text: 'I work at Hillcrest Academy.' }]);
      assert.equal((await attributes('Finn')).works_at, 'Hillcrest Academy');
      // No DELETE: the new role (`occupation`) supersedes the employer left, closing the `works_at` memory.
      await say('da-6', [{ speaker: 'Finn', text: "I left Hillcrest over Easter, I'm tutoring full time from home now." }]);
      assert.ok(!(await memories('Finn')).some((m) => m.slot === 'works_at'), JSON.stringify(await memories('Finn')));
      assert.ok(!('works_at' in (await attributes('Finn'))), JSON.stringify(await attributes('Finn')));
    });

    test('a value the client set on a person merged into another stays the client\'s', async () => {
      await say('da-5', [{ speaker: 'Dora', text: 'I like tea.' }, { speaker: 'Eve', text: 'I like coffee.' }]);
      assert.equal((await send('PATCH', '/v1/participants/Dora', { attributes: { works_at: 'Initrode' } })).statusCode, 200);
      assert.equal((await send('PATCH', '/v1/participants/Eve', { attributes: { tier: 'gold' } })).statusCode, 200);
      const merged = await send('POST', '/v1/participants/Dora/merge', { into: 'Eve' });
      assert.equal(merged.statusCode, 200, merged.body);
      assert.deepEqual(merged.json().into.attributes, { works_at: 'Initrode', tier: 'gold' });
      await say('da-5', [{ speaker: 'Eve', text: 'I work at Vandelay.' }]);
      assert.equal((await slotMemory('Eve', 'works_at')).value, 'Vandelay', 'the memory holds the new value');
      assert.equal((await attributes('Eve')).works_at, 'Initrode', 'the attribute the client set on Dora stays');
    });

    test('erasing a participant leaves no attribute of someone else derived from their memories', async () => {
      const ben = (await send('GET', '/v1/participants/Ben')).json() as { id: string };
      const cleo = await api.t.app.stores.graph.createParticipant(tenant, { name: 'Cleo' });
      const at = new Date().toISOString();
      // What Cleo told of Ben ("Ben lives in Lagos") and the attribute it set, as an extractor that reads reports stores them.
      const [told] = await api.t.app.stores.memory.addFacts(tenant, [{
        content: 'Ben lives in Lagos', speakerId: cleo.id, subjectId: ben.id, addresseeIds: [], kind: 'profile', slot: 'lives_in',
        value: 'Lagos', time: at, referIds: [], validFrom: at, supersedes: null, confidence: 0.8, sessionId: 'da-4', source: 'test',
      }]);
      await api.t.app.stores.graph.updateParticipant(tenant, ben.id, { attributes: { ...(await api.t.app.stores.graph.getParticipant(tenant, ben.id))!.attributes, lives_in: 'Lagos' } });
      assert.equal((await attributes('Ben')).lives_in, 'Lagos');
      const erased = await send('DELETE', `/v1/participants/${cleo.id}`);
      assert.equal(erased.statusCode, 200, erased.body);
      assert.equal(erased.json().erased_memories, 1);
      assert.ok(!('lives_in' in (await attributes('Ben'))), JSON.stringify(await attributes('Ben')));
    });
  });
}

derivedAttributes('embedded SQLite', {});
derivedAttributes('Neo4j', {
  PARLEY_GRAPH_STORE: 'neo4j', NEO4J_URI: process.env.NEO4J_URI ?? '', NEO4J_USER: process.env.NEO4J_USER ?? 'neo4j',
  NEO4J_PASSWORD: process.env.NEO4J_PASSWORD ?? '', ...(process.env.NEO4J_DATABASE ? { NEO4J_DATABASE: process.env.NEO4J_DATABASE } : {}),
}, NEO4J_SKIP);
