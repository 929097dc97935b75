import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Neo4jMemoryStore } from '../../graph/neo4j/neo4j-memory-store.js';
import { addEvidence, firstEvidence, MAX_EVIDENCE_IDS, mergeStates, stateProps } from '../../graph/neo4j/neo4j-persona.js';
import type { PersonaEvidence } from '../../graph/memory-store.js';
import { memoryStoreContract } from './contracts/memory-store.contract.js';
import { closedPort, NEO4J_SKIP, neo4jTestOptions, storeUnavailable } from '../helpers/stores.js';


memoryStoreContract('neo4j', async () => {
  // A unique tenant prefix per fixture keeps runs apart in one database; clean-up erases it.
  const store = new Neo4jMemoryStore(neo4jTestOptions('test-mem'));
  await store.init();
  return { store, dispose: async () => { await store.eraseAll(); await store.close(); } };
}, NEO4J_SKIP);

function evidence(over: Partial<PersonaEvidence>): PersonaEvidence {
  return {
    participantId: 'p_a', kind: 'affect', target: 'jazz', valence: 1, label: 'joy', strength: 0.5,
    utteranceId: 'u_0', sessionId: 's_1', time: '2026-01-01T00:00:00.000Z', ...over,
  };
}

describe('Neo4j persona state (computed in the client before writing)', () => {
  test('running means, dominant label, distinct sessions, first/last seen', () => {
    let s = firstEvidence(evidence({}));
    s = addEvidence(s, evidence({ valence: 0, label: 'anger', strength: 1, utteranceId: 'u_1', sessionId: 's_2', time: '2025-12-31T00:00:00.000Z' }));
    s = addEvidence(s, evidence({ valence: 0.5, label: 'anger', utteranceId: 'u_2', time: '2026-01-05T00:00:00.000Z' }));
    assert.equal(s.evidenceCount, 3);
    assert.ok(Math.abs(s.valence - 0.5) < 1e-12);
    assert.ok(Math.abs(s.strength - 2 / 3) < 1e-12);
    assert.deepEqual(s.sessionIds, ['s_1', 's_2']);
    assert.equal(s.firstSeen, '2025-12-31T00:00:00.000Z');
    assert.equal(s.lastSeen, '2026-01-05T00:00:00.000Z');
    const props = stateProps(s);
    assert.equal(props.label, 'anger');
    assert.deepEqual(JSON.parse(String(props.labels)), { joy: 1, anger: 2 });
  });

  test('evidence ids are capped at the newest 50, also when nodes merge', () => {
    let s = firstEvidence(evidence({ utteranceId: 'u_0' }));
    for (let i = 1; i < 60; i++) s = addEvidence(s, evidence({ utteranceId: `u_${i}` }));
    assert.equal(s.evidenceIds.length, MAX_EVIDENCE_IDS);
    assert.equal(s.evidenceIds[0], 'u_10');
    assert.equal(s.evidenceIds.at(-1), 'u_59');
    const other = firstEvidence(evidence({ utteranceId: 'v_0', valence: -1, sessionId: 's_9' }));
    const merged = mergeStates(s, { ...other, stable: true });
    assert.equal(merged.evidenceCount, 61);
    assert.equal(merged.evidenceIds.length, MAX_EVIDENCE_IDS);
    assert.equal(merged.evidenceIds.at(-1), 'v_0');
    assert.ok(Math.abs(merged.valence - 59 / 61) < 1e-12);
    assert.equal(merged.stable, true);
    assert.deepEqual(merged.sessionIds, ['s_1', 's_9']);
  });
});

describe('Neo4j memory store outage', () => {
  test('an unreachable server reports not ready and writes fail with a retryable error naming NEO4J_URI', async () => {
    const port = await closedPort();
    const store = new Neo4jMemoryStore({ uri: `bolt://127.0.0.1:${port}`, user: 'neo4j', password: 'x', maxRetryMs: 300, readyTimeoutMs: 1000 });
    try {
      assert.equal(await store.ready(), false);
      await assert.rejects(store.markProcessed('t1', 'u_1', ['f_1']), storeUnavailable('NEO4J_URI'));
    } finally {
      await store.close();
    }
  });
});
