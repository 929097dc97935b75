import assert from 'node:assert/strict';
import path from 'node:path';
import { after, test } from 'node:test';
import { openDatabase, type SqliteDatabase } from '../../graph/sqlite/database.js';
import { SqliteEntityIndex } from '../../graph/sqlite/sqlite-entity-index.js';
import { tempDir } from '../helpers/temp-dir.js';

const tmp = tempDir('parley-schema-keys-');
after(() => tmp.remove());

/**
 * A left-brain file as a build before emergent-schema keys wrote it: `lb_schemas` without `key`, two emergent schemas
 * whose names differ only in case and spacing (a promotion made twice), each with an entity, another tenant's twin of
 * one, a seed, and an emergent schema of its own name.
 */
function oldStore(name: string): string {
  const file = path.join(tmp.dir, name);
  const db = openDatabase(file);
  db.exec(`
    CREATE TABLE lb_schemas (
      tenant TEXT NOT NULL, id TEXT NOT NULL, name TEXT NOT NULL, description TEXT NOT NULL,
      origin TEXT NOT NULL, created_at TEXT NOT NULL, PRIMARY KEY (tenant, id));
    CREATE TABLE lb_entities (
      tenant TEXT NOT NULL, id TEXT NOT NULL, key TEXT NOT NULL, name TEXT NOT NULL,
      aliases TEXT NOT NULL DEFAULT '[]', description TEXT NOT NULL, schema_id TEXT NOT NULL,
      memory_count INTEGER NOT NULL DEFAULT 0, updated_at TEXT NOT NULL,
      PRIMARY KEY (tenant, id), UNIQUE (tenant, key));
    INSERT INTO lb_schemas VALUES
      ('t1', 'sch_work', 'work', 'jobs', 'seed', '2026-01-01T00:00:00.000Z'),
      ('t1', 'sch_old', 'Job Interview', 'the interview', 'emergent', '2026-01-02T00:00:00.000Z'),
      ('t1', 'sch_twin', '  job   interview ', 'the interview again', 'emergent', '2026-01-03T00:00:00.000Z'),
      ('t1', 'sch_boat', 'The Boat', 'a boat', 'emergent', '2026-01-04T00:00:00.000Z'),
      ('t2', 'sch_other', 'job interview', 'another tenant''s', 'emergent', '2026-01-05T00:00:00.000Z');
    INSERT INTO lb_entities (tenant, id, key, name, description, schema_id, updated_at) VALUES
      ('t1', 'ent_a', 'recruiter', 'recruiter', '', 'sch_old', '2026-01-02T00:00:00.000Z'),
      ('t1', 'ent_b', 'cv', 'cv', '', 'sch_twin', '2026-01-03T00:00:00.000Z'),
      ('t2', 'ent_c', 'desk', 'desk', '', 'sch_other', '2026-01-05T00:00:00.000Z');
  `);
  db.close();
  return file;
}

function schemaOf(db: SqliteDatabase, tenant: string, entity: string): string {
  return (db.prepare('SELECT schema_id FROM lb_entities WHERE tenant = ? AND id = ?').get(tenant, entity) as { schema_id: string }).schema_id;
}

test('an old file: emergent schemas get keys, twins by name are merged into the oldest with their entities, others stay', async () => {
  const db = openDatabase(oldStore('merge.db'));
  try {
    const index = new SqliteEntityIndex(db);
    assert.deepEqual((await index.listSchemas('t1')).map((s) => s.id), ['sch_work', 'sch_old', 'sch_boat']);
    assert.deepEqual([schemaOf(db, 't1', 'ent_a'), schemaOf(db, 't1', 'ent_b')], ['sch_old', 'sch_old'], 'the twin\'s entity moved');
    assert.deepEqual((await index.listSchemas('t2')).map((s) => s.id), ['sch_other'], 'another tenant\'s is its own');
    assert.equal(schemaOf(db, 't2', 'ent_c'), 'sch_other');
    // The same promotion made again finds the schema of before, in both tenants.
    assert.equal((await index.addSchema('t1', { name: 'JOB INTERVIEW', description: 'x', origin: 'emergent' })).id, 'sch_old');
    assert.equal((await index.addSchema('t1', { name: 'the boat', description: 'x', origin: 'emergent' })).id, 'sch_boat');
    assert.equal((await index.addSchema('t2', { name: 'Job Interview', description: 'x', origin: 'emergent' })).id, 'sch_other');
    assert.equal((await index.listSchemas('t1')).length, 3);
  } finally {
    db.close();
  }
  // Opened again: nothing more to do, nothing changes.
  const again = openDatabase(path.join(tmp.dir, 'merge.db'));
  try {
    assert.deepEqual((await new SqliteEntityIndex(again).listSchemas('t1')).map((s) => s.id), ['sch_work', 'sch_old', 'sch_boat']);
  } finally {
    again.close();
  }
});

test('a migration cut short part-way leaves the old layout whole, and the next open completes it', async () => {
  const file = oldStore('crash.db');
  const db = openDatabase(file);
  // The merge fails as it drops the twin (a crash at that instant): everything before it in the migration is undone.
  db.exec(`CREATE TRIGGER fail_drop BEFORE DELETE ON lb_schemas BEGIN SELECT RAISE(ABORT, 'crash (injected)'); END`);
  try {
    assert.throws(() => new SqliteEntityIndex(db), /crash \(injected\)/);
    const columns = (db.prepare('PRAGMA table_info(lb_schemas)').all() as { name: string }[]).map((c) => c.name);
    assert.ok(!columns.includes('key'), `no key column was left behind: ${columns.join(', ')}`);
    assert.equal(schemaOf(db, 't1', 'ent_b'), 'sch_twin', 'no entity was moved');
    assert.equal((db.prepare('SELECT COUNT(*) AS n FROM lb_schemas').get() as { n: number }).n, 5);
    db.exec('DROP TRIGGER fail_drop');
    const index = new SqliteEntityIndex(db);
    assert.deepEqual((await index.listSchemas('t1')).map((s) => s.id), ['sch_work', 'sch_old', 'sch_boat']);
    assert.equal(schemaOf(db, 't1', 'ent_b'), 'sch_old');
  } finally {
    db.close();
  }
});
