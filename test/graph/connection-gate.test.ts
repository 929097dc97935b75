/**
 * `Stores.atomically` on the embedded file keeps its transaction to itself: a store call of another
 * request made while a section awaits waits for the section instead of joining it, so the section's
 * ROLLBACK never undoes it, and it is durable when its promise resolves, not at the section's COMMIT.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { pino } from 'pino';
import { openStores } from '../../graph/open-stores.js';
import { ConnectionGate } from '../../graph/sqlite/connection-gate.js';
import { openDatabase } from '../../graph/sqlite/database.js';
import { SqliteGraphStore } from '../../graph/sqlite/sqlite-graph-store.js';
import type { Stores } from '../../graph/stores.js';
import { loadConfig } from '../../server/config.js';
import { hold, latch } from '../helpers/hold.js';
import { tempDir } from '../helpers/temp-dir.js';

const T = 't_connection_gate';

describe('store calls beside an atomic section on the embedded file', () => {
  const dirs: { remove(): void }[] = [];
  const opened: Stores[] = [];
  after(async () => {
    for (const s of opened) await s.close(1000);
    for (const d of dirs) d.remove();
  });

  /** The stores of a fresh data directory, and the interaction graph read through a second connection to its file. */
  function open(): { stores: Stores; second: SqliteGraphStore } {
    const tmp = tempDir('parley-connection-gate-');
    dirs.push(tmp);
    const stores = openStores(loadConfig({ DATA_DIR: tmp.dir, LOG_LEVEL: 'silent' }), pino({ level: 'silent' }));
    opened.push(stores);
    const second = new SqliteGraphStore(openDatabase(path.join(tmp.dir, 'parley.db')));
    return { stores, second };
  }

  test('an erasure and a write made while an ingest\'s section awaits survive the section\'s rollback', async () => {
    const { stores, second } = open();
    const bob = await stores.graph.createParticipant(T, { name: 'Bob Outside' });
    const section = hold();
    const failing = stores.atomically(async () => {
      await stores.graph.createParticipant(T, { name: 'Ines Inside' });
      await section.wait();
      throw new Error('turn refused: another process took the audio stream');
    });
    await section.reached;
    const erased = stores.graph.deleteParticipant(T, bob.id);
    const written = stores.graph.createParticipant(T, { name: 'Carol Outside' });
    section.release();
    await assert.rejects(failing, /turn refused/);
    assert.ok(await erased, 'the erasure answered');
    const carol = await written;
    assert.equal(await second.getParticipant(T, bob.id), null, 'the erased person stays erased');
    assert.ok(await second.getParticipant(T, carol.id), 'the outside write is kept');
    assert.deepEqual(await second.findParticipantsByName(T, 'Ines Inside'), [], 'the section\'s own write is undone');
  });

  test('an outside write is durable once its call resolves, not only at the section\'s commit', async () => {
    const { stores, second } = open();
    const section = hold();
    const committing = stores.atomically(async () => {
      const p = await stores.graph.createParticipant(T, { name: 'Ines Inside' });
      await section.wait();
      return p;
    });
    await section.reached;
    const seen = stores.graph.createParticipant(T, { name: 'Carol Outside' })
      .then(async (carol) => (await second.getParticipant(T, carol.id)) !== null);
    section.release();
    const inside = await committing;
    assert.equal(await seen, true, 'another connection reads the write when its call resolves');
    assert.ok(await second.getParticipant(T, inside.id), 'the section commits its own write');
  });

  test('a memory write and a job enqueued from outside are not rolled back with the section', async () => {
    const { stores } = open();
    const section = hold();
    const failing = stores.atomically(async () => {
      await section.wait();
      throw new Error('refused');
    });
    await section.reached;
    const processed = stores.memory.markProcessed(T, 'u_gate', ['f_gate']);
    const job = stores.queue.enqueue('gate-test', { n: 1 });
    section.release();
    await assert.rejects(failing, /refused/);
    await Promise.all([processed, job]);
    assert.equal(await stores.queue.pending('gate-test'), 1);
    assert.deepEqual(await stores.memory.processedFacts(T, 'u_gate'), ['f_gate']);
  });
});

