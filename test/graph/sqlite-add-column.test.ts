/**
 * Two processes opening one old SQLite file at once both find a column missing (`addMissingColumns`): the read is inside
 * the write transaction, so the other waits for this one's and finds the column added; nothing fails twice.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { addMissingColumns, openDatabase } from '../../graph/sqlite/database.js';
import { SqliteVectorStore } from '../../graph/sqlite/sqlite-vector-store.js';
import { columnsOf, racingMigration } from '../helpers/sqlite-race.js';
import { tempDir } from '../helpers/temp-dir.js';

test('a column another process tries to add between the check and the ALTER is added once; other errors still throw', () => {
  const tmp = tempDir('parley-add-column-');
  const file = `${tmp.dir}/old.db`;
  const [mine, theirs] = [openDatabase(file), openDatabase(file)];
  try {
    mine.exec('CREATE TABLE memory_processed (tenant TEXT NOT NULL, utterance_id TEXT NOT NULL)');
    const race = racingMigration(mine, theirs, 'PRAGMA table_info(memory_processed)', 'ALTER TABLE memory_processed ADD COLUMN speaker_id TEXT');
    addMissingColumns(race.db, 'memory_processed', [{ column: 'speaker_id', decl: 'TEXT' }, { column: 'deleted_ids', decl: 'TEXT' }]);
    assert.equal(race.tried(), 'waited');
    theirs.pragma('busy_timeout = 5000');
    addMissingColumns(theirs, 'memory_processed', [{ column: 'speaker_id', decl: 'TEXT' }, { column: 'deleted_ids', decl: 'TEXT' }]);
    assert.deepEqual(columnsOf(mine, 'memory_processed'), ['tenant', 'utterance_id', 'speaker_id', 'deleted_ids']);
    assert.throws(() => addMissingColumns(mine, 'memory_processed', [{ column: 'bad', decl: 'TEXT REFERENCES' }]), /syntax|incomplete/i);
    assert.deepEqual(columnsOf(mine, 'memory_processed'), ['tenant', 'utterance_id', 'speaker_id', 'deleted_ids'], 'a failed add rolls back');
  } finally {
    mine.close();
    theirs.close();
    tmp.remove();
  }
});

test('opening a store whose columns are all there takes no write lock: another connection holding one does not block it', () => {
  const tmp = tempDir('parley-add-column-');
  const file = `${tmp.dir}/parley.db`;
  const setup = openDatabase(file);
  new SqliteVectorStore(setup);
  setup.exec('CREATE TABLE memory_processed (tenant TEXT NOT NULL, utterance_id TEXT NOT NULL, speaker_id TEXT)');
  const [writer, opener] = [openDatabase(file), openDatabase(file)];
  try {
    writer.exec('BEGIN IMMEDIATE'); // a long erasure, migration or reindex batch in another process
    opener.pragma('busy_timeout = 0'); // fail at once rather than wait, were a write lock asked for
    assert.doesNotThrow(() => new SqliteVectorStore(opener));
    assert.doesNotThrow(() => addMissingColumns(opener, 'memory_processed', [{ column: 'speaker_id', decl: 'TEXT' }]));
    assert.throws(() => addMissingColumns(opener, 'memory_processed', [{ column: 'deleted_ids', decl: 'TEXT' }]), /locked|busy/i,
      'a missing column still needs the write lock');
    writer.exec('COMMIT');
    addMissingColumns(opener, 'memory_processed', [{ column: 'deleted_ids', decl: 'TEXT' }]);
    assert.deepEqual(columnsOf(opener, 'memory_processed'), ['tenant', 'utterance_id', 'speaker_id', 'deleted_ids']);
  } finally {
    if (writer.inTransaction) writer.exec('ROLLBACK');
    for (const db of [setup, writer, opener]) db.close();
    tmp.remove();
  }
});
