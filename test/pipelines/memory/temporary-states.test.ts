import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import type { Fact, NewFact } from '../../../graph/memory-store.js';
import { openDatabase } from '../../../graph/sqlite/database.js';
import { SqliteGraphStore } from '../../../graph/sqlite/sqlite-graph-store.js';
import { SqliteMemoryStore } from '../../../graph/sqlite/sqlite-memory-store.js';
import { rederiveAttributes } from '../../../pipelines/interaction/derived-attributes.js';
import type { Candidate, Decision } from '../../../pipelines/memory/decide.js';
import { shownAttributes } from '../../../pipelines/interaction/participant-attributes.js';
import { closeInterrupted, decideWithStays, ownEnd, recordStateSteps } from '../../../pipelines/memory/temporary-states.js';

function stores() {
  const db = openDatabase(':memory:');
  return { graph: new SqliteGraphStore(db), memory: new SqliteMemoryStore(db) };
}

function said(subjectId: string, value: string, time: string, validUntil: string | null = null): NewFact {
  return {
    content: validUntil ? `Ana is living in ${value} for a month` : `Ana lives in ${value}`, speakerId: subjectId, addresseeIds: [],
    subjectId, kind: 'profile', slot: 'lives_in', value, time, referIds: ['u_1'], validFrom: time, supersedes: null,
    confidence: 0.9, sessionId: 's_1', source: 'test/1', validUntil,
  };
}

describe('decideWithStays: a stay is stored beside the home, never replacing it; a lasting value outlasts a stay', () => {
  const fact = (over: Partial<Fact>): Fact => ({ id: 'f_home', slot: 'lives_in', validUntil: null, ...over }) as Fact;
  const home: Candidate = { fact: fact({}), score: 0.8 };
  const stay: Candidate = { fact: fact({ id: 'f_stay', validUntil: '2026-07-01T10:00:00.000Z' }), score: 0.8 };
  const update = (targetId: string): Decision => ({ op: 'UPDATE', targetId });

  test('an UPDATE of a lasting value by a state with an end becomes an ADD', () => {
    assert.deepEqual(decideWithStays(update('f_home'), '2026-07-01T10:00:00.000Z', [home]), { op: 'ADD' });
  });
  test('a KEEP of a stay by a lasting fact of its value becomes an UPDATE of the stay', () => {
    assert.deepEqual(decideWithStays({ op: 'KEEP', targetId: 'f_stay' }, null, [stay]), update('f_stay'));
    assert.deepEqual(decideWithStays({ op: 'KEEP', targetId: 'f_stay' }, '2026-07-01T10:00:00.000Z', [stay]), { op: 'KEEP', targetId: 'f_stay' },
      'the stay said again stays a stay');
  });
  test('a stay replaces a stay; a lasting value replaces anything; other decisions pass', () => {
    assert.deepEqual(decideWithStays(update('f_stay'), '2026-08-01T10:00:00.000Z', [stay]), update('f_stay'));
    assert.deepEqual(decideWithStays(update('f_home'), null, [home]), update('f_home'));
    assert.deepEqual(decideWithStays({ op: 'KEEP', targetId: 'f_home' }, '2026-07-01T10:00:00.000Z', [home]), { op: 'KEEP', targetId: 'f_home' });
    assert.deepEqual(decideWithStays(update('f_home'), '2026-07-01T10:00:00.000Z', [{ fact: fact({ slot: null }), score: 0.9 }]), update('f_home'),
      'an unslotted fact is no home');
  });
  test('ownEnd: the extractor\'s end when it gave one, else read from the words', () => {
    assert.equal(ownEnd({ content: "I'm living in Lisbon for a month", validUntil: null }, '2026-06-01T10:00:00.000Z'), null);
    assert.equal(ownEnd({ content: "Ana is living in Lisbon for a month" }, '2026-06-01T10:00:00.000Z'), '2026-07-01T10:00:00.000Z');
    assert.equal(ownEnd({ content: 'Ana lives in Lisbon' }, '2026-06-01T10:00:00.000Z'), null);
  });
});

