/**
 * review D L4: the graph schema's migration read which columns were missing before its transaction, so a server and a
 * `npm run worker` starting together on an upgrade could both add `heard_asr`, the second failing with "duplicate
 * column". The read is now inside the write transaction, taken at once: the other process waits its turn and then finds
 * the columns added. Real SQLite, two connections to one file (the race set up by `racingMigration`).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { openDatabase } from '../../graph/sqlite/database.js';
import { createGraphSchema } from '../../graph/sqlite/sqlite-graph-schema.js';
import { columnsOf, racingMigration } from '../helpers/sqlite-race.js';

test('two processes migrating one old file at once: each column added once, neither fails', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-graph-migrate-'));
  const file = path.join(dir, 'old.db');
  const [mine, theirs] = [openDatabase(file), openDatabase(file)];
  try {
    // A file written before the recogniser was kept with each turn.
    createGraphSchema(mine);
    mine.exec('ALTER TABLE utterances DROP COLUMN heard_sample_rate; ALTER TABLE utterances DROP COLUMN heard_asr');
    // The other process tries to add the column right after this one read the table's columns; while this one holds
    // the write lock it cannot (SQLITE_BUSY, at once here), and migrates after.
    const race = racingMigration(mine, theirs, 'PRAGMA table_info(utterances)', 'ALTER TABLE utterances ADD COLUMN heard_asr TEXT');
    createGraphSchema(race.db);
    assert.equal(race.tried(), 'waited', 'the other process waits for this one\'s migration');
    theirs.pragma('busy_timeout = 5000');
    createGraphSchema(theirs);
    const heard = columnsOf(mine, 'utterances').filter((c) => c.startsWith('heard_'));
    assert.deepEqual(heard, ['heard_asr', 'heard_sample_rate']);
  } finally {
    mine.close();
    theirs.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a migrated file is left as it is; a fresh one gets every column', () => {
  const db = openDatabase(':memory:');
  try {
    createGraphSchema(db);
    const before = columnsOf(db, 'utterances');
    assert.ok(before.includes('heard_asr') && before.includes('heard_sample_rate'));
    createGraphSchema(db);
    assert.deepEqual(columnsOf(db, 'utterances'), before);
  } finally {
    db.close();
  }
});
