import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { drainConsolidation } from '../../pipelines/memory/after-consolidation.js';
import { NEO4J_SKIP } from '../helpers/stores.js';
import { tenantApp, type ParticipantJson } from '../helpers/tenant-app.js';
import { TestWsClient } from '../helpers/ws-client.js';

/**
 * Participant edits through the HTTP API: lookups by name on every sub-route, attributes as a merge
 * patch, blank values refused, and a manual merge of two people. The merge runs against each graph store.
 */
function participantEdits(label: string, env: Record<string, string>, skip?: string): void {
  describe(`participant edits (${label})`, { skip }, () => {
    const api = tenantApp('people', env);
    const { send, person, people, tenant, headers } = api;

    test('set-up: two sessions with Ana, Ben and an unnamed voice', async () => {
      const one = await send('POST', '/v1/sessions/pe-1/utterances', {
        utterances: [
          { speaker: 'Ana', addressees: ['Voice 7'], text: 'I live in Oslo and I work at Acme.' },
          { speaker: 'Voice 7', addressees: ['Ana'], text: 'I keep bees in my garden.' },
        ],
      });
      assert.equal(one.statusCode, 201, one.body);
      const two = await send('POST', '/v1/sessions/pe-2/utterances', { utterances: [{ speaker: 'Ben', text: 'I love sushi.' }] });
      assert.equal(two.statusCode, 201, two.body);
      await drainConsolidation(api.t.app.stores.queue, 120_000);
    });

    test('GET /v1/participants/{name}/persona resolves a name as GET /v1/participants/{name} does', async () => {
      const ana = await person('Ana');
      const res = await send('GET', '/v1/participants/ana/persona');
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().participant_id, ana.id);
      const unknown = await send('GET', '/v1/participants/Nobody/persona');
      assert.equal(unknown.statusCode, 404);
      assert.equal(unknown.json().error.code, 'PARLEY_ERR_NOT_FOUND');
    });

    test('PATCH attributes is a merge patch: other keys stay, null removes one; oversized attributes are a 400 and change nothing', async () => {
      const derived = (await person('Ana')).attributes;
      assert.equal(derived.lives_in, 'Oslo', `derived from what Ana said: ${JSON.stringify(derived)}`);
      const set = await send('PATCH', '/v1/participants/Ana', { attributes: { tier: 'gold', prefs: { food: 'sushi', drink: 'tea' } } });
      assert.equal(set.statusCode, 200, set.body);
      assert.deepEqual(set.json().attributes, { ...derived, tier: 'gold', prefs: { food: 'sushi', drink: 'tea' } }, 'derived keys stay');
      const removed = await send('PATCH', '/v1/participants/Ana', { attributes: { tier: null, prefs: { drink: null } } });
      assert.equal(removed.statusCode, 200, removed.body);
      assert.deepEqual(removed.json().attributes, { ...derived, prefs: { food: 'sushi' } });
      const huge = await send('PATCH', '/v1/participants/Ana', { attributes: { blob: 'x'.repeat(70 * 1024) } });
      assert.equal(huge.statusCode, 400, huge.body);
      assert.equal(huge.json().error.code, 'PARLEY_ERR_BAD_REQUEST');
      assert.match(huge.json().error.message, /at most 65536/);
      assert.deepEqual((await person('Ana')).attributes, { ...derived, prefs: { food: 'sushi' } });
    });

    test('blank names, aliases, speakers and memory texts are refused and nothing stored changes', async () => {
      const before = await people();
      for (const body of [{ name: '   ' }, { aliases: ['Annie', ' \t'] }, { external_id: '  ' }]) {
        const res = await send('PATCH', '/v1/participants/Ana', body);
        assert.equal(res.statusCode, 400, `${JSON.stringify(body)}: ${res.body}`);
        assert.equal(res.json().error.code, 'PARLEY_ERR_BAD_REQUEST');
      }
      const utterance = await send('POST', '/v1/sessions/pe-3/utterances', { utterances: [{ speaker: '  ', text: 'hello' }] });
      assert.equal(utterance.statusCode, 400, utterance.body);
      const query = await send('POST', '/v1/query', { question: 'what does Ana like?', asker: '   ' });
      assert.equal(query.statusCode, 400, query.body);
      const ws = await TestWsClient.connect(`${api.t.wsUrl}/v1/stream?session_id=pe-4`, headers);
      try {
        ws.sendJson({ type: 'utterance', speaker: '  ', text: 'hello there' });
        const error = await ws.next('error');
        assert.equal(error.code, 'PARLEY_ERR_BAD_FRAME');
        assert.match(String(error.message), /speaker/);
        // Blank addressees, asker and participant to identify are refused the same way.
        for (const message of [{ type: 'utterance', speaker: 'Ana', text: 'hello there', addressees: [' '] },
          { type: 'utterance', speaker: 'Ana', text: ' \t ' },
          { type: 'participant.identify', external_id: '  ' },
          { type: 'query', id: 'q-blank', question: 'what does Ana like?', asker: '  ' },
          { type: 'participant.identify', external_id: 'crm-1', participant: ' ' }]) {
          ws.sendJson(message);
          assert.equal((await ws.next('error')).code, 'PARLEY_ERR_BAD_FRAME', JSON.stringify(message));
        }
      } finally {
        ws.close();
      }
      assert.deepEqual(await people(), before, 'no participant renamed or added');

      const memories = (await send('GET', '/v1/memories?participant=Ana')).json().memories as { id: string; text: string }[];
      const fact = memories[0];
      assert.ok(fact, 'Ana has a fact');
      const blank = await send('PATCH', `/v1/memories/${fact.id}`, { text: '  \n ' });
      assert.equal(blank.statusCode, 400, blank.body);
      const after = (await send('GET', '/v1/memories?participant=Ana')).json().memories as { id: string; text: string }[];
      assert.equal(after.find((m) => m.id === fact.id)?.text, fact.text);
    });

    test('POST /v1/participants/{id}/merge moves utterances, interactions, facts and voiceprints, and tells the live session', async () => {
      const voice = await person('Voice 7');
      const ben = await person('Ben');
      const ana = await person('Ana');
      // A voiceprint of the unnamed voice, as a consenting tenant's speaker tracker stores one.
      const vector = new Float32Array(8).fill(Math.SQRT1_2 / 2);
      await api.t.app.stores.voiceprints.upsert(tenant, { participantId: voice.id, modelId: 'test-model', vector, updateCount: 1 });
      const live = await TestWsClient.connect(`${api.t.wsUrl}/v1/stream?session_id=pe-1`, headers);
      try {
        await live.next('session.started');
        const res = await send('POST', `/v1/participants/${encodeURIComponent('Voice 7')}/merge`, { into: 'ben' });
        assert.equal(res.statusCode, 200, res.body);
        const body = res.json() as { from: string; into: ParticipantJson; moved_utterances: number; moved_voiceprints: number; session_ids: string[] };
        assert.equal(body.from, voice.id);
        assert.equal(body.into.id, ben.id);
        assert.ok(body.into.aliases.includes('Voice 7'), JSON.stringify(body.into));
        assert.equal(body.moved_utterances, 2, 'spoken once, addressed once');
        assert.deepEqual(body.session_ids, ['pe-1']);
        assert.equal(body.moved_voiceprints, 1);
        assert.equal(body.into.voiceprint_count, 1);
        assert.deepEqual((await api.t.app.stores.voiceprints.list(tenant)).map((v) => v.participantId), [ben.id]);
        const merged = await live.next('speaker.merged');
        assert.equal(merged.from, voice.id);
        assert.equal(merged.into, ben.id);
      } finally {
        live.close();
      }
      assert.equal((await send('GET', `/v1/participants/${voice.id}`)).statusCode, 404, 'the merged-away id is gone');
      const transcript = (await send('GET', '/v1/sessions/pe-1/transcript')).json().utterances as { speaker: { id: string }; addressees: { id: string }[] }[];
      assert.deepEqual(transcript.map((u) => u.speaker.id), [ana.id, ben.id]);
      assert.deepEqual(transcript[0]!.addressees.map((a) => a.id), [ben.id]);
      const toBen = (await send('GET', `/v1/interactions?addressee=${ben.id}`)).json().interactions as unknown[];
      assert.equal(toBen.length, 1);
      const facts = (await send('GET', `/v1/memories?participant=${ben.id}`)).json().memories as { text: string }[];
      assert.ok(facts.some((m) => /bees/.test(m.text)), JSON.stringify(facts));
      assert.ok(facts.some((m) => /sushi/.test(m.text)), JSON.stringify(facts));

      // Search by the merged-into id finds what the merged-away id said and was told.
      await drainConsolidation(api.t.app.stores.queue, 120_000);
      const texts = async (body: Record<string, string>): Promise<string[]> => {
        const res = await send('POST', '/v1/query', body);
        assert.equal(res.statusCode, 200, res.body);
        return (res.json().evidence as { text: string }[]).map((e) => e.text);
      };
      const said = await texts({ question: 'who keeps bees in the garden?', speaker: ben.id });
      assert.ok(said.some((t) => /bees/.test(t)), JSON.stringify(said));
      const told = await texts({ question: 'where does Ana live?', addressee: ben.id });
      assert.ok(told.some((t) => /Oslo/.test(t)), JSON.stringify(told));
      const { lexical } = api.t.app.stores;
      assert.deepEqual(await lexical.search(tenant, 'bees', 10, { speakerId: voice.id }), [], 'no index entry left under the merged-away id');
      assert.ok((await lexical.search(tenant, 'bees', 10, { speakerId: ben.id })).length > 0);
    });

    test('a merged unnamed voice\'s facts take the name of the person it is merged into', async () => {
      // A newcomer's report: "An unnamed speaker enjoys green tea in the morning" stayed so after the merge into Xena.
      const voice = await api.t.app.stores.graph.createParticipant(tenant, {});
      const ana = await person('Ana');
      const at = new Date().toISOString();
      const base = { addresseeIds: [], kind: 'preference' as const, slot: null, value: null, time: at, referIds: [], validFrom: at,
        supersedes: null, confidence: 0.8, sessionId: 'pe-9', source: 'test' };
      const [tea, told] = await api.t.app.stores.memory.addFacts(tenant, [
        { ...base, content: 'An unnamed speaker enjoys green tea in the morning', speakerId: voice.id, subjectId: voice.id },
        // Two unnamed people in one fact: which one was merged is not in its words, so it stays.
        { ...base, content: 'An unnamed speaker told an unnamed speaker about the tram', speakerId: voice.id, subjectId: voice.id },
      ]);
      const res = await send('POST', `/v1/participants/${voice.id}/merge`, { into: 'Ana' });
      assert.equal(res.statusCode, 200, res.body);
      const after = await api.t.app.stores.memory.getFact(tenant, tea!.id);
      assert.equal(after?.content, 'Ana enjoys green tea in the morning');
      assert.equal(after?.speakerId, ana.id);
      assert.equal((await api.t.app.stores.memory.getFact(tenant, told!.id))?.content, 'An unnamed speaker told an unnamed speaker about the tram');
    });

    test('merging a person into themself is a 400, an unknown id a 404, two external ids a 409, and nothing changes', async () => {
      assert.equal((await send('PATCH', '/v1/participants/Ana', { external_id: `crm-ana-${tenant}` })).statusCode, 200);
      assert.equal((await send('PATCH', '/v1/participants/Ben', { external_id: `crm-ben-${tenant}` })).statusCode, 200);
      const before = await people();
      const two = await send('POST', '/v1/participants/Ana/merge', { into: 'Ben' });
      assert.equal(two.statusCode, 409, two.body);
      assert.equal(two.json().error.code, 'PARLEY_ERR_CONFLICT');
      const self = await send('POST', '/v1/participants/Ana/merge', { into: 'ana' });
      assert.equal(self.statusCode, 400, self.body);
      assert.match(self.json().error.message, /themself/);
      assert.equal((await send('POST', '/v1/participants/Nobody/merge', { into: 'Ana' })).statusCode, 404);
      assert.equal((await send('POST', '/v1/participants/Ana/merge', { into: 'Nobody' })).statusCode, 404);
      assert.equal((await send('POST', '/v1/participants/Ana/merge', { into: '  ' })).statusCode, 400);
      assert.deepEqual(await people(), before);
    });
  });
}

participantEdits('embedded SQLite', {});
participantEdits('Neo4j', {
  PARLEY_GRAPH_STORE: 'neo4j', NEO4J_URI: process.env.NEO4J_URI ?? '', NEO4J_USER: process.env.NEO4J_USER ?? 'neo4j',
  NEO4J_PASSWORD: process.env.NEO4J_PASSWORD ?? '', ...(process.env.NEO4J_DATABASE ? { NEO4J_DATABASE: process.env.NEO4J_DATABASE } : {}),
}, NEO4J_SKIP);