describe('derived attributes record what follows each temporary state', () => {
  test('rederiveAttributes at a time: the newest value that still holds then', async () => {
    const { graph, memory } = stores();
    const ana = await graph.createParticipant('t', { name: 'Ana' });
    await memory.addFacts('t', [said(ana.id, 'Berkeley', '2026-05-01T10:00:00.000Z'), said(ana.id, 'Lisbon', '2026-06-01T10:00:00.000Z', '2026-07-01T10:00:00.000Z')]);
    const slots = [{ participantId: ana.id, slot: 'lives_in' }];
    await rederiveAttributes(graph, memory, 't', slots, '2026-06-15T00:00:00.000Z');
    assert.equal((await graph.getParticipant('t', ana.id))?.attributes.lives_in, 'Lisbon');
    const changed = await rederiveAttributes(graph, memory, 't', slots, '2026-07-01T10:00:00.000Z');
    assert.equal(changed[0]?.attributes.lives_in, 'Berkeley', 'the end is exclusive: at it the stay holds no more');
  });

  test('recordStateSteps: attributes stored the old way (no steps recorded, left to a sweep) read right at every later time', async () => {
    const { graph, memory } = stores();
    const ana = await graph.createParticipant('t', { name: 'Ana' });
    const ben = await graph.createParticipant('t', { name: 'Ben' });
    const cy = await graph.createParticipant('t', { name: 'Cy' });
    await memory.addFacts('t', [
      said(ana.id, 'Berkeley', '2026-05-01T10:00:00.000Z'), said(ana.id, 'Lisbon', '2026-06-01T10:00:00.000Z', '2026-07-01T10:00:00.000Z'),
      said(ben.id, 'Oslo', '2026-06-01T10:00:00.000Z', '2026-07-10T10:00:00.000Z'), said(cy.id, 'Leeds', '2026-05-01T10:00:00.000Z'),
    ]);
    // As a build before recorded ends stored them, the client's own key beside them.
    await graph.updateParticipant('t', ana.id, { attributes: { lives_in: 'Lisbon', tier: 'gold', $client_keys: ['tier'] } });
    await graph.updateParticipant('t', ben.id, { attributes: { lives_in: 'Oslo' } });
    await graph.updateParticipant('t', cy.id, { attributes: { lives_in: 'Leeds' } });
    assert.equal(await recordStateSteps({ graph, memory }, 't', '2026-06-15T00:00:00.000Z'), 2, 'Ana and Ben; Cy has no temporary state');
    const read = async (id: string, at: string) => shownAttributes((await graph.getParticipant('t', id))!.attributes, at);
    assert.deepEqual(await read(ana.id, '2026-06-20T00:00:00.000Z'), { lives_in: 'Lisbon', tier: 'gold' });
    assert.deepEqual(await read(ana.id, '2026-07-05T00:00:00.000Z'), { lives_in: 'Berkeley', tier: 'gold' }, 'nothing stored was lost');
    assert.deepEqual(await read(ben.id, '2026-07-05T00:00:00.000Z'), { lives_in: 'Oslo' });
    assert.deepEqual(await read(ben.id, '2026-07-15T00:00:00.000Z'), {}, 'no value left: the attribute goes');
    assert.deepEqual(await read(cy.id, '2030-01-01T00:00:00.000Z'), { lives_in: 'Leeds' });
    assert.equal(await recordStateSteps({ graph, memory }, 't', '2026-06-15T00:00:00.000Z'), null, 'once per store: it ran');
  });

  test('a chain of five temporary states one after the other is recorded whole (no job runs at any end)', async () => {
    const { graph, memory } = stores();
    const ana = await graph.createParticipant('t', { name: 'Ana' });
    // Each stay said later and ending earlier than the one before: Rome inside Oslo inside … inside Lisbon, home Berkeley.
    const stays: [string, string][] = [['Lisbon', '2026-08-01'], ['Madrid', '2026-07-25'], ['Paris', '2026-07-20'], ['Vienna', '2026-07-15'], ['Oslo', '2026-07-10'], ['Rome', '2026-07-05']];
    await memory.addFacts('t', [said(ana.id, 'Berkeley', '2026-05-01T10:00:00.000Z'),
      ...stays.map(([city, end], i) => said(ana.id, city, `2026-06-0${i + 1}T10:00:00.000Z`, `${end}T10:00:00.000Z`))]);
    await rederiveAttributes(graph, memory, 't', [{ participantId: ana.id, slot: 'lives_in' }], '2026-06-20T00:00:00.000Z');
    const stored = (await graph.getParticipant('t', ana.id))!.attributes;
    const at = (day: string): unknown => shownAttributes(stored, `${day}T12:00:00.000Z`).lives_in;
    assert.deepEqual(['2026-06-20', '2026-07-06', '2026-07-11', '2026-07-16', '2026-07-21', '2026-07-26', '2026-08-02'].map(at),
      ['Rome', 'Oslo', 'Vienna', 'Paris', 'Madrid', 'Lisbon', 'Berkeley']);
  });

  test('closeInterrupted: a lasting value after a stay closes the homes the stay had interrupted, and only then', async () => {
    const { memory } = stores();
    const [home, stay, other] = await memory.addFacts('t', [
      said('p_ana', 'Berkeley', '2026-05-01T10:00:00.000Z'), said('p_ana', 'Lisbon', '2026-06-01T10:00:00.000Z', '2026-07-01T10:00:00.000Z'),
      said('p_ana', 'Rome', '2026-06-02T10:00:00.000Z', '2026-06-20T10:00:00.000Z'),
    ]);
    const [porto] = await memory.addFacts('t', [said('p_ana', 'Porto', '2026-08-01T10:00:00.000Z')]);
    assert.ok(home && stay && other && porto);
    assert.deepEqual(await closeInterrupted(memory, 't', home, porto, porto.time), [], 'replacing a lasting value closes nothing more');
    const closed = await closeInterrupted(memory, 't', stay, porto, porto.time);
    assert.deepEqual(closed.map((f) => [f.value, f.validTo, f.supersededBy]), [['Berkeley', porto.time, porto.id]]);
    assert.equal((await memory.getFact('t', other.id))?.validTo, null, 'another stay is left to end on its own');
  });
});

