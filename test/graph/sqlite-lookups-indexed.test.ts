import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openDatabase, type SqliteDatabase } from '../../graph/sqlite/database.js';
import { SqliteEntityIndex } from '../../graph/sqlite/sqlite-entity-index.js';
import { SqliteGraphStore } from '../../graph/sqlite/sqlite-graph-store.js';
import { SqliteMemoryStore } from '../../graph/sqlite/sqlite-memory-store.js';

/**
 * The lookups consolidation makes for every turn must cost the same however long the conversation
 * has been: each is answered through an index from what it is given (names, memory ids, a subject's
 * newest facts), never by reading every row the tenant has. Checked on SQLite's query plans of the
 * statements the stores actually run.
 */

/** Runs `work` and returns the plan lines of every statement it prepared. */
async function plansOf(db: SqliteDatabase, work: () => Promise<unknown>): Promise<string[][]> {
  const seen: string[] = [];
  const prepare = db.prepare.bind(db);
  db.prepare = ((sql: string) => {
    seen.push(sql);
    return prepare(sql);
  }) as typeof db.prepare;
  try {
    await work();
  } finally {
    db.prepare = prepare as typeof db.prepare;
  }
  return seen.map((sql) => {
    const params = (sql.match(/\?/g) ?? []).map(() => 'x');
    const named = Object.fromEntries([...new Set(sql.match(/@\w+/g) ?? [])].map((n) => [n.slice(1), '[]']));
    const stmt = db.prepare(`EXPLAIN QUERY PLAN ${sql}`);
    const rows = (Object.keys(named).length > 0 ? stmt.all(named) : stmt.all(...params)) as { detail: string }[];
    return rows.map((r) => r.detail);
  });
}

/** A plan step that reads every row of the tenant in some table (an index searched by tenant alone). */
const tenantScan = (detail: string): boolean => /^(SCAN \w+$|SCAN \w+ USING|SEARCH \w+ USING (COVERING )?INDEX \S+ \(tenant=\?\)$)/.test(detail);

test('entity lookups by name and by memory id go through indexes, not over every entity or memory row', async () => {
  const db = openDatabase(':memory:');
  const index = new SqliteEntityIndex(db);
  const e = await index.upsertEntity('t', { name: 'Lisbon', aliases: ['lisboa'], description: 'a city', schemaId: 'sch_places' });
  await index.addMemories('t', e.id, { utteranceIds: ['u1'] });
  const plans = await plansOf(db, async () => {
    assert.deepEqual((await index.findByNames('t', ['Lisbon', 'Lisboa', 'Porto'])).map((x) => x.id), [e.id]);
    assert.deepEqual(await index.entitiesOfMemories('t', ['u1', 'u2']), [e.id]);
  });
  assert.equal(plans.length, 2);
  for (const plan of plans) assert.ok(!plan.some(tenantScan), `a lookup reads every row of the tenant: ${plan.join(' | ')}`);
  db.close();
});

test("a subject's newest facts are read in time order, not all sorted", async () => {
  const db = openDatabase(':memory:');
  const memory = new SqliteMemoryStore(db);
  const plans = await plansOf(db, () => memory.listFacts('t', { subjectId: 'p1', limit: 200 }));
  assert.equal(plans.length, 1);
  assert.ok(plans[0]!.some((d) => d.includes('memory_facts_subject_time')), plans[0]!.join(' | '));
  assert.ok(!plans[0]!.includes('USE TEMP B-TREE FOR ORDER BY'), `every current fact of the subject is sorted: ${plans[0]!.join(' | ')}`);
  db.close();
});

test("a subject's numbers of one kind (every `order_number:…`) are read through the slot index, not all its facts", async () => {
  const db = openDatabase(':memory:');
  const memory = new SqliteMemoryStore(db);
  const plans = await plansOf(db, () => memory.listFacts('t', { subjectId: 'p1', slotFamily: 'order_number', limit: 50 }));
  assert.equal(plans.length, 1);
  assert.ok(plans[0]!.some((d) => d.includes('memory_facts_subject_slot') && d.includes('slot>? AND slot<?')), plans[0]!.join(' | '));
  assert.ok(!plans[0]!.some(tenantScan), plans[0]!.join(' | '));
  db.close();
});

test('the sweep of ended states reads the open facts whose end falls in its window through their index, not every fact of the tenant', async () => {
  const db = openDatabase(':memory:');
  const memory = new SqliteMemoryStore(db);
  const plans = await plansOf(db, () => memory.listFacts('t', { kind: 'profile', endedBy: '2026-07-01T00:00:00.000Z', endedAfter: '2026-06-01T00:00:00.000Z', limit: 1000 }));
  assert.equal(plans.length, 1);
  assert.ok(plans[0]!.some((d) => d.includes('memory_facts_open_until') && d.includes('valid_until>? AND valid_until<?')), plans[0]!.join(' | '));
  assert.ok(!plans[0]!.some(tenantScan), plans[0]!.join(' | '));
  db.close();
});

