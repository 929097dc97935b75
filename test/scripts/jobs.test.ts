import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { test } from 'node:test';
import { ParleyError } from '../../graph/core/errors.js';
import { OUTAGE_GAVE_UP } from '../../graph/job-queue.js';
import { openDatabase } from '../../graph/sqlite/database.js';
import { SqliteJobQueue } from '../../graph/sqlite/sqlite-job-queue.js';
import { AFTER_CONSOLIDATION_JOB } from '../../pipelines/memory/after-consolidation.js';
import { tempDir } from '../helpers/temp-dir.js';

const run = promisify(execFile);
const CLI = path.resolve(import.meta.dirname, '../../scripts/jobs.js');

test('npm run jobs lists a job failed after the longest outage wait, with its data, and puts it back on its queue', async () => {
  const tmp = tempDir('parley-jobs-cli-');
  const file = path.join(tmp.dir, 'parley.db');
  try {
    const db = openDatabase(file);
    const queue = new SqliteJobQueue(db, { pollMs: 10, maxOutageWaitMs: 50 });
    queue.process(AFTER_CONSOLIDATION_JOB, async () => {
      throw new ParleyError('PARLEY_ERR_STORE_UNAVAILABLE', 'Neo4j (NEO4J_URI) unavailable during a test');
    });
    const id = await queue.enqueue(AFTER_CONSOLIDATION_JOB, { tenant: 't', sessionId: 's', utteranceId: 'u_1' }, { backoffMs: 10 });
    for (let i = 0; i < 1500 && (await queue.deadLetters(AFTER_CONSOLIDATION_JOB)).length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    await queue.close(1000);
    db.close();

    const env = { ...process.env, DATA_DIR: tmp.dir, LOG_LEVEL: 'silent', PARLEY_QUEUE: 'embedded' };
    const listed = await run(process.execPath, [CLI, 'dead'], { env });
    const [line, ...rest] = listed.stdout.trim().split('\n');
    assert.equal(rest.length, 0, listed.stdout);
    const dead = JSON.parse(line ?? '{}') as { queue: string; id: string; error: string; data: unknown };
    assert.equal(dead.queue, AFTER_CONSOLIDATION_JOB);
    assert.equal(dead.id, id);
    assert.ok(dead.error.startsWith(OUTAGE_GAVE_UP), dead.error);
    assert.deepEqual(dead.data, { tenant: 't', sessionId: 's', utteranceId: 'u_1' });

    const retried = await run(process.execPath, [CLI, 'retry', AFTER_CONSOLIDATION_JOB, id], { env });
    assert.deepEqual(JSON.parse(retried.stdout), { queue: AFTER_CONSOLIDATION_JOB, id, retried: true });
    await assert.rejects(run(process.execPath, [CLI, 'retry', AFTER_CONSOLIDATION_JOB, 'job_missing'], { env }), { code: 1 });
    await assert.rejects(run(process.execPath, [CLI, 'retry', 'no.such.queue', id], { env }), { code: 2 });

    const reopened = openDatabase(file);
    const after = new SqliteJobQueue(reopened);
    try {
      assert.deepEqual(await after.deadLetters(AFTER_CONSOLIDATION_JOB), []);
      assert.equal(await after.pending(AFTER_CONSOLIDATION_JOB), 1, 'back on its queue, for the server or a worker to run');
    } finally {
      await after.close(1000);
      reopened.close();
    }
  } finally {
    tmp.remove();
  }
});

test('npm run jobs on a DATA_DIR with no database says so, exits 1 and creates nothing', async () => {
  const tmp = tempDir('parley-jobs-cli-');
  try {
    const missing = path.join(tmp.dir, 'typo');
    const env = { ...process.env, DATA_DIR: missing, LOG_LEVEL: 'silent', PARLEY_QUEUE: 'embedded' };
    await assert.rejects(run(process.execPath, [CLI, 'dead'], { env }), (err: { code: number; stderr: string }) => {
      assert.equal(err.code, 1);
      assert.match(err.stderr, /no database at .*typo.*parley\.db/);
      return true;
    });
    assert.equal(existsSync(missing), false);
  } finally {
    tmp.remove();
  }
});

test('npm run jobs with no dead jobs says so on stderr, prints no line on stdout and exits 0', async () => {
  const tmp = tempDir('parley-jobs-cli-');
  try {
    const db = openDatabase(path.join(tmp.dir, 'parley.db'));
    const queue = new SqliteJobQueue(db);
    await queue.close(1000);
    db.close();
    const env = { ...process.env, DATA_DIR: tmp.dir, LOG_LEVEL: 'silent', PARLEY_QUEUE: 'embedded' };
    const all = await run(process.execPath, [CLI, 'dead'], { env });
    assert.equal(all.stdout, '');
    assert.match(all.stderr, /^parley jobs: no dead jobs\n$/);
    const one = await run(process.execPath, [CLI, 'dead', AFTER_CONSOLIDATION_JOB], { env });
    assert.equal(one.stdout, '');
    assert.equal(one.stderr, `parley jobs: no dead jobs on ${AFTER_CONSOLIDATION_JOB}\n`);
    const retried = await run(process.execPath, [CLI, 'retry', AFTER_CONSOLIDATION_JOB, '--all'], { env });
    assert.equal(retried.stdout, '');
    assert.match(retried.stderr, /nothing to retry/);
  } finally {
    tmp.remove();
  }
});
