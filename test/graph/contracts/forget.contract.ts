/**
 * What forgetting utterances and sessions (`DELETE /v1/utterances/{id}`, `DELETE /v1/sessions/{id}`) needs of the graph
 * and memory stores, shared by every backend. Import `forgetContract` and call it with a factory.
 */
import assert from 'node:assert/strict';
import { afterEach, beforeEach, test } from 'node:test';
import type { GraphStore, NewUtterance } from '../../../graph/graph-store.js';
import type { MemoryStore, NewFact, PersonaEvidence } from '../../../graph/memory-store.js';
import { contractSuite } from './contract-suite.js';

export interface ForgetStoresFixture {
  graph: GraphStore;
  memory: MemoryStore;
  cleanup(): Promise<void>;
}

function say(sessionId: string, speakerId: string, text: string, addresseeIds: string[] = []): NewUtterance {
  return { sessionId, speakerId, text, addresseeIds, startMs: null, endMs: null, time: '2026-11-01T10:00:00.000Z', confidence: null, audioRef: null };
}

function fact(referIds: string[], content: string): NewFact {
  return {
    content, speakerId: 'p_ana', addresseeIds: [], subjectId: 'p_ana', kind: 'profile', slot: null, value: null,
    time: '2026-11-01T10:00:00.000Z', referIds, validFrom: '2026-11-01T10:00:00.000Z', supersedes: null, confidence: 0.9,
    sessionId: 's1', source: 'test/forget',
  };
}

function felt(target: string, utteranceId: string, sessionId: string, strength: number): PersonaEvidence {
  return { participantId: 'p_ana', kind: 'preference', target, valence: -0.8, label: null, strength, utteranceId, sessionId, time: '2026-11-01T10:00:00.000Z' };
}