test("a session's newest facts and its turns before one are read through the session's indexes, however long the session", async () => {
  const db = openDatabase(':memory:');
  const memory = new SqliteMemoryStore(db);
  const graph = new SqliteGraphStore(db);
  // What consolidation reads per turn by session: the facts an outcome may settle, and the context window.
  const plans = await plansOf(db, async () => {
    await memory.listFacts('t', { sessionId: 's', limit: 200 });
    await graph.recentUtterances('t', 's', 4, 1_000);
  });
  assert.equal(plans.length, 2);
  assert.ok(plans[0]!.some((d) => d.includes('memory_facts_session_time')), plans[0]!.join(' | '));
  assert.ok(plans[1]!.some((d) => d.includes('utterances_by_session') && d.includes('seq<?')), plans[1]!.join(' | '));
  for (const plan of plans) {
    assert.ok(!plan.includes('USE TEMP B-TREE FOR ORDER BY'), `every row of the session is sorted: ${plan.join(' | ')}`);
    assert.ok(!plan.some(tenantScan), `a lookup reads every row of the tenant: ${plan.join(' | ')}`);
  }
  db.close();
});

test("a session's transcript is read a page at a time in the order it was said through its index, without sorting the session", async () => {
  const db = openDatabase(':memory:');
  const graph = new SqliteGraphStore(db);
  const plans = await plansOf(db, () => graph.getTranscript('t', 's', { after: { time: '2026-01-01T00:00:00.000Z', seq: 3 }, limit: 100 }));
  assert.equal(plans.length, 1);
  assert.ok(plans[0]!.some((d) => d.includes('utterances_by_said')), plans[0]!.join(' | '));
  assert.ok(!plans[0]!.includes('USE TEMP B-TREE FOR ORDER BY'), `every row of the session is sorted: ${plans[0]!.join(' | ')}`);
  db.close();
});

test('participants by name, by name words and the newest named ones are read through indexes, not every participant', async () => {
  const db = openDatabase(':memory:');
  const graph = new SqliteGraphStore(db);
  const ana = await graph.createParticipant('t', { name: 'Ana Silva' });
  const plans = await plansOf(db, async () => {
    assert.deepEqual((await graph.findParticipantsByWords('t', ['silva', 'ben'])).map((p) => p.id), [ana.id]);
    assert.deepEqual((await graph.recentNamedParticipants('t', 100)).map((p) => p.id), [ana.id]);
    assert.deepEqual((await graph.findParticipantsByName('t', 'ANA SILVA')).map((p) => p.id), [ana.id]);
  });
  assert.equal(plans.length, 3);
  assert.ok(plans[0]!.some((d) => d.includes('participant_words')), plans[0]!.join(' | '));
  assert.ok(!plans[2]!.some(tenantScan), `a lookup by name reads every participant of the tenant: ${plans[2]!.join(' | ')}`);
  assert.ok(plans[1]!.some((d) => d.includes('participants_named_by_update')), plans[1]!.join(' | '));
  assert.ok(!plans[0]!.some(tenantScan), `a lookup reads every participant of the tenant: ${plans[0]!.join(' | ')}`);
  // The newest come first in the partial index's order, so LIMIT stops the walk after a page; a sort would read them all.
  assert.ok(!plans[1]!.includes('USE TEMP B-TREE FOR ORDER BY'), `every named participant is sorted: ${plans[1]!.join(' | ')}`);
  db.close();
});

test('the participants a text names are read through the name words, not every participant (once per utterance at ingest)', async () => {
  const db = openDatabase(':memory:');
  const graph = new SqliteGraphStore(db);
  const ana = await graph.createParticipant('t', { name: 'Ana Silva', aliases: ['Annie'] });
  await graph.createParticipant('t', { name: 'Ben' });
  const plans = await plansOf(db, async () => {
    assert.deepEqual((await graph.findParticipantsInText('t', "Annie's draft, ana silva said: benefits")).map((p) => p.id), [ana.id]);
  });
  assert.ok(plans.length > 0);
  for (const plan of plans) assert.ok(!plan.some(tenantScan), `a lookup reads every participant of the tenant: ${plan.join(' | ')}`);
  assert.ok(plans.some((plan) => plan.some((d) => d.includes('participant_words'))), plans.map((p) => p.join(' | ')).join(' || '));
  db.close();
});

test('a database from before name words gets the words of the participants it holds, once', async () => {
  const db = openDatabase(':memory:');
  const graph = new SqliteGraphStore(db);
  const ana = await graph.createParticipant('t', { name: 'Ana', aliases: ["Annie O'Neil"] });
  db.exec('DROP TABLE participant_words');
  const reopened = new SqliteGraphStore(db);
  assert.deepEqual((await reopened.findParticipantsByWords('t', ['oneil'])).map((p) => p.id), [ana.id]);
  assert.deepEqual((await new SqliteGraphStore(db).findParticipantsByWords('t', ['ana'])).map((p) => p.id), [ana.id], 'opened again, nothing twice');
  db.close();
});

test('the idle-session sweep reads the open sessions in idle order through their partial index, not every session', async () => {
  const db = openDatabase(':memory:');
  const graph = new SqliteGraphStore(db);
  const plans = await plansOf(db, () => graph.idleSessions('2026-12-05T10:00:00.000Z', 200));
  assert.equal(plans.length, 1);
  assert.ok(plans[0]!.some((d) => d.includes('sessions_idle') && d.includes('active_at<?')), plans[0]!.join(' | '));
  assert.ok(!plans[0]!.includes('USE TEMP B-TREE FOR ORDER BY'), plans[0]!.join(' | '));
  db.close();
});
