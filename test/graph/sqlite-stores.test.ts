import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import path from 'node:path';
import { openDatabase, type SqliteDatabase } from '../../graph/sqlite/database.js';
import { SqliteGraphStore } from '../../graph/sqlite/sqlite-graph-store.js';
import { SqliteJobQueue } from '../../graph/sqlite/sqlite-job-queue.js';
import { SqliteLexicalIndex } from '../../graph/sqlite/sqlite-lexical-index.js';
import { SqliteVectorStore } from '../../graph/sqlite/sqlite-vector-store.js';
import { tempDir } from '../helpers/temp-dir.js';
import { graphStoreContract } from './contracts/graph-store.contract.js';
import { participantAttributeContract } from './contracts/participant-attribute.contract.js';
import { pendingErasureContract } from './contracts/pending-erasure.contract.js';
import { jobQueueContract } from './contracts/job-queue.contract.js';
import { assertFloodKeepsScores, lexicalIndexContract } from './contracts/lexical-index.contract.js';
import { vectorStoreContract } from './contracts/vector-store.contract.js';

/** Each fixture gets its own database file, closed and removed afterwards. */
function withDb<T>(make: (db: SqliteDatabase) => T): () => Promise<{ value: T; db: SqliteDatabase; cleanup(): Promise<void> }> {
  return async () => {
    const tmp = tempDir();
    const db = openDatabase(path.join(tmp.dir, 'parley.db'));
    return { value: make(db), db, cleanup: async () => { db.close(); tmp.remove(); } };
  };
}

graphStoreContract('sqlite', async () => {
  const { value, cleanup } = await withDb((db) => new SqliteGraphStore(db))();
  return { store: value, cleanup };
});

participantAttributeContract('sqlite', async () => {
  const { value, cleanup } = await withDb((db) => new SqliteGraphStore(db))();
  return { store: value, cleanup };
});

pendingErasureContract('sqlite', async () => {
  const { value, cleanup } = await withDb((db) => new SqliteGraphStore(db))();
  return { store: value, cleanup };
});

vectorStoreContract('sqlite', async () => {
  const { value, cleanup } = await withDb((db) => new SqliteVectorStore(db))();
  return { store: value, cleanup };
});

lexicalIndexContract('sqlite fts5', async () => {
  const { value, cleanup } = await withDb((db) => new SqliteLexicalIndex(db))();
  return { index: value, cleanup };
});

jobQueueContract('sqlite (in-process)', async () => {
  const tmp = tempDir();
  const file = path.join(tmp.dir, 'parley.db');
  const handles: { db: SqliteDatabase; queue: SqliteJobQueue }[] = [];
  const open = (options: { maxOutageWaitMs?: number; maxRunMs?: number } = {}): SqliteJobQueue => {
    const db = openDatabase(file);
    const queue = new SqliteJobQueue(db, { pollMs: 10, ...options });
    handles.push({ db, queue });
    return queue;
  };
  return {
    queue: open(),
    reopen: async (options) => open(options),
    cleanup: async () => {
      for (const h of handles) {
        await h.queue.close(1000);
        h.db.close();
      }
      tmp.remove();
    },
  };
});

describe('sqlite fts5: words in half of all documents or more', () => {
  it('are dropped from the query without changing the ranking of the rest', async () => {
    const { value: index, cleanup } = await withDb((db) => new SqliteLexicalIndex(db))();
    try {
      // 1,200 documents all holding "talked"; "ferry" in 3 of them, twice in the first.
      const docs = Array.from({ length: 1200 }, (_, i) => ({
        id: `d${i}`, layer: 'interaction',
        text: i === 7 ? 'we talked about the ferry and the ferry timetable' : i === 70 || i === 700 ? `she talked about a ferry ride number ${i}` : `he talked about item ${i}`,
      }));
      await index.index('t', docs);
      const hits = await index.search('t', 'talked ferry', 10);
      assert.deepEqual(hits.map((h) => h.id).sort(), ['d7', 'd70', 'd700']);
      assert.equal(hits[0]!.id, 'd7');
      const ferryOnly = await index.search('t', 'ferry', 10);
      assert.deepEqual(hits.map((h) => h.id), ferryOnly.map((h) => h.id));
      // A query of common words only is kept whole.
      assert.equal((await index.search('t', 'talked', 5)).length, 5);
      // Inside a pool and with a speaker-free layer filter the same holds.
      const pooled = await index.search('t', 'talked ferry', 10, { ids: ['d7', 'd8', 'd700'], layer: 'interaction' });
      assert.deepEqual(pooled.map((h) => h.id), ['d7', 'd700']);
    } finally {
      await cleanup();
    }
  });

  it('are kept while the index is small', async () => {
    const { value: index, cleanup } = await withDb((db) => new SqliteLexicalIndex(db))();
    try {
      await index.index('t', [{ id: 'a', layer: 'x', text: 'cat food' }, { id: 'b', layer: 'x', text: 'cat toys' }]);
      assert.deepEqual((await index.search('t', 'cat bowl', 5)).map((h) => h.id).sort(), ['a', 'b']);
    } finally {
      await cleanup();
    }
  });
});

