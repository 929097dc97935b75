import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { GraphStore } from '../../../graph/graph-store.js';
import { openDatabase } from '../../../graph/sqlite/database.js';
import { SqliteGraphStore } from '../../../graph/sqlite/sqlite-graph-store.js';
import { applyProfileUpdates } from '../../../pipelines/memory/profile-updates.js';

const T = 't-profile-rename';

// A PATCH rename landing while the profile job runs (after its read, before its name/alias write) was undone: the job
// wrote back the name it had read, with its new alias.
test('a name learned as an alias is added over a rename made meanwhile, which stays', async () => {
  const db = openDatabase(':memory:');
  const graph = new SqliteGraphStore(db);
  const p = await graph.createParticipant(T, { name: 'Ana' });
  let renamed = false;
  // The rename lands just before the job's write of names and attributes (one transaction over what is stored then).
  const racing = Object.create(graph, {
    updateParticipantNames: {
      value: async (...args: Parameters<GraphStore['updateParticipantNames']>) => {
        if (!renamed) {
          renamed = true;
          await graph.updateParticipant(T, p.id, { name: 'Beatrice', aliases: ['Ana'] });
        }
        return graph.updateParticipantNames(...args);
      },
    },
  }) as GraphStore;
  await applyProfileUpdates(racing, T, [{ participantId: p.id, attribute: 'name', value: 'Annie', referIds: ['u_1'], confidence: 0.9 }]);
  assert.equal(renamed, true);
  const stored = (await graph.getParticipant(T, p.id))!;
  assert.equal(stored.name, 'Beatrice', 'the rename stays');
  assert.deepEqual([...stored.aliases].sort(), ['Ana', 'Annie']);
  db.close();
});

// The job's name write was a read-modify-write of the participant row: a rename landing between its last read and its
// write was overwritten with the name it had read. Timing double (real store): a client rename lands after every read
// the job makes of the participant and before every write, each to a new name; the last one must stand.
test('renames landing around each of the job\'s reads and writes: the last stays, the learned name is an alias', async () => {
  const db = openDatabase(':memory:');
  const graph = new SqliteGraphStore(db);
  const p = await graph.createParticipant(T, { name: 'Ana' });
  let renames = 0;
  const rename = async (): Promise<void> => {
    renames += 1;
    await graph.updateParticipant(T, p.id, { name: `Beatrice${renames}` });
  };
  const reads = new Set<PropertyKey>(['getParticipant', 'getParticipants']);
  const writes = new Set<PropertyKey>(['updateParticipant', 'updateParticipantAttribute', 'updateParticipantAttributes', 'updateParticipantNames']);
  const racing = new Proxy(graph, {
    get(target, prop) {
      const v = Reflect.get(target, prop, target) as unknown;
      if (typeof v !== 'function') return v;
      const call = (v as (...a: unknown[]) => Promise<unknown>).bind(target);
      if (reads.has(prop)) return async (...args: unknown[]) => { const out = await call(...args); await rename(); return out; };
      if (writes.has(prop)) return async (...args: unknown[]) => { await rename(); return call(...args); };
      return call;
    },
  }) as GraphStore;
  await applyProfileUpdates(racing, T, [{ participantId: p.id, attribute: 'name', value: 'Annie', referIds: ['u_1'], confidence: 0.9 }]);
  assert.ok(renames > 0, 'the renames ran');
  const stored = (await graph.getParticipant(T, p.id))!;
  assert.equal(stored.name, `Beatrice${renames}`, 'the last rename stays');
  assert.deepEqual(stored.aliases, ['Annie']);
  db.close();
});
