/** Derived attributes of temporary states are never served after the state ends: one accessor (`shownAttributes`) reads their steps at a time. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { NewFact } from '../../../graph/memory-store.js';
import { openDatabase } from '../../../graph/sqlite/database.js';
import { SqliteGraphStore } from '../../../graph/sqlite/sqlite-graph-store.js';
import { SqliteMemoryStore } from '../../../graph/sqlite/sqlite-memory-store.js';
import { keepClientKeysAfterMerge, rederiveAttributes } from '../../../pipelines/interaction/derived-attributes.js';
import { DERIVED_STEPS, OLD_DERIVED_STEPS, patchAttributes, shownAttributes, withDerived, withMergedSteps } from '../../../pipelines/interaction/participant-attributes.js';
import { participantView } from '../../../server/routes/views.js';

function stores() {
  const db = openDatabase(':memory:');
  return { graph: new SqliteGraphStore(db), memory: new SqliteMemoryStore(db) };
}

function said(subjectId: string, slot: string, value: string, time: string, validUntil: string | null = null): NewFact {
  return {
    content: `Ana ${slot} ${value}`, speakerId: subjectId, addresseeIds: [], subjectId, kind: 'profile', slot, value, time,
    referIds: ['u_1'], validFrom: time, supersedes: null, confidence: 0.9, sessionId: 's_1', source: 'test/1', validUntil,
  };
}

/**
 * Ana lives in Berkeley; on 1 June she says she is living in Lisbon until 1 July and staying in Madrid until 15 June;
 * on 5 June, living in Porto until 20 June. The attributes are worked out on `derivedAt`, and no sweep runs after.
 */
async function ana(derivedAt: string) {
  const { graph, memory } = stores();
  const p = await graph.createParticipant('t', { name: 'Ana' });
  await memory.addFacts('t', [
    said(p.id, 'lives_in', 'Berkeley', '2026-05-01T10:00:00.000Z'),
    said(p.id, 'lives_in', 'Lisbon', '2026-06-01T10:00:00.000Z', '2026-07-01T10:00:00.000Z'),
    said(p.id, 'staying_in', 'Madrid', '2026-06-01T10:00:00.000Z', '2026-06-15T10:00:00.000Z'),
    said(p.id, 'lives_in', 'Porto', '2026-06-05T10:00:00.000Z', '2026-06-20T10:00:00.000Z'),
  ]);
  await rederiveAttributes(graph, memory, 't', [{ participantId: p.id, slot: 'lives_in' }, { participantId: p.id, slot: 'staying_in' }], derivedAt);
  return (await graph.getParticipant('t', p.id))!;
}

