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
  // The rename lands between the job's read of the participant and its write of names (the attribute write comes between).
  const racing = Object.create(graph, {
    updateParticipantAttributes: {
      value: async (...args: Parameters<GraphStore['updateParticipantAttributes']>) => {
        if (!renamed) {
          renamed = true;
          await graph.updateParticipant(T, p.id, { name: 'Beatrice', aliases: ['Ana'] });
        }
        return graph.updateParticipantAttributes(...args);
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
