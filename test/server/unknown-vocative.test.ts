import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { NAME_EVIDENCE } from '../../pipelines/interaction/participant-attributes.js';
import { tenantApp } from '../helpers/tenant-app.js';

interface TurnJson { text: string; speaker: { id: string }; addressees: { id: string; name: string | null }[] }

/**
 * A turn that calls someone by a name no participant holds ("Kevin, can you…") while the one other person
 * present is named otherwise (Ben): Kevin is someone else, not Ben. The turn is not recorded as addressed to
 * Ben, and Ben is never aliased or evidenced as "Kevin", however often it happens.
 */
describe('an unknown vocative while the inferred listener is named', () => {
  const api = tenantApp('vocative', {});
  const { send, person, tenant } = api;
  const transcript = async (session: string): Promise<TurnJson[]> => {
    const res = await send('GET', `/v1/sessions/${session}/transcript`);
    assert.equal(res.statusCode, 200, res.body);
    return res.json().utterances as TurnJson[];
  };

  test('"Kevin, can you…" to a named Ben: no addressee, no alias, no name evidence on Ben', async () => {
    for (const session of ['uv-1', 'uv-2', 'uv-3']) {
      const res = await send('POST', `/v1/sessions/${session}/utterances`, {
        utterances: [
          { speaker: 'Ana', text: 'Did you see the match last night?' },
          { speaker: 'Ben', text: 'I did, what a finish.' },
          { speaker: 'Ana', text: 'Kevin, can you pass me the salt?' },
          { speaker: 'Ben', text: 'Here you go.' },
        ],
      });
      assert.equal(res.statusCode, 201, res.body);
      const turns = await transcript(session);
      const ben = await person('Ben');
      assert.deepEqual(turns[1]!.addressees.map((a) => a.name), ['Ana'], 'a plain reply still addresses the other party');
      assert.ok(!turns[2]!.addressees.some((a) => a.id === ben.id), `${session}: ${JSON.stringify(turns[2])}`);
    }
    const ben = await person('Ben');
    assert.equal(ben.name, 'Ben');
    assert.deepEqual(ben.aliases, []);
    const stored = await api.t.app.stores.graph.getParticipant(tenant, ben.id);
    assert.ok(!JSON.stringify(stored?.attributes[NAME_EVIDENCE] ?? {}).includes('kevin'), JSON.stringify(stored?.attributes));
    assert.equal((await send('GET', '/v1/participants/Kevin')).statusCode, 404, 'Kevin is nobody\'s name');
  });

  test('"Kevin, can you…" to an unnamed voice still addresses the voice (who may be Kevin)', async () => {
    const voice = await api.t.app.stores.graph.createParticipant(tenant, {});
    const res = await send('POST', '/v1/sessions/uv-4/utterances', {
      utterances: [
        { speaker: 'Ana', text: 'Did you see the match last night?' },
        { speaker: voice.id, text: 'I did, what a finish.' },
        { speaker: 'Ana', text: 'Kevin, can you pass me the salt?' },
      ],
    });
    assert.equal(res.statusCode, 201, res.body);
    assert.deepEqual((await transcript('uv-4'))[2]!.addressees.map((a) => a.id), [voice.id]);
  });
});
