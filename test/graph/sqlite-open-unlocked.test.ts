/**
 * storeopen 1: the graph schema's migration (and the entity index's schema keys) took the write transaction on every
 * open, even of a file with nothing missing, so every server or worker start waited for any other process's write
 * (a long erasure, a reindex batch) and, past the busy timeout, failed. They now read what is missing lock-free and take
 * the write lock only when something is (`migrateSchema`). Real SQLite, two connections to one file; the opener waits
 * for no lock (`busy_timeout = 0`), so a regression fails at once with SQLITE_BUSY.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { openDatabase, type SqliteDatabase } from '../../graph/sqlite/database.js';
import { SqliteEntityIndex } from '../../graph/sqlite/sqlite-entity-index.js';
import { SqliteGraphStore } from '../../graph/sqlite/sqlite-graph-store.js';
import { SqliteJobQueue } from '../../graph/sqlite/sqlite-job-queue.js';
import { SqliteLexicalIndex } from '../../graph/sqlite/sqlite-lexical-index.js';
import { SqliteMemoryStore } from '../../graph/sqlite/sqlite-memory-store.js';
import { SqliteVectorStore } from '../../graph/sqlite/sqlite-vector-store.js';
import { SqliteVoiceprintStore } from '../../graph/sqlite/sqlite-voiceprint-store.js';
import { Outbox } from '../../graph/outbox/outbox.js';
import { columnsOf } from '../helpers/sqlite-race.js';
import { tempDir } from '../helpers/temp-dir.js';

const dirs: Array<{ remove(): void }> = [];
after(() => { for (const d of dirs) d.remove(); });

/** Every embedded store on `db`, as `openStores` opens them on the file. */
async function openEveryStore(db: SqliteDatabase): Promise<void> {
  new Outbox(db);
  await new SqliteJobQueue(db).close();
  new SqliteVectorStore(db);
  new SqliteLexicalIndex(db);
  new SqliteVoiceprintStore(db);
  new SqliteGraphStore(db);
  new SqliteMemoryStore(db);
  new SqliteEntityIndex(db);
}

/** A file with every store's schema, and connections `writer` (to hold the write lock) and `opener` (waits for none). */
async function upToDateFile(): Promise<{ file: string; writer: SqliteDatabase; opener: SqliteDatabase }> {
  const tmp = tempDir('parley-open-unlocked-');
  dirs.push(tmp);
  const file = `${tmp.dir}/parley.db`;
  const setup = openDatabase(file);
  await openEveryStore(setup);
  setup.close();
  const [writer, opener] = [openDatabase(file), openDatabase(file)];
  opener.pragma('busy_timeout = 0');
  return { file, writer, opener };
}

test('opening an up-to-date file while another process holds the write lock: every store opens, none waits', async () => {
  const { writer, opener } = await upToDateFile();
  try {
    writer.exec('BEGIN IMMEDIATE'); // a long erasure, migration or reindex batch in another process
    await assert.doesNotReject(openEveryStore(opener));
    assert.ok(writer.inTransaction, 'the other process still holds its write transaction');
  } finally {
    writer.exec('ROLLBACK');
    writer.close();
    opener.close();
  }
});

