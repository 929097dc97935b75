/**
 * trial11 F6: the agent said "Sure Maria, I can check that" and "Thanks, Maria." to the only caller on the call, and the
 * caller stayed unnamed. A turn that calls its one listener, unnamed and the only other party, by a listed given name
 * names them at once; never a named listener, never with two or more other parties, never a common word, and never a
 * name the listener spoke of themself ("my wife Maria…").
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import pino from 'pino';
import type { JobQueue } from '../../../graph/job-queue.js';
import type { LexicalIndex } from '../../../graph/lexical-index.js';
import { openDatabase } from '../../../graph/sqlite/database.js';
import { SqliteGraphStore } from '../../../graph/sqlite/sqlite-graph-store.js';
import { InteractionIngest } from '../../../pipelines/interaction/ingest.js';

const T = 't_vocative';
const TIME = '2026-12-01T10:00:00.000Z';
const CALL = { channel: 'twilio', twilio: { call_sid: 'CA1', custom_parameters: { external_id: '+15550100' } } };

async function call(): Promise<{ graph: SqliteGraphStore; ingest: InteractionIngest; close: () => void }> {
  const db = openDatabase(':memory:');
  const graph = new SqliteGraphStore(db);
  await graph.openSession(T, 'CA1', TIME);
  await graph.updateSession(T, 'CA1', { metadata: CALL });
  const lexical = { index: async () => undefined } as unknown as LexicalIndex;
  const queue = { enqueue: async () => undefined } as unknown as JobQueue;
  return { graph, ingest: new InteractionIngest({ graph, lexical, queue, logger: pino({ level: 'silent' }) }), close: () => db.close() };
}

/** The caller's stored name and aliases after `turns` ([who, text]; who: 'caller' or a speaker label). */
async function namesAfter(turns: [string, string][], caller: { name?: string } = {}): Promise<{ name: string | null; aliases: string[] }> {
  const { graph, ingest, close } = await call();
  const p = await graph.createParticipant(T, { externalId: '+15550100', ...caller });
  for (const [who, text] of turns) await ingest.ingest(T, 'CA1', [{ speaker: who === 'caller' ? p.id : who, text, time: TIME }]);
  const after = await graph.getParticipant(T, p.id);
  close();
  return { name: after?.name ?? null, aliases: after?.aliases ?? [] };
}

describe('an unnamed caller called by name by the only other party (trial11 F6)', () => {
  test('"Sure Maria, I can check that" and "Thanks, Maria." name the caller Maria', async () => {
    for (const reply of ['Sure Maria, I can check that.', 'Thanks, Maria.', 'Of course, Maria, one moment.', 'maria can you confirm the postcode']) {
      const after = await namesAfter([['caller', 'Hello, I want to check on my road bike order.'], ['Agent Sam', reply]]);
      assert.deepEqual(after, { name: 'Maria', aliases: [] }, reply);
    }
  });

  test('the agent\'s words before the caller spoke name the holder of the call\'s external id', async () => {
    assert.equal((await namesAfter([['Agent Sam', 'Thanks, Maria, your order is on its way.']])).name, 'Maria');
  });

  test('the caller is then addressed by the name learned', async () => {
    const { graph, ingest, close } = await call();
    const p = await graph.createParticipant(T, { externalId: '+15550100' });
    await ingest.ingest(T, 'CA1', [{ speaker: p.id, text: 'Hi, I ordered a road bike.', time: TIME }]);
    const [reply] = await ingest.ingest(T, 'CA1', [{ speaker: 'Agent Sam', text: 'Sure Maria, I can check that.', time: TIME }]);
    assert.deepEqual(reply?.addressees, [{ id: p.id, name: 'Maria' }]);
    close();
  });

  test('a named caller is never renamed, nor given an alias, by a vocative', async () => {
    const after = await namesAfter([['caller', 'Hello, I want to check my order.'], ['Agent Sam', 'Sure Maria, I can check that.']], { name: 'Ana Silva' });
    assert.deepEqual(after, { name: 'Ana Silva', aliases: [] });
  });

  test('no name with two or more other parties, named or not', async () => {
    for (const second of [{ name: 'Priya Shah' }, {}]) {
      const { graph, ingest, close } = await call();
      const p = await graph.createParticipant(T, { externalId: '+15550100' });
      const other = await graph.createParticipant(T, second);
      await ingest.ingest(T, 'CA1', [{ speaker: p.id, text: 'Hello, I want to check my order.', time: TIME },
        { speaker: other.id, text: 'I am on the line too.', time: TIME }, { speaker: 'Agent Sam', text: 'Thanks, Maria.', time: TIME }]);
      assert.deepEqual([(await graph.getParticipant(T, p.id))?.name, (await graph.getParticipant(T, other.id))?.name], [null, second.name ?? null]);
      close();
    }
  });

  test('no name from a common word, a day or month, or two names called', async () => {
    for (const reply of ['Sure, thanks.', 'Great, thanks, I can check that.', 'Thanks, May.', 'Sure, Friday works.', 'Thanks Maria and Tom.']) {
      const after = await namesAfter([['caller', 'Hello, I want to check my order.'], ['Agent Sam', reply]]);
      assert.equal(after.name, null, reply);
    }
  });

  test('no name the caller spoke of themself ("my wife Maria ordered…" then "Sure Maria" is a slip), nor a relation\'s', async () => {
    const after = await namesAfter([['caller', 'My wife Maria ordered the road bike.'], ['Agent Sam', 'Sure Maria, I can check that.']]);
    assert.equal(after.name, null);
    for (const reply of ['I will pass you to my colleague, Maria.', 'Your wife, Maria?']) {
      assert.equal((await namesAfter([['caller', 'Hello, I want to check my order.'], ['Agent Sam', reply]])).name, null, reply);
    }
  });
});