describe('shownAttributes: an attribute whose temporary state has ended is read as what follows it', () => {
  test('while the states hold, the stays; the bookkeeping is never shown', async () => {
    const p = await ana('2026-06-10T00:00:00.000Z');
    assert.deepEqual(shownAttributes(p.attributes, '2026-06-10T00:00:00.000Z'), { lives_in: 'Porto', staying_in: 'Madrid' });
    assert.ok(DERIVED_STEPS in p.attributes, 'the steps are stored beside the attributes');
    assert.ok(!(OLD_DERIVED_STEPS in p.attributes), 'under the new key only');
  });

  test('after each end, with nothing run since: the value the state interrupted, then the home; an ended stay with none is gone', async () => {
    const p = await ana('2026-06-10T00:00:00.000Z');
    assert.deepEqual(shownAttributes(p.attributes, '2026-06-16T00:00:00.000Z'), { lives_in: 'Porto' });
    assert.deepEqual(shownAttributes(p.attributes, '2026-06-25T00:00:00.000Z'), { lives_in: 'Lisbon' });
    assert.deepEqual(shownAttributes(p.attributes, '2026-07-02T00:00:00.000Z'), { lives_in: 'Berkeley' });
  });

  test('GET /v1/participants (participantView, read now): a stay that ended in the past is not served as current', async () => {
    const p = await ana('2026-06-10T00:00:00.000Z');
    assert.equal(p.attributes.staying_in, 'Madrid', 'stored as worked out on 10 June');
    assert.deepEqual(participantView({ clock: Date.now }, p).attributes, { lives_in: 'Berkeley' });
    assert.deepEqual(participantView({ clock: () => Date.parse('2026-06-12T00:00:00.000Z') }, p).attributes, { lives_in: 'Porto', staying_in: 'Madrid' },
      'read at the app\'s clock');
  });

  test('a lasting value drops the recorded steps of its key; a value the client set stands whatever steps were recorded', async () => {
    const p = await ana('2026-06-10T00:00:00.000Z');
    const moved = withDerived(p.attributes, 'lives_in', 'Austin');
    assert.deepEqual(shownAttributes(moved, '2026-07-02T00:00:00.000Z'), { lives_in: 'Austin' });
    const { attributes } = patchAttributes(p.attributes, { lives_in: 'Home' });
    assert.deepEqual(shownAttributes(attributes, '2026-07-02T00:00:00.000Z'), { lives_in: 'Home' });
    assert.throws(() => patchAttributes(p.attributes, { [DERIVED_STEPS]: {} }), /reserved/);
    assert.throws(() => patchAttributes(p.attributes, { [OLD_DERIVED_STEPS]: {} }), /reserved/, 'the old key stays reserved');
  });

  test('attributes with no temporary state are returned as stored', () => {
    const attributes = { lives_in: 'Leeds', tier: 'gold' };
    assert.equal(shownAttributes(attributes, '2030-01-01T00:00:00.000Z'), attributes);
    assert.equal(withDerived(attributes, 'lives_in', 'Leeds'), attributes, 'nothing changes: the same object');
  });
});

describe('withMergedSteps: the recorded steps follow the value that survives a merge', () => {
  const stay = { staying_in: 'Madrid', [DERIVED_STEPS]: { staying_in: [{ from: '2026-06-15T10:00:00.000Z', value: null }] } };
  test("the merged-away person's stay, kept, keeps its end; one the survivor's own value replaced does not", () => {
    const kept = withMergedSteps({ ...stay, lives_in: 'Leeds' }, stay, { lives_in: 'Leeds' });
    assert.deepEqual(shownAttributes(kept, '2026-07-01T00:00:00.000Z'), { lives_in: 'Leeds' });
    const into = { staying_in: 'Rome' };
    const replaced = withMergedSteps({ ...stay, ...into }, stay, into);
    assert.deepEqual(shownAttributes(replaced, '2026-07-01T00:00:00.000Z'), { staying_in: 'Rome' });
    assert.ok(!(DERIVED_STEPS in replaced));
  });
});

describe('shownAttributes on attributes stored by earlier versions, and steps ahead', () => {
  test('stored before steps were recorded: read as stored; bookkeeping hidden', () => {
    const old = { lives_in: 'Lisbon', tier: 'gold', $client_keys: ['tier'], name_evidence: { x: 1 } };
    assert.deepEqual(shownAttributes(old, '2030-01-01T00:00:00.000Z'), { lives_in: 'Lisbon', tier: 'gold' });
  });
  test('$derived_ends as rules 28 stored them (at most four steps): each step from its time on, none before', () => {
    const old = {
      lives_in: 'Rome',
      [OLD_DERIVED_STEPS]: { lives_in: [
        { from: '2026-07-05T10:00:00.000Z', value: 'Oslo' }, { from: '2026-07-10T10:00:00.000Z', value: 'Vienna' },
        { from: '2026-07-15T10:00:00.000Z', value: 'Paris' }, { from: '2026-07-20T10:00:00.000Z', value: null },
      ] },
    };
    const at = (t: string): unknown => shownAttributes(old, t).lives_in;
    assert.equal(at('2026-07-05T09:59:59.999Z'), 'Rome', 'an end ahead changes nothing yet');
    assert.equal(at('2026-07-05T10:00:00.000Z'), 'Oslo', 'the end is exclusive');
    assert.equal(at('2026-07-12T00:00:00.000Z'), 'Vienna');
    assert.equal(at('2026-07-19T00:00:00.000Z'), 'Paris');
    assert.equal(at('2026-07-21T00:00:00.000Z'), undefined, 'a step to null removes the attribute');
  });
  test('malformed steps are skipped, never thrown on', () => {
    const odd = { diet: 'vegan', [DERIVED_STEPS]: { diet: [{ from: 'not a time', value: 'x' }, { from: '2026-01-01T00:00:00.000Z', value: 5 }, 'junk',
      { from: '2026-02-01T00:00:00.000Z', value: 'vegetarian' }], other: 'junk' } };
    assert.deepEqual(shownAttributes(odd, '2026-03-01T00:00:00.000Z'), { diet: 'vegetarian' });
  });
});

