/** SqliteGraphStore.mergeParticipants joins the attributes as stored at its write: a PATCH landing after its reads stays. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openDatabase } from '../../graph/sqlite/database.js';
import { SqliteGraphStore } from '../../graph/sqlite/sqlite-graph-store.js';
import type { Participant, TenantId } from '../../graph/types.js';

const T = 't_merge_race';

/** Timing double: the real store, whose read of `patchOn` is followed, before the caller sees it, by a PATCH of `tier`. */
class PatchAfterRead extends SqliteGraphStore {
  patchOn: string | null = null;
  patches = 0;
  override async getParticipant(tenant: TenantId, id: string): Promise<Participant | null> {
    const read = await super.getParticipant(tenant, id);
    if (read && id === this.patchOn && this.patches === 0) {
      this.patches += 1;
      await super.updateParticipantAttribute(tenant, id, 'tier', () => 'gold');
    }
    return read;
  }
}

test('a PATCH of the survivor between the merge\'s read and its write is kept, beside both people\'s attributes', async () => {
  const db = openDatabase(':memory:');
  const store = new PatchAfterRead(db);
  const from = await store.createParticipant(T, { name: 'Ana', attributes: { pet: 'cat', city: 'Faro' } });
  const into = await store.createParticipant(T, { name: 'Grace', attributes: { city: 'Porto' } });
  store.patchOn = into.id;
  await store.mergeParticipants(T, from.id, into.id);
  assert.equal(store.patches, 1, 'the PATCH ran after the merge read the survivor');
  assert.deepEqual((await store.getParticipant(T, into.id))!.attributes, { pet: 'cat', city: 'Porto', tier: 'gold' });
  db.close();
});
