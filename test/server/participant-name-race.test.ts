import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { deployments } from '../helpers/deployments.js';

/**
 * Concurrent first posts by a name no participant holds yet: each request finds no one by that name and
 * creates the participant, so without a lock across requests (and servers) each made its own, and the name
 * was then a permanent 409 ("names N participants").
 */
for (const deployment of deployments('name-race')) describe(`concurrent first posts by one new name, ${deployment.name}`, { skip: deployment.skip }, () => {
  const apps: TestApp[] = [];
  const { tenant, headers } = deployment;
  before(async () => {
    apps.push(await startTestApp(deployment.env, false));
    // A second server on the same stores (networked only: the embedded one's store is its own directory).
    if (deployment.networked) apps.push(await startTestApp(deployment.env, false));
  });
  after(async () => {
    for (const t of apps) await t.close();
    await deployment.cleanup();
  });

  const post = (t: TestApp, session: string, id: string, speaker: string) => t.app.inject({
    method: 'POST', url: `/v1/sessions/${session}/utterances`, headers,
    payload: { utterances: [{ utterance_id: id, speaker, text: `Hello, this is line ${id}.` }] },
  });

  /** Post `count` utterances at once by `speaker`, spread over the servers; every one must be stored. */
  const race = async (session: string, speaker: string, count: number): Promise<void> => {
    const answers = await Promise.all(Array.from({ length: count }, (_, i) => post(apps[i % apps.length]!, session, `${session}-${i}`, speaker)));
    for (const res of answers) assert.equal(res.statusCode, 201, res.body);
  };

  test('three concurrent posts by "Quinn" make one participant, and the name still resolves', async () => {
    await race('race-Quinn', 'Quinn', 3);
    const named = await apps[0]!.app.stores.graph.findParticipantsByName(tenant, 'Quinn');
    assert.equal(named.length, 1, `participants named Quinn: ${named.map((p) => p.id).join(', ')}`);
    const again = await post(apps[0]!, 'race-Quinn', 'race-Quinn-after', 'quinn');
    assert.equal(again.statusCode, 201, again.body);
    const transcript = await apps[0]!.app.inject({ method: 'GET', url: '/v1/sessions/race-Quinn/transcript', headers });
    assert.equal(transcript.statusCode, 200, transcript.body);
    const speakers = new Set((transcript.json() as { utterances: Array<{ speaker: { id: string } }> }).utterances.map((u) => u.speaker.id));
    assert.deepEqual([...speakers], [named[0]!.id]);
  });

  test('forty concurrent posts by "Zoe", across the servers, make one participant', async () => {
    await race('race-Zoe', 'Zoe', 40);
    const named = await apps[0]!.app.stores.graph.findParticipantsByName(tenant, 'Zoe');
    assert.equal(named.length, 1, `participants named Zoe: ${named.length}`);
    const found = await apps.at(-1)!.app.inject({ method: 'GET', url: '/v1/participants/Zoe', headers });
    assert.equal(found.statusCode, 200, found.body);
  });
});