test('an older graph file still needs the write lock: refused while another process holds it, migrated after', async () => {
  const { writer, opener } = await upToDateFile();
  try {
    const graph = new SqliteGraphStore(writer);
    const p = await graph.createParticipant('t', { name: 'Rosa Díaz' });
    // A file from before participants' name words and the sessions' idle index were kept.
    writer.exec('DROP TABLE participant_words; DROP INDEX sessions_idle; ALTER TABLE pending_merges DROP COLUMN erasure');
    writer.exec('BEGIN IMMEDIATE');
    assert.throws(() => new SqliteGraphStore(opener), (err: { code?: string }) => err.code === 'SQLITE_BUSY');
    writer.exec('COMMIT');
    const opened = new SqliteGraphStore(opener);
    assert.ok(columnsOf(opener, 'pending_merges').includes('erasure'));
    assert.equal(opener.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'sessions_idle'").pluck().get(), 1);
    assert.deepEqual((await opened.findParticipantsByWords('t', ['rosa'])).map((q) => q.id), [p.id], 'the words of a participant stored before are indexed');
  } finally {
    if (writer.inTransaction) writer.exec('ROLLBACK');
    writer.close();
    opener.close();
  }
});

test('an entity index file with an unkeyed emergent schema is keyed on open; then it opens without the lock', async () => {
  const { writer, opener } = await upToDateFile();
  try {
    writer.prepare(`INSERT INTO lb_schemas (tenant, id, name, description, origin, created_at) VALUES ('t', 'sch_1', 'Bikes', '', 'emergent', '2026-01-01')`).run();
    writer.exec('BEGIN IMMEDIATE');
    assert.throws(() => new SqliteEntityIndex(opener), (err: { code?: string }) => err.code === 'SQLITE_BUSY');
    writer.exec('COMMIT');
    new SqliteEntityIndex(opener);
    assert.equal(opener.prepare("SELECT key FROM lb_schemas WHERE id = 'sch_1'").pluck().get(), 'bikes');
    writer.exec('BEGIN IMMEDIATE');
    assert.doesNotThrow(() => new SqliteEntityIndex(opener));
  } finally {
    if (writer.inTransaction) writer.exec('ROLLBACK');
    writer.close();
    opener.close();
  }
});

test('a lexical index of the earlier layout, moved by another process between this one\'s check and its move: moved once, no error', async () => {
  const tmp = tempDir('parley-open-unlocked-');
  dirs.push(tmp);
  const file = `${tmp.dir}/parley.db`;
  const [mine, theirs] = [openDatabase(file), openDatabase(file)];
  try {
    // The earlier schema: one FTS5 table for every tenant, kept by triggers.
    mine.exec(`CREATE TABLE lexical_docs (
        rowid INTEGER PRIMARY KEY, tenant TEXT NOT NULL, id TEXT NOT NULL, text TEXT NOT NULL,
        layer TEXT NOT NULL, session_id TEXT, speaker_id TEXT, addressees TEXT NOT NULL DEFAULT '[]', UNIQUE (tenant, id));
      CREATE VIRTUAL TABLE lexical_fts USING fts5(text, content = 'lexical_docs', content_rowid = 'rowid', tokenize = 'porter unicode61');
      CREATE TRIGGER lexical_docs_ai AFTER INSERT ON lexical_docs BEGIN INSERT INTO lexical_fts (rowid, text) VALUES (new.rowid, new.text); END;
      CREATE TRIGGER lexical_docs_ad AFTER DELETE ON lexical_docs BEGIN
        INSERT INTO lexical_fts (lexical_fts, rowid, text) VALUES ('delete', old.rowid, old.text); END;
      INSERT INTO lexical_docs (tenant, id, text, layer) VALUES ('t1', 'u1', 'Ben adopted a cat called Miko', 'interaction');`);
    // The other process (a worker starting with the server) moves the index right after this one found the old table.
    let moved = false;
    const racing = new Proxy(mine, {
      get(target, prop) {
        if (prop === 'prepare') {
          return (sql: string) => {
            const stmt = target.prepare(sql);
            if (moved || target.inTransaction || !sql.includes("name = 'lexical_fts'")) return stmt;
            return { get: () => {
              const row = stmt.get();
              new SqliteLexicalIndex(theirs);
              moved = true;
              return row;
            } };
          };
        }
        const value = Reflect.get(target, prop, target) as unknown;
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    const index = new SqliteLexicalIndex(racing);
    assert.ok(moved, 'the other process moved the index first');
    assert.deepEqual((await index.search('t1', 'cats', 5)).map((h) => h.id), ['u1']);
    assert.equal(mine.prepare("SELECT count(*) FROM sqlite_master WHERE name LIKE 'lexical_fts_%' AND type = 'table' AND sql LIKE 'CREATE VIRTUAL%'").pluck().get(), 1);
  } finally {
    mine.close();
    theirs.close();
  }
});
