/**
 * PATCH /v1/participants/{ref} applies its merge patch to the attributes as stored at its write: a job's attribute
 * written after the route read the participant (a profile update, naming evidence) is not reverted.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { GraphStore } from '../../graph/graph-store.js';
import { CLIENT_KEYS } from '../../pipelines/interaction/participant-attributes.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

const KEY = `patch-race-key-${process.pid}`;
const TENANT = `patchrace${process.pid}`;

/**
 * Timing double on the app's real graph store: the first write of `id` the route makes (`updateParticipant` or
 * `updateParticipantAttributes`) is preceded by a job's write of `works_at` (its own key, atomically): the job lands
 * after the route's read and before its write. Returns how many times the job ran.
 */
function jobBeforeRouteWrite(graph: GraphStore, id: string): () => number {
  let runs = 0;
  for (const method of ['updateParticipant', 'updateParticipantAttributes'] as const) {
    const original = graph[method].bind(graph) as (...a: unknown[]) => Promise<unknown>;
    (graph as unknown as Record<string, unknown>)[method] = async (...args: unknown[]) => {
      if (runs === 0 && args[1] === id) {
        runs += 1;
        await graph.updateParticipantAttribute(TENANT, id, 'works_at', () => 'Hooli');
      }
      return original(...args);
    };
  }
  return () => runs;
}

describe('PATCH /v1/participants/{ref} and a concurrent job', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ PARLEY_API_KEYS: `${KEY}:${TENANT}` }, false);
  });
  after(async () => {
    await t.close();
  });

  test('an attribute a job wrote between the route\'s read and its write stays; the patch applies', async () => {
    const graph = t.app.stores.graph;
    const p = await graph.createParticipant(TENANT, { name: 'Ana', attributes: { city: 'Porto' } });
    const runs = jobBeforeRouteWrite(graph, p.id);
    const res = await t.app.inject({
      method: 'PATCH', url: `/v1/participants/${p.id}`, headers: { authorization: `Bearer ${KEY}` }, payload: { name: 'Anna', attributes: { tier: 'gold' } },
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(runs(), 1, 'the job ran between the read and the write');
    const stored = (await graph.getParticipant(TENANT, p.id))!;
    assert.equal(stored.name, 'Anna');
    assert.deepEqual(
      { tier: stored.attributes.tier, works_at: stored.attributes.works_at, city: stored.attributes.city },
      { tier: 'gold', works_at: 'Hooli', city: 'Porto' },
    );
    assert.deepEqual(stored.attributes[CLIENT_KEYS], ['tier'], 'only the patched key is the client\'s');
    assert.equal(res.json().attributes.works_at, 'Hooli', 'the response shows the participant as stored');
  });
});