describe('sqlite fts5: BM25 statistics per tenant', () => {
  it("one tenant's documents never change another tenant's scores", async () => {
    const { value: index, cleanup } = await withDb((db) => new SqliteLexicalIndex(db))();
    try {
      // Tenant A floods the same words, in long documents: with one index for all tenants, idf
      // and average length would move and B's scores with them.
      const before = await assertFloodKeepsScores(index, Array.from({ length: 300 }, (_, i) => ({
        id: `a${i}`, layer: 'fact', text: i % 2 ? 'tuna tuna tuna and a very long story about nothing much at all today' : 'Miko and more Miko',
      })));
      await index.delete('tA', ['a1', 'a2']);
      assert.deepEqual(await index.search('tB', 'Miko garden tuna', 5), before);
      assert.equal((await index.search('tA', 'tuna', 500)).length, 149);
    } finally {
      await cleanup();
    }
  });

  it('a second instance on the same file (another process) sees a tenant the first created', async () => {
    const { value: one, db, cleanup } = await withDb((d) => new SqliteLexicalIndex(d))();
    try {
      const two = new SqliteLexicalIndex(db);
      assert.deepEqual(await two.search('t', 'ferry', 5), []);
      await one.index('t', [{ id: 'x', text: 'the ferry leaves at noon', layer: 'fact' }]);
      assert.deepEqual((await two.search('t', 'ferry', 5)).map((h) => h.id), ['x']);
      await two.index('t', [{ id: 'x', text: 'the bus leaves at noon', layer: 'fact' }]);
      assert.deepEqual(await one.search('t', 'ferry', 5), []);
    } finally {
      await cleanup();
    }
  });

  it('an index of the earlier layout (one FTS5 table for all tenants) moves to one table per tenant', async () => {
    const tmp = tempDir();
    const file = path.join(tmp.dir, 'parley.db');
    try {
      const old = openDatabase(file);
      // The earlier schema, verbatim: one FTS5 table kept by triggers.
      old.exec(`CREATE TABLE lexical_docs (
          rowid INTEGER PRIMARY KEY, tenant TEXT NOT NULL, id TEXT NOT NULL, text TEXT NOT NULL,
          layer TEXT NOT NULL, session_id TEXT, speaker_id TEXT, addressees TEXT NOT NULL DEFAULT '[]',
          UNIQUE (tenant, id));
        CREATE VIRTUAL TABLE lexical_fts USING fts5(text, content = 'lexical_docs', content_rowid = 'rowid', tokenize = 'porter unicode61');
        CREATE TRIGGER lexical_docs_ai AFTER INSERT ON lexical_docs BEGIN
          INSERT INTO lexical_fts (rowid, text) VALUES (new.rowid, new.text);
        END;
        CREATE TRIGGER lexical_docs_ad AFTER DELETE ON lexical_docs BEGIN
          INSERT INTO lexical_fts (lexical_fts, rowid, text) VALUES ('delete', old.rowid, old.text);
        END;
        INSERT INTO lexical_docs (tenant, id, text, layer) VALUES ('t1', 'u1', 'Ben adopted a cat called Miko', 'interaction'),
          ('t2', 'u2', 'the cat sleeps', 'interaction'), ('t1', 'u3', 'lovely weather', 'interaction');`);
      old.close();
      const db = openDatabase(file);
      try {
        const index = new SqliteLexicalIndex(db);
        assert.deepEqual((await index.search('t1', 'cats', 5)).map((h) => h.id), ['u1']);
        assert.deepEqual((await index.search('t2', 'cat', 5)).map((h) => h.id), ['u2']);
        assert.equal(db.prepare("SELECT count(*) FROM sqlite_master WHERE name IN ('lexical_fts', 'lexical_docs_ai', 'lexical_docs_ad')").pluck().get(), 0);
        await index.delete('t1', ['u1']);
        assert.deepEqual(await index.search('t1', 'cats', 5), []);
        assert.deepEqual((await index.search('t1', 'weather', 5)).map((h) => h.id), ['u3']);
      } finally {
        db.close();
      }
    } finally {
      tmp.remove();
    }
  });
});

