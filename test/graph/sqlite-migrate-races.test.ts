/**
 * storefix 2: the job queue's constructor and the entity index's `addDescriptionOrder` read `PRAGMA table_info` and
 * then ran `ALTER TABLE ... ADD COLUMN` outside a transaction, so a server and a worker opening one older file at once
 * could both find a column missing and the second failed with "duplicate column name". The read and the ALTERs are now
 * one `BEGIN IMMEDIATE` transaction (`addMissingColumns`): the other process waits its turn and then finds the columns
 * added. Real SQLite, two connections to one file (the race set up as in sqlite-graph-migrate-race.test.ts).
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { openDatabase } from '../../graph/sqlite/database.js';
import { SqliteEntityIndex } from '../../graph/sqlite/sqlite-entity-index.js';
import { SqliteJobQueue } from '../../graph/sqlite/sqlite-job-queue.js';
import { columnsOf, racingMigration } from '../helpers/sqlite-race.js';
import { tempDir } from '../helpers/temp-dir.js';

const dirs: Array<{ remove(): void }> = [];
after(() => { for (const d of dirs) d.remove(); });

function twoConnections() {
  const tmp = tempDir('parley-migrate-race-');
  dirs.push(tmp);
  const file = `${tmp.dir}/old.db`;
  return [openDatabase(file), openDatabase(file)] as const;
}

test('job queue: a worker opening the old file while the server adds the lease columns waits, neither fails', async () => {
  const [mine, theirs] = twoConnections();
  // A file written before jobs kept their owner, lease and outages.
  await new SqliteJobQueue(mine).close();
  for (const c of ['owner', 'lease_until', 'outages', 'outage_since']) mine.exec(`ALTER TABLE jobs DROP COLUMN ${c}`);
  const race = racingMigration(mine, theirs, 'PRAGMA table_info(jobs)', 'ALTER TABLE jobs ADD COLUMN owner TEXT');
  const queue = new SqliteJobQueue(race.db);
  assert.equal(race.tried(), 'waited', 'the other process waits for this one\'s migration');
  theirs.pragma('busy_timeout = 5000');
  const other = new SqliteJobQueue(theirs);
  assert.deepEqual(columnsOf(mine, 'jobs').slice(-4), ['owner', 'lease_until', 'outages', 'outage_since']);
  await queue.close();
  await other.close();
  mine.close();
  theirs.close();
});

test('entity index: description_order is added once when two processes open the old file at once', () => {
  const [mine, theirs] = twoConnections();
  new SqliteEntityIndex(mine);
  mine.exec('ALTER TABLE lb_entities DROP COLUMN description_order');
  const race = racingMigration(mine, theirs, 'PRAGMA table_info(lb_entities)', 'ALTER TABLE lb_entities ADD COLUMN description_order TEXT');
  new SqliteEntityIndex(race.db);
  assert.equal(race.tried(), 'waited', 'the other process waits for this one\'s migration');
  theirs.pragma('busy_timeout = 5000');
  new SqliteEntityIndex(theirs);
  assert.equal(columnsOf(mine, 'lb_entities').filter((c) => c === 'description_order').length, 1);
  mine.close();
  theirs.close();
});
