import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, describe, test } from 'node:test';
import { openDatabase } from '../../graph/sqlite/database.js';
import { tempDir } from '../helpers/temp-dir.js';
import { LOCOMO_BENCH as BENCH, writeTinyLocomoSet } from '../helpers/tiny-locomo.js';

const run = promisify(execFile);

const sha256 = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex');

describe('bench/retrieval-locomo --store: asking a kept store writes nothing to it', () => {
  const tmp = tempDir('parley-locomo-store-');
  after(() => tmp.remove());
  writeTinyLocomoSet(tmp.dir);
  const store = path.join(tmp.dir, 'store');
  const bench = (...args: string[]) => run(process.execPath, [BENCH, '--data', tmp.dir, '--store', store, ...args], {
    env: { ...process.env, LOG_LEVEL: 'silent' }, maxBuffer: 16 * 1024 * 1024,
  });

  test('two asking runs at once on one store both finish, and the file is byte for byte as built', async () => {
    const built = await bench('--ingest-only');
    assert.match(built.stdout, /--ingest-only: 8 turns stored/);
    // Its consolidation jobs finished over a day ago, as in a store kept since: old enough to be pruned by a job runner.
    const db = openDatabase(path.join(store, 'parley.db'));
    const aged = db.prepare("UPDATE jobs SET updated_at = updated_at - 2 * 86400000 WHERE state = 'done'").run().changes;
    const named = db.prepare("SELECT count(*) FROM lexical_docs WHERE layer = 'bench-named'").pluck().get();
    db.close();
    assert.ok(aged > 0, 'the store has finished consolidation jobs');
    assert.equal(named, 8, 'the named baseline\'s "speaker: turn" documents are built with the store');
    const file = path.join(store, 'parley.db');
    const before = { hash: sha256(file), mtimeMs: statSync(file).mtimeMs };

    const [a, b] = await Promise.all([bench(), bench()]);
    for (const out of [a, b]) {
      assert.match(out.stdout, /reusing the 8 turns/);
      assert.match(out.stdout, /\| baseline: BM25, speaker name \+ turn \|/, 'the questions were asked');
    }
    assert.deepEqual({ hash: sha256(file), mtimeMs: statSync(file).mtimeMs }, before);
  });
});
