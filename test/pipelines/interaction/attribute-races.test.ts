/**
 * No attribute write of a job reverts a client's PATCH landing between the job's read and its write (issue #17 item 4):
 * each job, on real SQLite, with the PATCH run at the moment of its write (`patchBeforeFirstWrite`, a timing double).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { NewFact, ProfileUpdate } from '../../../graph/memory-store.js';
import { openDatabase } from '../../../graph/sqlite/database.js';
import { SqliteGraphStore } from '../../../graph/sqlite/sqlite-graph-store.js';
import { SqliteMemoryStore } from '../../../graph/sqlite/sqlite-memory-store.js';
import { keepClientKeysAfterMerge, rederiveAttributes } from '../../../pipelines/interaction/derived-attributes.js';
import { CLIENT_KEYS, TAUGHT_NAMES } from '../../../pipelines/interaction/participant-attributes.js';
import { applyProfileUpdates } from '../../../pipelines/memory/profile-updates.js';
import { unlearnName } from '../../../pipelines/memory/revised-name.js';
import { patchBeforeFirstWrite } from '../../doubles/patch-before-write.js';

const T = 't_attr_races';

function stores() {
  const db = openDatabase(':memory:');
  return { graph: new SqliteGraphStore(db), memory: new SqliteMemoryStore(db), close: () => db.close() };
}

function said(subjectId: string, slot: string, value: string): NewFact {
  const time = '2026-05-01T10:00:00.000Z';
  return {
    content: `Ana ${slot} ${value}`, speakerId: subjectId, addresseeIds: [], subjectId, kind: 'profile', slot, value, time,
    referIds: ['u_1'], validFrom: time, supersedes: null, confidence: 0.9, sessionId: 's_1', source: 'test/1', validUntil: null,
  };
}

/** A profile update extraction gave. */
function update(participantId: string, attribute: string, value: string): ProfileUpdate {
  return { participantId, attribute, value, referIds: ['u_1'], confidence: 0.9 };
}

describe('rederiveAttributes and a concurrent PATCH', () => {
  test('a key PATCHed before the write stays, as the client\'s; the derived key is set', async () => {
    const { graph, memory, close } = stores();
    const p = await graph.createParticipant(T, { name: 'Ana', attributes: { city: 'Porto' } });
    await memory.addFacts(T, [said(p.id, 'lives_in', 'Lisbon')]);
    const racing = patchBeforeFirstWrite(graph, T, p.id, { tier: 'gold' });
    const [changed] = await rederiveAttributes(racing.graph, memory, T, [{ participantId: p.id, slot: 'lives_in' }]);
    assert.equal(racing.patches(), 1, 'the PATCH ran between the read and the write');
    const stored = (await graph.getParticipant(T, p.id))!;
    assert.equal(stored.attributes.tier, 'gold');
    assert.deepEqual(stored.attributes[CLIENT_KEYS], ['tier']);
    assert.equal(stored.attributes.lives_in, 'Lisbon');
    assert.equal(stored.attributes.city, 'Porto');
    assert.deepEqual(changed?.attributes, stored.attributes, 'returned as stored');
    close();
  });

  test('the derived key itself PATCHed before the write: the client\'s value stands', async () => {
    const { graph, memory, close } = stores();
    const p = await graph.createParticipant(T, { name: 'Ana' });
    await memory.addFacts(T, [said(p.id, 'lives_in', 'Lisbon')]);
    const racing = patchBeforeFirstWrite(graph, T, p.id, { lives_in: 'Home' });
    const changed = await rederiveAttributes(racing.graph, memory, T, [{ participantId: p.id, slot: 'lives_in' }]);
    assert.equal(racing.patches(), 1);
    assert.equal((await graph.getParticipant(T, p.id))!.attributes.lives_in, 'Home');
    assert.deepEqual(changed, [], 'nothing of its own was written');
    close();
  });
});

describe('applyProfileUpdates and a concurrent PATCH', () => {
  test('the PATCHed key stays; the name, the taught record and the derived key are set', async () => {
    const { graph, close } = stores();
    const p = await graph.createParticipant(T, { attributes: { city: 'Porto' } });
    const racing = patchBeforeFirstWrite(graph, T, p.id, { tier: 'gold' });
    await applyProfileUpdates(racing.graph, T, [
      update(p.id, 'name', 'Ana'), update(p.id, 'works_at', 'Hooli'),
    ]);
    assert.equal(racing.patches(), 1);
    const stored = (await graph.getParticipant(T, p.id))!;
    assert.equal(stored.name, 'Ana');
    assert.equal(stored.attributes.tier, 'gold');
    assert.equal(stored.attributes.works_at, 'Hooli');
    assert.equal(stored.attributes.city, 'Porto');
    assert.deepEqual(stored.attributes[TAUGHT_NAMES], ['ana']);
    close();
  });

  test('two jobs of one participant at once: both derived keys are kept', async () => {
    const { graph, close } = stores();
    const p = await graph.createParticipant(T, { name: 'Ana' });
    await Promise.all([
      applyProfileUpdates(graph, T, [update(p.id, 'works_at', 'Hooli')]),
      applyProfileUpdates(graph, T, [update(p.id, 'lives_in', 'Lisbon')]),
    ]);
    const stored = (await graph.getParticipant(T, p.id))!;
    assert.deepEqual([stored.attributes.works_at, stored.attributes.lives_in], ['Hooli', 'Lisbon']);
    close();
  });
});

describe('unlearnName and a concurrent PATCH', () => {
  test('the PATCHed key stays; the taught name is taken back and no longer recorded', async () => {
    const { graph, memory, close } = stores();
    const p = await graph.createParticipant(T, { name: 'Ana', attributes: { [TAUGHT_NAMES]: ['ana', 'annie'] } });
    const [gone] = await memory.addFacts(T, [said(p.id, 'name', 'Ana')]);
    const racing = patchBeforeFirstWrite(graph, T, p.id, { tier: 'gold' });
    await unlearnName({ graph: racing.graph, memory }, T, gone!);
    assert.equal(racing.patches(), 1);
    const stored = (await graph.getParticipant(T, p.id))!;
    assert.equal(stored.name, null);
    assert.equal(stored.attributes.tier, 'gold');
    assert.deepEqual(stored.attributes[TAUGHT_NAMES], ['annie']);
    close();
  });
});

describe('keepClientKeysAfterMerge and a PATCH of the survivor', () => {
  test('the PATCHed key stays, as the client\'s, beside the merged-away person\'s client key', async () => {
    const { graph, close } = stores();
    const from = await graph.createParticipant(T, { name: 'Ana', attributes: { pet: 'cat', [CLIENT_KEYS]: ['pet'], [TAUGHT_NAMES]: ['ana'] } });
    const into = await graph.createParticipant(T, { name: 'Grace', attributes: { city: 'Porto' } });
    await graph.mergeParticipants(T, from.id, into.id);
    const racing = patchBeforeFirstWrite(graph, T, into.id, { tier: 'gold' });
    await keepClientKeysAfterMerge(racing.graph, T, from, into);
    assert.equal(racing.patches(), 1);
    const stored = (await graph.getParticipant(T, into.id))!;
    assert.equal(stored.attributes.tier, 'gold');
    assert.deepEqual(stored.attributes[CLIENT_KEYS], ['pet', 'tier']);
    assert.deepEqual(stored.attributes[TAUGHT_NAMES], ['ana']);
    assert.equal(stored.attributes.city, 'Porto');
    close();
  });
});
