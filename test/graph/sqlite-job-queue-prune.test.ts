import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { openDatabase } from '../../graph/sqlite/database.js';
import { SqliteJobQueue } from '../../graph/sqlite/sqlite-job-queue.js';
import { tempDir } from '../helpers/temp-dir.js';

test('finished jobs over a day old are dropped by a handle that runs jobs, not by one that only opens the file', async () => {
  const tmp = tempDir();
  const file = path.join(tmp.dir, 'parley.db');
  const first = openDatabase(file);
  const q1 = new SqliteJobQueue(first, { pollMs: 10 });
  q1.process('work', async () => undefined);
  await q1.enqueue('work', {}, { jobId: 'old' });
  await q1.drain('work', 5000);
  await q1.close(1000);
  first.prepare("UPDATE jobs SET updated_at = updated_at - 2 * 86400000 WHERE id = 'old'").run();
  const version = (): number => first.pragma('data_version', { simple: true }) as number;
  const unchanged = version();

  const db = openDatabase(file);
  const q2 = new SqliteJobQueue(db, { pollMs: 10 });
  assert.equal(version(), unchanged, 'opening a queue handle wrote nothing to the file');
  assert.equal(await q2.enqueue('work', {}, { jobId: 'old' }), 'old');
  assert.equal(db.prepare("SELECT state FROM jobs WHERE id = 'old'").pluck().get(), 'done', 'kept: a re-enqueue of its id is still a no-op');

  q2.process('work', async () => undefined);
  assert.equal(db.prepare("SELECT count(*) FROM jobs WHERE id = 'old'").pluck().get(), 0, 'dropped once the handle runs jobs');
  await q2.close(1000);
  db.close();
  first.close();
  tmp.remove();
});
