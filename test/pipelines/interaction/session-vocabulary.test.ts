import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { openDatabase } from '../../../graph/sqlite/database.js';
import { SqliteGraphStore } from '../../../graph/sqlite/sqlite-graph-store.js';
import { SessionVocabulary } from '../../../pipelines/interaction/session-vocabulary.js';

const T = 't_vocab';

/** Make a participant, then let the clock move on, so 'most recently updated' is defined (the store orders ties by id). */
async function make(graph: SqliteGraphStore, init: Parameters<SqliteGraphStore['createParticipant']>[1]): Promise<Awaited<ReturnType<SqliteGraphStore['createParticipant']>>> {
  const p = await graph.createParticipant(T, init);
  await new Promise((resolve) => setTimeout(resolve, 2));
  return p;
}

/** A tenant of `count` named callers (Caller0 … CallerN, the last made most recently updated), plus the store. */
async function tenant(count: number): Promise<{ graph: SqliteGraphStore; close: () => void }> {
  const db = openDatabase(':memory:');
  const graph = new SqliteGraphStore(db);
  for (let i = 0; i < count; i++) await make(graph, { name: `Caller${i} Surname` });
  return { graph, close: () => db.close() };
}

describe('SessionVocabulary: the names a session\'s recogniser listens for', () => {
  test('the session\'s named speakers and addressees come before the tenant\'s recently named participants', async () => {
    const { graph, close } = await tenant(150);
    // Two people of this session, named long ago: the tenant's 150 callers were all updated since.
    const grace = (await graph.listParticipants(T)).find((p) => p.name === 'Caller0 Surname')!;
    const robert = await make(graph, { name: 'Robert Doe', aliases: ['Bob'] });
    for (let i = 150; i < 300; i++) await make(graph, { name: `Caller${i} Surname` });
    const vocabulary = new SessionVocabulary(graph, T, { max: 100 });
    assert.equal(vocabulary.heard([{ id: grace.id, name: grace.name }, { id: robert.id, name: robert.name }]), true);
    const names = await vocabulary.names();
    assert.deepEqual(names.slice(0, 3), ['caller0', 'robert', 'bob'], 'speaker, then addressee (name and alias)');
    assert.equal(names.length, 100);
    assert.deepEqual(names.slice(3, 6), ['caller299', 'caller298', 'caller297'], 'then the tenant, most recently updated first');
    close();
  });

  test('a participant merged mid-call is replaced by the survivor in its place (reviewC R2)', () => {
    const vocabulary = new SessionVocabulary(new SqliteGraphStore(openDatabase(':memory:')), T);
    vocabulary.heard([{ id: 'p_a', name: null }, { id: 'p_b', name: null }, { id: 'p_c', name: null }]);
    assert.deepEqual(vocabulary.sessionPeople(), ['p_a', 'p_b', 'p_c']);
    assert.equal(vocabulary.merged('p_b', 'p_z'), true);
    assert.deepEqual(vocabulary.sessionPeople(), ['p_a', 'p_z', 'p_c'], 'the survivor takes its place');
    assert.equal(vocabulary.merged('p_c', 'p_a'), true);
    assert.deepEqual(vocabulary.sessionPeople(), ['p_a', 'p_z'], 'a survivor already among them is kept once');
    assert.equal(vocabulary.merged('p_q', 'p_a'), false, 'someone not of the session changes nothing');
  });

  test('the session\'s people are read in one call, however many there are, in the order heard', async () => {
    const { graph, close } = await tenant(0);
    const people = [];
    for (let i = 0; i < 6; i++) people.push(await make(graph, { name: `Person${i}` }));
    const reads = { one: 0, many: 0 };
    const counted = new Proxy(graph, {
      get(target, key, receiver) {
        if (key === 'getParticipant') reads.one++;
        if (key === 'getParticipants') reads.many++;
        const v = Reflect.get(target, key, receiver) as unknown;
        return typeof v === 'function' ? v.bind(target) : v;
      },
    });
    const vocabulary = new SessionVocabulary(counted, T, { max: 20, tenantNames: 0 });
    vocabulary.heard(people.map((p) => ({ id: p.id, name: p.name })));
    assert.deepEqual(await vocabulary.names(), ['person0', 'person1', 'person2', 'person3', 'person4', 'person5']);
    assert.deepEqual(reads, { one: 0, many: 1 });
    close();
  });

  test('the most recently heard of the session\'s people comes first; hearing the same people again changes nothing', async () => {
    const { graph, close } = await tenant(0);
    const ana = await make(graph, { name: 'Ana' });
    const ben = await make(graph, { name: 'Ben' });
    const vocabulary = new SessionVocabulary(graph, T, { max: 10 });
    vocabulary.heard([{ id: ana.id, name: 'Ana' }]);
    assert.equal(vocabulary.heard([{ id: ben.id, name: 'Ben' }, { id: ana.id, name: 'Ana' }]), true, 'Ben is new');
    assert.deepEqual((await vocabulary.names()).slice(0, 2), ['ben', 'ana']);
    assert.equal(vocabulary.heard([{ id: ben.id, name: 'Ben' }]), false, 'nobody new, no new name');
    close();
  });

  test('a name learned mid-session enters at once, before the tenant\'s names are read again', async () => {
    let now = 0;
    const { graph, close } = await tenant(20);
    const caller = await make(graph, {});
    const vocabulary = new SessionVocabulary(graph, T, { max: 5, tenantRefreshMs: 10_000, now: () => now });
    vocabulary.heard([{ id: caller.id, name: null }]);
    assert.deepEqual(await vocabulary.names(), ['caller19', 'caller18', 'caller17', 'caller16', 'caller15'], 'unnamed: no name of theirs');
    // "hi, this is Grace": the session names the caller (SessionNaming writes the name), the turn reports it.
    await graph.updateParticipant(T, caller.id, { name: 'Grace' });
    now = 1;
    assert.equal(vocabulary.heard([{ id: caller.id, name: 'Grace' }]), true, 'a new name is a change');
    assert.deepEqual(await vocabulary.names(), ['grace', 'caller19', 'caller18', 'caller17', 'caller16']);
    // An alias added later (no turn reported it) is read too.
    await graph.updateParticipant(T, caller.id, { aliases: ['Gracie'] });
    assert.deepEqual((await vocabulary.names()).slice(0, 2), ['grace', 'gracie']);
    close();
  });

  test('an expected participant (a returning caller\'s external id) comes first, before anyone spoke', async () => {
    const { graph, close } = await tenant(10);
    const returning = await make(graph, { name: 'Priya', externalId: '+15550100' });
    for (let i = 10; i < 20; i++) await make(graph, { name: `Caller${i}` });
    const vocabulary = new SessionVocabulary(graph, T, { max: 3 });
    assert.deepEqual(await vocabulary.names([returning.id]), ['priya', 'caller19', 'caller18']);
    close();
  });

  test('a participant erased from the tenant leaves the vocabulary: at once from the session\'s people, at the refresh from the tenant\'s', async () => {
    let now = 0;
    const { graph, close } = await tenant(3);
    const mia = await make(graph, { name: 'Mia' });
    const zoe = await make(graph, { name: 'Zoe' });
    const vocabulary = new SessionVocabulary(graph, T, { max: 10, tenantRefreshMs: 10_000, now: () => now });
    vocabulary.heard([{ id: mia.id, name: 'Mia' }]);
    assert.deepEqual(await vocabulary.names(), ['mia', 'zoe', 'caller2', 'caller1', 'caller0']);
    await graph.deleteParticipant(T, mia.id);
    await graph.deleteParticipant(T, zoe.id);
    now = 1;
    assert.ok(!(await vocabulary.names()).includes('mia'), 'the session\'s erased speaker is gone at once');
    assert.deepEqual(vocabulary.sessionPeople(), [], 'and forgotten');
    now = 10_000;
    assert.deepEqual(await vocabulary.names(), ['caller2', 'caller1', 'caller0'], 'the tenant\'s erased participant is gone at the refresh');
    close();
  });

  test('the cap holds: at most max names, and at most tenantNames of them from outside the session', async () => {
    const { graph, close } = await tenant(50);
    const people = [];
    for (let i = 0; i < 8; i++) people.push(await make(graph, { name: `Guest${i}`, aliases: [`G${i}`] }));
    const vocabulary = new SessionVocabulary(graph, T, { max: 10, tenantNames: 3 });
    vocabulary.heard(people.map((p) => ({ id: p.id, name: p.name })));
    const names = await vocabulary.names();
    assert.equal(names.length, 10, 'the session\'s 16 names and aliases are cut at the cap');
    assert.ok(names.every((n) => n.startsWith('g')), 'the session\'s own names fill it before any tenant name');
    const few = new SessionVocabulary(graph, T, { max: 10, tenantNames: 3 });
    few.heard([{ id: people[0]!.id, name: 'Guest0' }]);
    assert.deepEqual(await few.names(), ['guest0', 'g0', 'guest7', 'g7', 'guest6'], 'two of the session, three of the tenant (names and aliases)');
    const sessionOnly = new SessionVocabulary(graph, T, { max: 10, tenantNames: 0 });
    sessionOnly.heard([{ id: people[1]!.id, name: 'Guest1' }]);
    assert.deepEqual(await sessionOnly.names(), ['guest1', 'g1']);
    assert.throws(() => new SessionVocabulary(graph, T, { max: 0 }), /max must be a positive integer/);
    assert.throws(() => new SessionVocabulary(graph, T, { tenantNames: -1 }), /tenantNames must be a non-negative integer/);
    close();
  });

  test('a session resumed from the store listens for who was in it, the last speaker first; people heard since stay ahead', async () => {
    const db = openDatabase(':memory:');
    const graph = new SqliteGraphStore(db);
    const ana = await make(graph, { name: 'Ana' });
    const ben = await make(graph, { name: 'Ben' });
    const cy = await make(graph, { name: 'Cy' });
    const dee = await make(graph, { name: 'Dee' });
    await make(graph, { name: 'Other' });
    await graph.openSession(T, 's1', '2026-12-01T10:00:00.000Z');
    const say = (speakerId: string, addresseeIds: string[], i: number) => ({ sessionId: 's1', speakerId, addresseeIds, text: `turn ${i}`,
      startMs: null, endMs: null, time: `2026-12-01T10:0${i}:00.000Z`, confidence: null, audioRef: null });
    await graph.addUtterances(T, [say(ana.id, [ben.id], 1), say(ben.id, [ana.id], 2), say(cy.id, [ana.id], 3)]);
    const fresh = new SessionVocabulary(graph, T, { tenantNames: 0 });
    assert.deepEqual(await fresh.names(), [], 'nothing known before seeding');
    await fresh.seed('s1');
    assert.deepEqual(await fresh.names(), ['cy', 'ana', 'ben'], 'the last speaker first, then whom they addressed, then the earlier people');
    const busy = new SessionVocabulary(graph, T, { tenantNames: 0 });
    busy.heard([{ id: dee.id, name: 'Dee' }]);
    await busy.seed('s1');
    assert.deepEqual(await busy.names(), ['dee', 'cy', 'ana', 'ben'], 'someone heard in this process stays ahead');
    await new SessionVocabulary(graph, T).seed('no-such-session');
    db.close();
  });
});