describe('recordStateSteps runs once per store and tenant (the jobs call it at every start)', () => {
  /** The memory store with its `listFacts` calls counted: what a start reads of the facts. */
  function counted(memory: SqliteMemoryStore): { memory: SqliteMemoryStore; reads: () => number } {
    let reads = 0;
    const listFacts = memory.listFacts.bind(memory);
    memory.listFacts = async (...args) => { reads += 1; return listFacts(...args); };
    return { memory, reads: () => reads };
  }

  test('a second start walks no facts; another tenant of the store still migrates', async () => {
    const { graph, memory: inner } = stores();
    const { memory, reads } = counted(inner);
    const ana = await graph.createParticipant('t', { name: 'Ana' });
    await memory.addFacts('t', [said(ana.id, 'Lisbon', '2026-06-01T10:00:00.000Z', '2026-07-01T10:00:00.000Z')]);
    await graph.updateParticipant('t', ana.id, { attributes: { lives_in: 'Lisbon' } });
    assert.equal(await recordStateSteps({ graph, memory }, 't', '2026-06-15T00:00:00.000Z'), 1);
    const first = reads();
    assert.ok(first > 0, 'the first start reads the facts');
    assert.equal(await recordStateSteps({ graph, memory }, 't', '2026-06-15T00:00:00.000Z'), null);
    assert.equal(reads(), first, 'the second start reads none');
    assert.equal(await recordStateSteps({ graph, memory }, 'u', '2026-06-15T00:00:00.000Z'), 0, 'tenant u: its own run');
    assert.ok(reads() > first);
  });

  test('a store written by a build before the migration record (no such table) migrates on its first start, then never again', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'parley-state-steps-'));
    try {
      const file = path.join(dir, 'parley.db');
      const old = openDatabase(file);
      const graph = new SqliteGraphStore(old);
      const ana = await graph.createParticipant('t', { name: 'Ana' });
      await new SqliteMemoryStore(old).addFacts('t', [said(ana.id, 'Lisbon', '2026-06-01T10:00:00.000Z', '2026-07-01T10:00:00.000Z')]);
      await graph.updateParticipant('t', ana.id, { attributes: { lives_in: 'Lisbon' } });
      old.exec('DROP TABLE memory_migrations');
      old.close();
      for (const expected of [1, null]) {
        const db = openDatabase(file);
        const start = { graph: new SqliteGraphStore(db), memory: new SqliteMemoryStore(db) };
        assert.equal(await recordStateSteps(start, 't', '2026-06-15T00:00:00.000Z'), expected);
        db.close();
      }
      const db = openDatabase(file);
      const stored = (await new SqliteGraphStore(db).getParticipant('t', ana.id))!;
      db.close();
      assert.deepEqual(shownAttributes(stored.attributes, '2026-07-05T00:00:00.000Z'), {}, 'the stay ended: its steps were recorded');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
