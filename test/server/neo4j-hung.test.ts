import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { deployments } from '../helpers/deployments.js';
import { freezingProxy, type FreezingProxy } from '../helpers/freezing-proxy.js';
import { waitFor } from '../helpers/topology.js';

const deployment = deployments('neo4j-hung').find((d) => d.networked)!;

/**
 * A Neo4j that accepts connections but answers nothing (a paused or hung process, here the test
 * server behind a relay that stops relaying, which is what a client sees of a SIGSTOPped one): a write
 * fails with 503 PARLEY_ERR_STORE_UNAVAILABLE after NEO4J_QUERY_TIMEOUT_MS instead of waiting for as long
 * as the server does, and once it answers again writes work and nothing acknowledged is lost.
 */
describe('a hung Neo4j', { skip: deployment.skip }, () => {
  let t: TestApp;
  let proxy: FreezingProxy;
  const { headers } = deployment;
  before(async () => {
    const target = new URL(process.env.NEO4J_URI!);
    proxy = await freezingProxy(target.hostname, Number(target.port || 7687));
    // bolt://, not neo4j://: a routing table would send the driver past the relay, to the server itself. The
    // deadline leaves a busy machine's ordinary writes ample time; the test waits it out once, while frozen.
    t = await startTestApp({ ...deployment.env, NEO4J_URI: `bolt://127.0.0.1:${proxy.port}`, NEO4J_QUERY_TIMEOUT_MS: '60000' }, false);
  });
  after(async () => {
    proxy?.thaw();
    await t?.close();
    await proxy?.close();
    await deployment.cleanup();
  });

  const post = (id: string, text: string) => t.app.inject({
    method: 'POST', url: '/v1/sessions/hung-neo4j/utterances', headers, payload: { utterances: [{ utterance_id: id, speaker: 'Ines', text }] },
  });
  const stored = async (): Promise<string[]> => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/sessions/hung-neo4j/transcript', headers });
    assert.equal(res.statusCode, 200, res.body);
    return (res.json() as { utterances: Array<{ id: string }> }).utterances.map((u) => u.id);
  };

  test('a write answers 503 PARLEY_ERR_STORE_UNAVAILABLE while it hangs; afterwards writes work and none acknowledged is lost', async () => {
    const first = await post('hung-1', 'I planted the tomatoes this morning.');
    assert.equal(first.statusCode, 201, first.body);

    proxy.freeze();
    const during = await post('hung-2', 'The basil comes next week.');
    assert.equal(during.statusCode, 503, during.body);
    assert.equal((during.json() as { error: { code: string } }).error.code, 'PARLEY_ERR_STORE_UNAVAILABLE');
    proxy.thaw();

    // The pool's connections recover as the server's held answers arrive; the first tries may still meet them.
    const after = await waitFor('a write after the server answers again', async () => {
      const res = await post('hung-3', 'The peppers went in on Sunday.');
      return res.statusCode === 201 ? res : undefined;
    }, 60_000);
    assert.equal(after.statusCode, 201, after.body);
    // The write answered 503 may be resent; it is then stored once.
    const resent = await post('hung-2', 'The basil comes next week.');
    assert.equal(resent.statusCode, 201, resent.body);
    assert.deepEqual((await stored()).sort(), ['hung-1', 'hung-2', 'hung-3']);
  });
});
