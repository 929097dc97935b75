/** Two processes opening one old SQLite file at once both add a missing column: the second one's "duplicate column" is tolerated. */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { addColumnIfMissing, openDatabase, type SqliteDatabase } from '../../graph/sqlite/database.js';

test('a column another process added between the check and the ALTER is taken as added; other errors still throw', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-add-column-'));
  const file = path.join(dir, 'old.db');
  const [mine, theirs] = [openDatabase(file), openDatabase(file)];
  try {
    mine.exec('CREATE TABLE memory_processed (tenant TEXT NOT NULL, utterance_id TEXT NOT NULL)');
    // The other process adds the column right after this one read the table's columns.
    const racing = {
      prepare: (sql: string) => ({ all: () => {
        const rows = mine.prepare(sql).all();
        theirs.exec('ALTER TABLE memory_processed ADD COLUMN speaker_id TEXT');
        return rows;
      } }),
      exec: (sql: string) => mine.exec(sql),
    } as unknown as SqliteDatabase;
    addColumnIfMissing(racing, 'memory_processed', 'speaker_id', 'TEXT');
    const names = (mine.prepare('PRAGMA table_info(memory_processed)').all() as Array<{ name: string }>).map((c) => c.name);
    assert.deepEqual(names, ['tenant', 'utterance_id', 'speaker_id']);
    addColumnIfMissing(mine, 'memory_processed', 'speaker_id', 'TEXT');
    assert.throws(() => addColumnIfMissing(mine, 'memory_processed', 'bad', 'TEXT REFERENCES'), /syntax|incomplete/i);
  } finally {
    mine.close();
    theirs.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
