import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { test } from 'node:test';
import { openDatabase } from '../../graph/sqlite/database.js';
import { SqliteGraphStore } from '../../graph/sqlite/sqlite-graph-store.js';
import { tempDir } from '../helpers/temp-dir.js';

test('an erased id is kept as its SHA-256 only: no row of the file holds the id, nor ids merged into it', async () => {
  const tmp = tempDir();
  const db = openDatabase(path.join(tmp.dir, 'parley.db'));
  try {
    const store = new SqliteGraphStore(db);
    const a = await store.createParticipant('t1', { name: 'Ana' });
    const b = await store.createParticipant('t1', { name: 'Bea' });
    await store.mergeParticipants('t1', a.id, b.id);
    assert.deepEqual(db.prepare('SELECT key, merged_into FROM retired_participants').all(), [{ key: a.id, merged_into: b.id }]);
    await store.deleteParticipant('t1', b.id);
    const rows = db.prepare('SELECT * FROM retired_participants').all() as Record<string, unknown>[];
    const text = JSON.stringify(rows);
    assert.ok(!text.includes(a.id) && !text.includes(b.id), text);
    const hash = (id: string): string => `sha256:${createHash('sha256').update(id).digest('hex')}`;
    assert.deepEqual(rows.map((r) => r.key).sort(), [hash(a.id), hash(b.id)].sort());
  } finally {
    db.close();
    tmp.remove();
  }
});

test('a database written before retired ids were kept gains their table on open; its participants stay', async () => {
  const tmp = tempDir();
  const file = path.join(tmp.dir, 'parley.db');
  const old = openDatabase(file);
  const ana = await new SqliteGraphStore(old).createParticipant('t1', { name: 'Ana' });
  old.exec('DROP TABLE retired_participants');
  old.close();
  const db = openDatabase(file);
  try {
    const store = new SqliteGraphStore(db);
    assert.equal((await store.getParticipant('t1', ana.id))?.name, 'Ana');
    assert.equal(await store.retiredParticipant('t1', ana.id), null);
    const ben = await store.createParticipant('t1', { name: 'Ben' });
    await store.mergeParticipants('t1', ben.id, ana.id);
    assert.deepEqual(await store.retiredParticipant('t1', ben.id), { mergedInto: ana.id });
  } finally {
    db.close();
    tmp.remove();
  }
});
