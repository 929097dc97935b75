/**
 * A new number said to replace those of its kind ("my new order number is…") reads every number of that kind its
 * subject holds (`FactFilter.slotFamily`) through the slot index: the work does not grow with the subject's other facts.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { NewFact } from '../../graph/memory-store.js';
import { Neo4jMemoryStore } from '../../graph/neo4j/neo4j-memory-store.js';
import { hitsOf, operatorsOf, profiledReads, type ProfiledPlan } from '../helpers/neo4j-profile.js';
import { NEO4J_SKIP, neo4jTestOptions } from '../helpers/stores.js';

const at = (minute: number): string => new Date(Date.UTC(2026, 11, 5, 10, minute)).toISOString();

function said(minute: number, slot: string | null, value: string | null, content: string): NewFact {
  return { content, speakerId: 'p_ana', addresseeIds: [], subjectId: 'p_ana', kind: slot ? 'profile' : 'statement', slot, value,
    time: at(minute), referIds: [`u_${minute}`], validFrom: at(minute), supersedes: null, confidence: 0.9, sessionId: 's1', source: 'test/1' };
}

describe('Neo4j: the numbers of one kind by index', { skip: NEO4J_SKIP }, () => {
  test("listFacts by slot family seeks the slot index; its database hits do not grow with the subject's other facts", async () => {
    const store = new Neo4jMemoryStore(neo4jTestOptions('test-slot-family'));
    try {
      await store.init();
      await store.addFacts('t1', [said(0, 'order_number:45721', '45721', "Ana's order number is 45721"),
        said(1, 'order_number', '31337', "Ana's order number is 31337")]);
      const read = async (): Promise<ProfiledPlan> => {
        let found: string[] = [];
        const [plan] = await profiledReads(store, async () => {
          found = (await store.listFacts('t1', { subjectId: 'p_ana', slotFamily: 'order_number', limit: 50 })).map((f) => f.value ?? '');
        });
        assert.deepEqual(found.sort(), ['31337', '45721']);
        return plan!;
      };
      const before = await read();
      const operators = operatorsOf(before);
      assert.ok(!operators.some((o) => o.startsWith('NodeByLabelScan') || o.startsWith('AllNodesScan')), operators.join(' > '));
      await store.addFacts('t1', Array.from({ length: 60 }, (_, i) => said(2 + i, null, null, `Ana walked ${i + 1} laps`)));
      const after = await read();
      assert.ok(hitsOf(after) <= hitsOf(before) + 5, `db hits ${hitsOf(before)} with 2 facts, ${hitsOf(after)} with 60 more (${operatorsOf(after).join(' > ')})`);
    } finally {
      await store.eraseAll();
      await store.close();
    }
  });
});