describe('ConnectionGate', () => {
  test('a section waits for an outside call already running, whose later statements then commit on their own', async () => {
    const db = openDatabase(':memory:');
    db.exec('CREATE TABLE t (v TEXT)');
    const gate = ConnectionGate.of(db);
    const insert = (v: string): void => { db.prepare('INSERT INTO t (v) VALUES (?)').run(v); };
    const call = hold();
    const outside = gate.call(async () => {
      insert('call-before');
      await call.wait();
      insert('call-after');
    });
    await call.reached;
    const failing = gate.atomically(async () => {
      insert('section');
      throw new Error('refused');
    });
    call.release();
    await outside;
    await assert.rejects(failing, /refused/);
    assert.deepEqual((db.prepare('SELECT v FROM t ORDER BY rowid').all() as { v: string }[]).map((r) => r.v), ['call-before', 'call-after']);
    db.close();
  });

  test('calls from inside a section run in it; a section inside a section joins it; one inside an outside call is refused', async () => {
    const db = openDatabase(':memory:');
    db.exec('CREATE TABLE t (v TEXT)');
    const gate = ConnectionGate.of(db);
    const insert = async (v: string): Promise<void> => { db.prepare('INSERT INTO t (v) VALUES (?)').run(v); };
    await assert.rejects(gate.atomically(async () => {
      await gate.call(() => insert('inner call'));
      await gate.atomically(() => insert('inner section'));
      throw new Error('refused');
    }), /refused/);
    assert.equal((db.prepare('SELECT COUNT(*) AS n FROM t').get() as { n: number }).n, 0);
    await assert.rejects(gate.call(() => gate.atomically(() => insert('x'))), /cannot start inside a store call/);
    db.close();
  });
});

describe('a networked store beside the file (review of the gate, finding 1)', () => {
  test('a Qdrant call that hangs holds up no store call or section on the file', async () => {
    // A Qdrant that holds every answer until the test releases it (from then on it answers at once, a 503), and tells
    // the test when a request has reached it. No timer: the test decides when the hung call ends.
    const held: Array<() => void> = [];
    let holding = true;
    const arrived = latch();
    const server = http.createServer((req, res) => {
      const answer = (): void => { res.writeHead(503, { 'content-type': 'application/json' }); res.end('{"status":"held"}'); };
      if (!holding) return answer();
      held.push(answer);
      arrived.open();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const releaseAll = (): void => {
      holding = false;
      for (const r of held.splice(0)) r();
    };
    const tmp = tempDir('parley-connection-gate-qdrant-');
    const stores = openStores(loadConfig({
      DATA_DIR: tmp.dir, LOG_LEVEL: 'silent', PARLEY_VECTOR_STORE: 'qdrant', QDRANT_URL: `http://127.0.0.1:${port}`,
    }), pino({ level: 'silent' }));
    try {
      // Whatever the first call on the file loads, it loads here, not in the race below.
      await stores.atomically(async () => stores.graph.createParticipant(T, { name: 'Ana Before' }));
      let searchSettled = false;
      const search = stores.vectors.search(T, 'facts', new Float32Array(4), 5).catch(() => undefined)
        .finally(() => { searchSettled = true; });
      await arrived.opened;
      // The search hangs at Qdrant now. The file's calls are synchronous SQLite work chained by promises: they end
      // before the event loop turns once, unless they wait on the search (before the fix the vector store was gated:
      // the section waited for the hung search, and every call after it), which nothing answers until released below.
      const section = stores.atomically(async () => stores.graph.createParticipant(T, { name: 'Ines Inside' }));
      const outside = stores.graph.createParticipant(T, { name: 'Bob Outside' });
      const first = await Promise.race([
        Promise.all([section, outside]).then(() => 'the file\'s calls'),
        new Promise<string>((resolve) => setImmediate(() => resolve('a turn of the event loop'))),
      ]);
      assert.equal(first, 'the file\'s calls', 'the file\'s calls waited on the hung Qdrant call');
      assert.equal(searchSettled, false, 'the search was still hung');
      releaseAll();
      await Promise.all([section, outside, search]);
    } finally {
      releaseAll();
      await stores.close(1000);
      server.close();
      tmp.remove();
    }
  });
});
