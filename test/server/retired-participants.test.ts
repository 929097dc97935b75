import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { NEO4J_SKIP } from '../helpers/stores.js';
import { tenantApp } from '../helpers/tenant-app.js';
import { TestWsClient } from '../helpers/ws-client.js';

/**
 * Ids merged away or erased, and names that belong to someone else: writes naming a merged-away id reach
 * the survivor (HTTP and WebSocket), an erased id is refused and never becomes a new participant, lookups
 * say which happened, and an alias another participant holds is a 409. Against each graph store.
 */
function retiredParticipants(label: string, env: Record<string, string>, skip?: string): void {
  describe(`merged-away and erased participant ids (${label})`, { skip }, () => {
    const api = tenantApp('retired', { ...env, PARLEY_ASR: 'none' });
    const { send, person, people, headers } = api;
    const post = (sessionId: string, utterances: unknown[]): Promise<LightMyRequestResponse> =>
      send('POST', `/v1/sessions/${sessionId}/utterances`, { utterances });

    test('after a merge, utterances naming the merged-away id go to the survivor, over HTTP and WebSocket; GET says where it went', async () => {
      const setUp = await post('rp-1', [
        { speaker: 'Ana', text: 'Good morning everyone.' },
        { speaker: 'Voice 9', text: 'Morning, nice to be here.' },
        { speaker: 'Cleo', text: 'Shall we begin?' },
      ]);
      assert.equal(setUp.statusCode, 201, setUp.body);
      const [ana, voice, cleo] = [await person('Ana'), await person('Voice 9'), await person('Cleo')];
      const merged = await send('POST', `/v1/participants/${voice.id}/merge`, { into: cleo.id });
      assert.equal(merged.statusCode, 200, merged.body);
      const count = (await people()).length;

      const later = await post('rp-2', [
        { speaker: voice.id, addressees: [ana.id], text: 'I have the figures for March.' },
        { speaker: ana.id, addressees: [voice.id], text: 'Thanks, send them over.' },
      ]);
      assert.equal(later.statusCode, 201, later.body);
      const transcript = (await send('GET', '/v1/sessions/rp-2/transcript')).json().utterances as
        { speaker: { id: string }; addressees: { id: string }[] }[];
      assert.deepEqual(transcript.map((u) => [u.speaker.id, u.addressees.map((a) => a.id)]), [[cleo.id, [ana.id]], [ana.id, [cleo.id]]]);
      assert.equal((await people()).length, count, 'no participant was created under the old id');

      const gone = await send('GET', `/v1/participants/${voice.id}`);
      assert.equal(gone.statusCode, 404, gone.body);
      assert.equal(gone.json().error.code, 'PARLEY_ERR_NOT_FOUND');
      assert.match(gone.json().error.message, new RegExp(`merged into ${cleo.id}`));

      const c = await TestWsClient.connect(`${api.t.wsUrl}/v1/stream?session_id=rp-3`, headers);
      try {
        await c.next('session.started');
        c.sendJson({ type: 'utterance', speaker: voice.id, addressees: [ana.id], text: 'One more thing about March.' });
        const final = await c.next('transcript.final');
        assert.equal((final.speaker as { id: string }).id, cleo.id);
      } finally {
        c.close();
      }
      assert.equal((await people()).length, count);
    });

    test('an erased id: GET says the participant was erased; writes naming it are refused (409) and create no one', async () => {
      const setUp = await post('rp-4', [{ speaker: 'Dana', text: 'Please forget me afterwards.' }, { speaker: 'Eli', text: 'Noted.' }]);
      assert.equal(setUp.statusCode, 201, setUp.body);
      const [dana, eli] = [await person('Dana'), await person('Eli')];
      assert.equal((await send('DELETE', `/v1/participants/${dana.id}`)).statusCode, 200);
      const count = (await people()).length;

      const gone = await send('GET', `/v1/participants/${dana.id}`);
      assert.equal(gone.statusCode, 404, gone.body);
      assert.equal(gone.json().error.message, 'participant was erased');
      for (const u of [{ speaker: dana.id, text: 'I am back.' }, { speaker: eli.id, addressees: [dana.id], text: 'Welcome back.' }]) {
        const res = await post('rp-5', [u]);
        assert.equal(res.statusCode, 409, res.body);
        assert.equal(res.json().error.code, 'PARLEY_ERR_CONFLICT');
        assert.match(res.json().error.message, /erased/);
      }
      assert.equal((await people()).length, count, 'no participant took the erased id as a name');

      const c = await TestWsClient.connect(`${api.t.wsUrl}/v1/stream?session_id=rp-6`, headers);
      try {
        await c.next('session.started');
        c.sendJson({ type: 'utterance', speaker: dana.id, text: 'Hello again.' });
        const error = await c.next('error');
        assert.equal(error.code, 'PARLEY_ERR_CONFLICT');
        assert.equal(c.events.filter((e) => e.type === 'transcript.final').length, 0);
      } finally {
        c.close();
      }
      assert.equal((await people()).length, count);
    });

    test("an alias that is another participant's name or alias is a 409 naming them, and nothing changes", async () => {
      const setUp = await post('rp-7', [{ speaker: 'Fay', text: 'Hi.' }, { speaker: 'Gus', text: 'Hello.' }]);
      assert.equal(setUp.statusCode, 201, setUp.body);
      const fay = await person('Fay');
      const ok = await send('PATCH', '/v1/participants/Fay', { aliases: ['Fifi'] });
      assert.equal(ok.statusCode, 200, ok.body);
      const before = await person('Gus');
      for (const taken of ['fay', 'FIFI']) {
        const res = await send('PATCH', '/v1/participants/Gus', { aliases: ['Gussie', taken] });
        assert.equal(res.statusCode, 409, res.body);
        assert.equal(res.json().error.code, 'PARLEY_ERR_CONFLICT');
        assert.match(res.json().error.message, new RegExp(fay.id));
      }
      assert.deepEqual(await person('Gus'), before);
      const kept = await send('PATCH', '/v1/participants/Fay', { aliases: ['Fifi', 'Fae'] });
      assert.equal(kept.statusCode, 200, kept.body);
      assert.deepEqual(kept.json().aliases, ['Fifi', 'Fae'], 'an alias the participant holds already stays allowed');
    });
  });
}

retiredParticipants('embedded SQLite', {});
retiredParticipants('Neo4j', {
  PARLEY_GRAPH_STORE: 'neo4j', NEO4J_URI: process.env.NEO4J_URI ?? '', NEO4J_USER: process.env.NEO4J_USER ?? 'neo4j',
  NEO4J_PASSWORD: process.env.NEO4J_PASSWORD ?? '', ...(process.env.NEO4J_DATABASE ? { NEO4J_DATABASE: process.env.NEO4J_DATABASE } : {}),
}, NEO4J_SKIP);