describe('a store written before $derived_steps: the steps under $derived_ends are read, and move on the next change', () => {
  const OLD_STEPS = { staying_in: [{ from: '2026-06-01T10:00:00.000Z', value: 'Madrid' }, { from: '2026-06-15T10:00:00.000Z', value: null }] };
  async function oldAna() {
    const { graph, memory } = stores();
    const p = await graph.createParticipant('t', { name: 'Ana', attributes: { staying_in: 'Madrid', [OLD_DERIVED_STEPS]: OLD_STEPS } });
    await memory.addFacts('t', [said(p.id, 'staying_in', 'Madrid', '2026-06-01T10:00:00.000Z', '2026-06-15T10:00:00.000Z')]);
    return { graph, memory, p };
  }

  test('read from the stored participant (participantView): the stay before its end, nothing after', async () => {
    const { p } = await oldAna();
    assert.deepEqual(participantView({ clock: () => Date.parse('2026-06-10T00:00:00.000Z') }, p).attributes, { staying_in: 'Madrid' });
    assert.deepEqual(participantView({ clock: () => Date.parse('2026-06-16T00:00:00.000Z') }, p).attributes, {});
  });

  test('the same steps worked out again: nothing written; other steps: written under the new key only, the old one gone', async () => {
    const { graph, memory, p } = await oldAna();
    const slots = [{ participantId: p.id, slot: 'staying_in' }];
    assert.deepEqual(await rederiveAttributes(graph, memory, 't', slots, '2026-06-10T00:00:00.000Z'), [], 'unchanged: the old record stands');
    await memory.addFacts('t', [said(p.id, 'staying_in', 'Rome', '2026-06-12T10:00:00.000Z', '2026-06-20T10:00:00.000Z')]);
    const [changed] = await rederiveAttributes(graph, memory, 't', slots, '2026-06-13T00:00:00.000Z');
    assert.ok(changed && DERIVED_STEPS in changed.attributes && !(OLD_DERIVED_STEPS in changed.attributes));
    assert.deepEqual(shownAttributes(changed.attributes, '2026-06-16T00:00:00.000Z'), { staying_in: 'Rome' });
    assert.deepEqual(shownAttributes(changed.attributes, '2026-06-21T00:00:00.000Z'), {});
  });

  test('merged away: the survivor keeps the old person\'s steps, under the new key', async () => {
    const { graph, p } = await oldAna();
    const into = await graph.createParticipant('t', { name: 'Ana B', attributes: { tier: 'gold' } });
    await graph.mergeParticipants('t', p.id, into.id);
    await keepClientKeysAfterMerge(graph, 't', p, into);
    const merged = (await graph.getParticipant('t', into.id))!;
    assert.ok(!(OLD_DERIVED_STEPS in merged.attributes));
    assert.deepEqual(shownAttributes(merged.attributes, '2026-06-10T00:00:00.000Z'), { staying_in: 'Madrid', tier: 'gold' });
    assert.deepEqual(shownAttributes(merged.attributes, '2026-06-16T00:00:00.000Z'), { tier: 'gold' });
  });
});
