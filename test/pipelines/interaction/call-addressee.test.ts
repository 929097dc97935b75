/**
 * trial11 F5: on a Twilio call the agent's text, stored before the caller's first words were recognised, had no
 * addressee ("… the listener's repair …"). A turn no cue addresses, with no one else in the session yet, is said to
 * the call's caller: the holder of its external id.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import pino from 'pino';
import type { JobQueue } from '../../../graph/job-queue.js';
import type { LexicalIndex } from '../../../graph/lexical-index.js';
import { openDatabase } from '../../../graph/sqlite/database.js';
import { SqliteGraphStore } from '../../../graph/sqlite/sqlite-graph-store.js';
import { InteractionIngest } from '../../../pipelines/interaction/ingest.js';

const T = 't_call';
const TIME = '2026-12-01T10:00:00.000Z';

async function call(metadata: Record<string, unknown> | null): Promise<{ graph: SqliteGraphStore; ingest: InteractionIngest; close: () => void }> {
  const db = openDatabase(':memory:');
  const graph = new SqliteGraphStore(db);
  if (metadata) {
    await graph.openSession(T, 'CA1', TIME);
    await graph.updateSession(T, 'CA1', { metadata });
  }
  const lexical = { index: async () => undefined } as unknown as LexicalIndex;
  const queue = { enqueue: async () => undefined } as unknown as JobQueue;
  return { graph, ingest: new InteractionIngest({ graph, lexical, queue, logger: pino({ level: 'silent' }) }), close: () => db.close() };
}

const twilio = (externalId?: string): Record<string, unknown> => ({
  channel: 'twilio', twilio: { call_sid: 'CA1', custom_parameters: externalId === undefined ? {} : { external_id: externalId } },
});

describe('the agent\'s text on a one-to-one call (trial11 F5)', () => {
  test('is said to the caller who holds the call\'s external id, before the caller spoke', async () => {
    const { graph, ingest, close } = await call(twilio('+15550100'));
    const caller = await graph.createParticipant(T, { externalId: '+15550100' });
    const [stored] = await ingest.ingest(T, 'CA1', [{ speaker: 'Agent Sam', text: 'Done Tom, your repair is booked for Tuesday.', time: TIME }]);
    assert.deepEqual(stored?.addressees.map((a) => a.id), [caller.id]);
    // A cue still wins: a named participant called by their full name is the addressee.
    const ben = await graph.createParticipant(T, { name: 'Ben Ortiz' });
    const [named] = await ingest.ingest(T, 'CA1', [{ speaker: 'Agent Sam', text: 'Ben Ortiz, your order has shipped.', time: TIME }]);
    assert.deepEqual(named?.addressees.map((a) => a.id), [ben.id]);
    close();
  });

  test('no one is made up: another session, a call without an external id, or one nobody holds yet', async () => {
    for (const [what, metadata] of [['a session that is no call', {}], ['no session record', null], ['a call without external_id', twilio()],
      ['an external id nobody holds', twilio('+15550199')]] as const) {
      const { graph, ingest, close } = await call(metadata);
      await graph.createParticipant(T, { externalId: '+15550100' });
      const [stored] = await ingest.ingest(T, 'CA1', [{ speaker: 'Agent Sam', text: 'Your repair is booked for Tuesday.', time: TIME }]);
      assert.deepEqual(stored?.addressees, [], what);
      close();
    }
  });

  test('the caller speaking is no one\'s addressee of their own turn; with the caller present, inference decides as before', async () => {
    const { graph, ingest, close } = await call(twilio('+15550100'));
    const caller = await graph.createParticipant(T, { externalId: '+15550100' });
    const [own] = await ingest.ingest(T, 'CA1', [{ speaker: caller.id, text: 'Hello, my boiler is broken.', time: TIME }]);
    assert.deepEqual(own?.addressees, []);
    const [reply] = await ingest.ingest(T, 'CA1', [{ speaker: 'Agent Sam', text: 'I can book a repair for Tuesday.', time: TIME }]);
    assert.deepEqual(reply?.addressees.map((a) => a.id), [caller.id], 'two-party, as before');
    close();
  });
});