describe('sqlite graph store: a database from before utterances kept their turn', () => {
  it('gains the column on open; old utterances read without a turn, new ones keep theirs', async () => {
    const tmp = tempDir();
    try {
      const db = openDatabase(path.join(tmp.dir, 'parley.db'));
      // The utterances table as releases before `turn_id` created it.
      db.exec(`CREATE TABLE utterances (
        tenant TEXT NOT NULL, id TEXT NOT NULL, session_id TEXT NOT NULL, seq INTEGER NOT NULL,
        speaker_id TEXT NOT NULL, text TEXT NOT NULL, start_ms REAL, end_ms REAL, time TEXT NOT NULL,
        confidence REAL, audio_ref TEXT, PRIMARY KEY (tenant, id));
        INSERT INTO utterances VALUES ('t1', 'u_old', 's1', 1, 'p_a', 'Said before the upgrade.', NULL, NULL, '2026-01-01T00:00:00.000Z', NULL, NULL);`);
      const store = new SqliteGraphStore(db);
      const old = await store.getUtterance('t1', 'u_old');
      assert.equal(old?.text, 'Said before the upgrade.');
      assert.equal(old?.turnId, undefined);
      assert.equal(old?.heardBy, undefined, 'what heard it is unknown: no doubtful-speech gate under auto');
      const [added] = await store.addUtterances('t1', [{
        id: 'u_new', sessionId: 's1', speakerId: 'p_a', text: 'Said after it.', addresseeIds: [], startMs: null, endMs: null,
        time: '2026-01-02T00:00:00.000Z', confidence: 0.5, audioRef: null, turnId: 'turn_3',
        heardBy: { asr: 'pocketsphinx', sampleRate: 16000 },
      }]);
      assert.equal(added?.turnId, 'turn_3');
      assert.deepEqual(added?.heardBy, { asr: 'pocketsphinx', sampleRate: 16000 });
      assert.equal(added?.seq, 2, 'the session counter starts from the highest number the old table held');
      db.close();
    } finally {
      tmp.remove();
    }
  });
});

describe('sqlite graph store: a database from before pending erasures had a lease', () => {
  it('gains the lease columns on open; a pending erasure of before is unclaimed, and can be claimed', async () => {
    const tmp = tempDir();
    try {
      const db = openDatabase(path.join(tmp.dir, 'parley.db'));
      db.exec(`CREATE TABLE pending_erasures (
        tenant TEXT NOT NULL, participant_id TEXT NOT NULL, plan TEXT NOT NULL, utterance_ids TEXT NOT NULL, started_at TEXT NOT NULL,
        PRIMARY KEY (tenant, participant_id));
        INSERT INTO pending_erasures VALUES ('t1', 'p_a', '{}', '["u1"]', '2026-01-01T00:00:00.000Z');`);
      const store = new SqliteGraphStore(db);
      const [pending] = await store.pendingErasures('t1');
      assert.deepEqual([pending?.utteranceIds, pending?.owner, pending?.leaseUntil], [['u1'], null, null]);
      assert.equal(await store.claimErasure('t1', 'p_a', { owner: 'a', now: '2026-01-02T00:00:00.000Z', until: '2026-01-02T00:10:00.000Z' }), true);
      db.close();
    } finally {
      tmp.remove();
    }
  });
});

describe('sqlite graph store: a database from before pending merges kept an erasure plan', () => {
  it('gains the column on open; a pending merge of before has none, and can be given one', async () => {
    const tmp = tempDir();
    try {
      const db = openDatabase(path.join(tmp.dir, 'parley.db'));
      db.exec(`CREATE TABLE pending_merges (
        tenant TEXT NOT NULL, from_id TEXT NOT NULL, into_id TEXT NOT NULL, utterance_ids TEXT NOT NULL,
        started_at TEXT NOT NULL, touched_at TEXT NOT NULL,
        PRIMARY KEY (tenant, from_id));
        INSERT INTO pending_merges VALUES ('t1', 'p_a', 'p_b', '["u1"]', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z');`);
      const store = new SqliteGraphStore(db);
      const [pending] = await store.pendingMerges('t1');
      assert.deepEqual(pending, { fromId: 'p_a', intoId: 'p_b', utteranceIds: ['u1'], startedAt: '2026-01-01T00:00:00.000Z', touchedAt: '2026-01-01T00:00:00.000Z' });
      assert.equal(await store.renewMerge('t1', 'p_a', 'p_b', '2026-01-02T00:00:00.000Z', '{}'), true);
      assert.equal((await store.pendingMerges('t1'))[0]?.erasure, '{}');
      db.close();
    } finally {
      tmp.remove();
    }
  });
});
