/**
 * Review findings 6 and 7 (scopeagents). 6: before only the server wrote a session's `agents` metadata key, a client
 * could (`session.update {"agents": [...]}`); such a value was read as the session's agents (a real participant id there
 * widened a `participants` scope) and survived an erasure's scrub, a phone number or an email in it too. The server now
 * keeps them under a key of its own (`SESSION_AGENTS_KEY`, `$agents`, which `session.update` refuses): a client's
 * `agents` is never read as agents (storeopen 2), and of the server's list only ids of participants (or of ones merged
 * into one) are, and the scrub keeps those only. 7: keeping a stream's
 * agents read the whole metadata and wrote it back unlocked, so an erasure's scrub landing in between was undone, and
 * it never checked the 64 KiB limit.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import type { KeyedLock } from '../../graph/keyed-lock.js';
import { MemoryKeyedLock } from '../../graph/memory-keyed-lock.js';
import { openDatabase } from '../../graph/sqlite/database.js';
import { SqliteGraphStore } from '../../graph/sqlite/sqlite-graph-store.js';
import { scrubbedSessionMetadata, scrubSessionMetadata } from '../../pipelines/interaction/erase-session-metadata.js';
import { SESSION_AGENTS_KEY, sessionAgents } from '../../pipelines/interaction/session-metadata.js';
import { keepSessionAgents } from '../../server/ws/session-agents.js';

const T = 't_session_agents';
const db = openDatabase(':memory:');
const graph = new SqliteGraphStore(db);
after(() => db.close());

/** A session `id` with `metadata` and one turn of `speakerId`'s in it; the turn's id. */
async function session(id: string, speakerId: string, metadata: Record<string, unknown>): Promise<string> {
  await graph.openSession(T, id, '2026-12-07T10:00:00.000Z');
  await graph.updateSession(T, id, { metadata });
  const [u] = await graph.addUtterances(T, [{
    sessionId: id, speakerId, addresseeIds: [], text: 'Hello, I am calling about my order.', startMs: null, endMs: null,
    time: '2026-12-07T10:00:00.000Z', confidence: null, audioRef: null, turnId: `turn_${id}`,
  }]);
  return u!.id;
}

test('6: an `agents` value a client kept is never read as agents; only participants\' ids of the server\'s `$agents` are', async () => {
  assert.deepEqual(scrubbedSessionMetadata({ channel: 'ws', agents: ['+15550100', 'maria@example.com'], crm: 'x' }, []), { channel: 'ws' },
    'the reviewer\'s input: a client\'s data, so none of it stays');
  const caller = await graph.createParticipant(T, { name: 'Rosa' });
  const agent = await graph.createParticipant(T, { name: 'Agent Sam' });
  const legacy = { channel: 'ws', agents: ['+15550100', agent.id, 'maria@example.com'], crm: 'x' };
  assert.deepEqual(await sessionAgents(graph, T, legacy), [], 'storeopen 2: not even a real participant\'s id there is an agent');
  const kept = { ...legacy, [SESSION_AGENTS_KEY]: ['p_gone', agent.id] };
  assert.deepEqual(await sessionAgents(graph, T, kept), [agent.id], 'of the server\'s list, only a participant\'s id is an agent');
  const turn = await session('legacy', caller.id, kept);
  await scrubSessionMetadata({ graph, locks: new MemoryKeyedLock() }, T, [turn], caller.id);
  assert.deepEqual((await graph.getSession(T, 'legacy'))?.metadata, { channel: 'ws', [SESSION_AGENTS_KEY]: [agent.id] },
    'the client\'s list (a phone number, an email) goes with the erased caller\'s data; the real agent stays');
  // The erased person's own id goes too, as before.
  await scrubSessionMetadata({ graph, locks: new MemoryKeyedLock() }, T, [turn], agent.id);
  assert.deepEqual((await graph.getSession(T, 'legacy'))?.metadata, { channel: 'ws' });
});

test('7: keeping a stream\'s agents never undoes an erasure scrub that lands between its read and its write', async () => {
  const caller = await graph.createParticipant(T, { name: 'Luis' });
  const agent = await graph.createParticipant(T, { name: 'Agent Kim' });
  const turn = await session('race', caller.id, { channel: 'ws', metadata: { crm: 'CRM-42', phone: '+15550199' } });
  // The stream's read of the metadata waits until the erasure has had its chance to run.
  let reached!: () => void;
  const readReached = new Promise<void>((resolve) => { reached = resolve; });
  let release!: () => void;
  const released = new Promise<void>((resolve) => { release = resolve; });
  let paused = false;
  const slowGraph = new Proxy(graph, {
    get(target, prop) {
      if (prop === 'getSession' && !paused) {
        paused = true;
        return async (...args: Parameters<typeof graph.getSession>) => {
          const record = await target.getSession(...args);
          reached();
          await released;
          return record;
        };
      }
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  const memoryLock = new MemoryKeyedLock();
  let asked!: () => void;
  const scrubAsked = new Promise<void>((resolve) => { asked = resolve; });
  let calls = 0;
  const locks: KeyedLock = {
    withLock: (keys, work, holder) => {
      calls += 1;
      if (calls === 2) asked();
      return memoryLock.withLock(keys, work, holder);
    },
    close: () => memoryLock.close(),
  };
  const keeping = keepSessionAgents({ graph: slowGraph, locks }, T, 'race', [agent.id]);
  await readReached;
  const scrub = scrubSessionMetadata({ graph, locks }, T, [turn], caller.id);
  // Either the scrub finished while the stream's write was pending (unlocked), or it waits for the session's lock.
  await Promise.race([scrub, scrubAsked]);
  release();
  await keeping;
  await scrub;
  assert.deepEqual((await graph.getSession(T, 'race'))?.metadata, { channel: 'ws', [SESSION_AGENTS_KEY]: [agent.id] },
    'the erased caller\'s client metadata is gone and stays gone; the agents are kept');
});

test('7: keeping a stream\'s agents in metadata near 64 KiB is a clear error, and nothing is written', async () => {
  const agent = await graph.createParticipant(T, { name: 'Agent Lee' });
  const full = { channel: 'ws', metadata: { notes: 'x'.repeat(64 * 1024 - 60) } };
  await graph.openSession(T, 'full', '2026-12-07T10:00:00.000Z');
  await graph.updateSession(T, 'full', { metadata: full });
  await assert.rejects(keepSessionAgents({ graph, locks: new MemoryKeyedLock() }, T, 'full', [agent.id]),
    (err: Error & { code?: string }) => err.code === 'PARLEY_ERR_BAD_REQUEST' && /65536/.test(err.message));
  assert.deepEqual((await graph.getSession(T, 'full'))?.metadata, full, 'the stored metadata is unchanged');
});
