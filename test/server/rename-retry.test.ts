import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { tenantApp } from '../helpers/tenant-app.js';

/**
 * A rename rewrites the participant's memories after the name is stored: when that rewrite fails, the same PATCH sent
 * again must finish it (it used to see the name already set and return, leaving the old label in the memories for good).
 */
describe('a rename whose memory rewrite failed is finished by the PATCH sent again', () => {
  const api = tenantApp('renameretry', {});
  const { send } = api;

  test('the memory store fails once during the rewrite; the retry rewrites the memories', async () => {
    const { graph, memory } = api.t.app.stores;
    const bea = await graph.createParticipant(api.tenant, { name: 'Bea' });
    const at = new Date().toISOString();
    const [fact] = await memory.addFacts(api.tenant, [{
      content: 'Bea is learning to sail', speakerId: bea.id, subjectId: bea.id, addresseeIds: [], kind: 'preference', slot: null, value: null,
      time: at, referIds: [], validFrom: at, supersedes: null, confidence: 0.8, sessionId: 'rr-1', source: 'test',
    }]);
    // A failing seam: the store's write of a fact's text throws once, as a lost database connection would.
    const patchFact = memory.patchFact.bind(memory);
    let failures = 1;
    memory.patchFact = async (...args) => {
      if (failures-- > 0) throw new Error('store unavailable (test seam)');
      return patchFact(...args);
    };
    try {
      const first = await send('PATCH', `/v1/participants/${bea.id}`, { name: 'Beatrice' });
      assert.equal(first.statusCode, 500, first.body);
      assert.equal((await memory.getFact(api.tenant, fact!.id))?.content, 'Bea is learning to sail', 'the rewrite failed');
      assert.equal((await graph.getParticipant(api.tenant, bea.id))?.name, 'Beatrice', 'the name was stored before');
      const retry = await send('PATCH', `/v1/participants/${bea.id}`, { name: 'Beatrice' });
      assert.equal(retry.statusCode, 200, retry.body);
      assert.equal((await memory.getFact(api.tenant, fact!.id))?.content, 'Beatrice is learning to sail');
      assert.deepEqual(Object.keys(retry.json().attributes as object), [], 'the bookkeeping is not shown');
      assert.equal((await graph.getParticipant(api.tenant, bea.id))?.attributes['$pending_rename'], undefined, 'cleared once done');
    } finally {
      memory.patchFact = patchFact;
    }
  });
});