/** Run the contract against the stores `factory` builds. `skip` names why it cannot run here. */
export function forgetContract(name: string, factory: () => Promise<ForgetStoresFixture>, skip?: string): void {
  contractSuite(`forget stores contract: ${name}`, skip, () => {
    let fx: ForgetStoresFixture;
    beforeEach(async () => {
      fx = await factory();
    });
    afterEach(async () => {
      await fx.cleanup();
    });

    test('deleteUtterances removes the utterances and their edges, leaves the rest, and never reuses a seq', async () => {
      const { graph } = fx;
      await graph.openSession('t1', 's1', '2026-11-01T10:00:00.000Z');
      const ana = await graph.createParticipant('t1', { name: 'Ana' });
      const ben = await graph.createParticipant('t1', { name: 'Ben' });
      const [a, b, c] = await graph.addUtterances('t1', [
        say('s1', ana.id, 'forget this one', [ben.id]), say('s1', ben.id, 'this stays', [ana.id]), say('s1', ana.id, 'and this', [ben.id]),
      ]);
      assert.deepEqual(await graph.deleteUtterances('t1', [c!.id, 'u_unknown']), [c!.id]);
      assert.deepEqual(await graph.deleteUtterances('t2', [a!.id]), [], 'another tenant holds none of them');
      assert.deepEqual(await graph.deleteUtterances('t1', [a!.id]), [a!.id]);
      assert.deepEqual(await graph.deleteUtterances('t1', [a!.id]), [], 'a repeat finds nothing');
      assert.deepEqual((await graph.getTranscript('t1', 's1')).map((u) => u.text), ['this stays']);
      assert.deepEqual((await graph.queryInteractions('t1', { addresseeId: ben.id })).map((u) => u.id), [], 'no edge to Ben is left');
      assert.deepEqual((await graph.queryInteractions('t1', { addresseeId: ana.id })).map((u) => u.id), [b!.id]);
      const [d] = await graph.addUtterances('t1', [say('s1', ana.id, 'later')]);
      assert.equal(d!.seq, 4, 'the next turn takes a number no erased one had');
      assert.ok(await graph.getParticipant('t1', ana.id), 'the speaker stays');
    });

    test('deleteSession removes the session record once; its utterances are the caller\'s to delete first', async () => {
      const { graph } = fx;
      await graph.openSession('t1', 's1', '2026-11-01T10:00:00.000Z');
      await graph.updateSession('t1', 's1', { metadata: { room: 'kitchen' }, lastEventSeq: 7 });
      assert.equal(await graph.deleteSession('t2', 's1'), false);
      assert.equal(await graph.deleteSession('t1', 's1'), true);
      assert.equal(await graph.getSession('t1', 's1'), null);
      assert.equal(await graph.deleteSession('t1', 's1'), false);
    });

    test('factsFromUtterances: every fact, history included, that names one of the ids among its sources', async () => {
      const { memory } = fx;
      const [one, two, other] = await memory.addFacts('t1', [fact(['u_1'], 'Ana keeps bees'), fact(['u_1', 'u_2'], 'Ana lives in Porto'), fact(['u_3'], 'Ana plays chess')]);
      await memory.closeFact('t1', one!.id, '2026-11-02T10:00:00.000Z', null);
      assert.deepEqual((await memory.factsFromUtterances('t1', ['u_1'])).map((f) => f.id).sort(), [one!.id, two!.id].sort());
      assert.deepEqual((await memory.factsFromUtterances('t1', ['u_2', 'u_3'])).map((f) => f.id).sort(), [two!.id, other!.id].sort());
      assert.deepEqual(await memory.factsFromUtterances('t2', ['u_1']), [], 'per tenant');
      assert.deepEqual(await memory.factsFromUtterances('t1', []), []);
    });

    test('forgetPersonaEvidence: a node only from forgotten utterances goes; another keeps its other evidence', async () => {
      const { memory } = fx;
      const boss = await memory.addPersonaEvidence('t1', felt('my boss', 'u_1', 's1', 0.9));
      await memory.addPersonaEvidence('t1', felt('mondays', 'u_1', 's1', 0.6));
      await memory.addPersonaEvidence('t1', felt('mondays', 'u_2', 's2', 0.4));
      await memory.addPersonaEvidence('t1', felt('rain', 'u_3', 's1', 0.5));
      const other = await memory.addPersonaEvidence('t2', felt('my boss', 'u_1', 's1', 0.9));

      const forgotten = await memory.forgetPersonaEvidence('t1', ['u_1'], []);
      assert.deepEqual(forgotten.deletedIds, [boss.id]);
      const left = new Map((await memory.listPersona('t1', 'p_ana')).map((n) => [n.target, n]));
      assert.deepEqual([...left.keys()].sort(), ['mondays', 'rain']);
      const mondays = left.get('mondays')!;
      assert.deepEqual(forgotten.keptIds, [mondays.id]);
      assert.deepEqual([mondays.evidenceIds, mondays.evidenceCount], [['u_2'], 1]);
      assert.deepEqual(mondays.sessionIds.sort(), ['s1', 's2'], 'one utterance forgotten leaves its session (other turns of it may remain)');
      assert.ok(Math.abs(mondays.strength - 0.5) < 1e-9, 'strength is a mean of values not stored: kept');
      assert.equal((await memory.listPersona('t2', 'p_ana'))[0]?.id, other.id, 'per tenant');
      assert.deepEqual(await memory.forgetPersonaEvidence('t1', ['u_1'], []), { deletedIds: [], keptIds: [] }, 'a repeat finds nothing');

      // A forgotten session leaves `sessionIds`; a node whose every session was forgotten goes.
      const session = await memory.forgetPersonaEvidence('t1', ['u_3'], ['s1']);
      assert.deepEqual(session.deletedIds, [left.get('rain')!.id]);
      assert.deepEqual((await memory.listPersona('t1', 'p_ana')).map((n) => [n.target, n.sessionIds]), [['mondays', ['s2']]]);
    });
  });
}
