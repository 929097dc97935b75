import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { pino, type Logger } from 'pino';
import { openDatabase } from '../../graph/sqlite/database.js';
import { SqliteJobQueue } from '../../graph/sqlite/sqlite-job-queue.js';
import { claimedSince, jobsState, watchUnclaimedJobs } from '../../server/unclaimed-jobs.js';
import { tempDir } from '../helpers/temp-dir.js';

const MAIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../server/main.js');

/** Run `server/main.js` on `env` until it exits by itself; its exit code and stderr. */
async function runToExit(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const tmp = tempDir('parley-start-up-');
  try {
    const child = spawn(process.execPath, [MAIN], {
      env: { ...process.env, DATA_DIR: tmp.dir, PORT: '0', PARLEY_ASR: 'none', LOG_LEVEL: 'info', ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    // A server that starts anyway is killed after it says it listens; the test then fails on its code.
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
    clearTimeout(timer);
    return { code, stderr };
  } finally {
    tmp.remove();
  }
}

describe('start-up refuses a metrics listener that cannot listen (exit 2, naming the variables)', () => {
  test('a port already taken', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    try {
      const { code, stderr } = await runToExit({ PARLEY_METRICS_PORT: String(port) });
      assert.equal(code, 2, stderr);
      assert.match(stderr, /invalid configuration/);
      assert.match(stderr, new RegExp(`PARLEY_METRICS_PORT=${port}`));
      assert.match(stderr, /EADDRINUSE/);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });

  test('a host name that does not resolve', async () => {
    const { code, stderr } = await runToExit({ PARLEY_METRICS_PORT: '0', PARLEY_METRICS_HOST: 'nohost.invalid' });
    assert.equal(code, 2, stderr);
    assert.match(stderr, /PARLEY_METRICS_HOST="nohost\.invalid"/);
  });
});

describe('start-up configuration checks', () => {
  test('PARLEY_ASR_IDLE_DECODERS above PARLEY_ASR_MAX_DECODERS stops the server with exit 2', async () => {
    const { code, stderr } = await runToExit({ PARLEY_ASR_IDLE_DECODERS: '9' });
    assert.equal(code, 2, stderr);
    assert.match(stderr, /PARLEY_ASR_IDLE_DECODERS=9 must be at most PARLEY_ASR_MAX_DECODERS \(4\)/);
  });

  test('a misspelt PARLEY_ variable and a voiceprint list naming an unserved tenant are logged as warnings', async () => {
    const tmp = tempDir('parley-start-up-');
    const child = spawn(process.execPath, [MAIN], {
      env: { ...process.env, DATA_DIR: tmp.dir, PORT: '0', PARLEY_ASR: 'none', LOG_LEVEL: 'info', PARLEY_ASR_NAMESPOTTING: 'true', PARLEY_VOICEPRINTS: 'al' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
    const logged: { level: number; msg: string; warning?: string }[] = [];
    await new Promise<void>((resolve, reject) => {
      child.once('exit', (c) => reject(new Error(`server exited with ${c}`)));
      createInterface({ input: child.stdout }).on('line', (line) => {
        const entry = JSON.parse(line) as { level: number; msg: string; warning?: string };
        logged.push(entry);
        if (entry.msg === 'parley listening') resolve();
      });
    });
    child.kill('SIGTERM');
    assert.equal(await exited, 0);
    tmp.remove();
    const warnings = logged.filter((l) => l.level === 40 && l.msg === 'doubtful configuration').map((l) => l.warning ?? '');
    assert.ok(warnings.some((w) => /^PARLEY_ASR_NAMESPOTTING .*did you mean PARLEY_ASR_NAME_SPOTTING\?/.test(w)), warnings.join('\n'));
    assert.ok(warnings.some((w) => /^PARLEY_VOICEPRINTS .*"al"/.test(w)), warnings.join('\n'));
  });
});

type LogLine = { level: number; msg: string; waiting?: number };

/** Until `pred` holds, looking every 10 ms. */
async function until(pred: () => boolean): Promise<void> {
  while (!pred()) await new Promise((resolve) => setTimeout(resolve, 10));
}

/** `body` with a SQLite job queue in a temporary file and the lines of a logger, all closed after. */
async function withJobQueue(
  body: (queue: SqliteJobQueue, logger: Logger, logged: LogLine[]) => Promise<void>,
  options: { pollMs?: number } = {},
): Promise<void> {
  const tmp = tempDir('parley-unclaimed-');
  const db = openDatabase(path.join(tmp.dir, 'parley.db'));
  const queue = new SqliteJobQueue(db, options);
  const logged: LogLine[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => logged.push(JSON.parse(line) as LogLine) });
  try {
    await body(queue, logger, logged);
  } finally {
    await queue.close();
    db.close();
    tmp.remove();
  }
}

describe('watchUnclaimedJobs (PARLEY_RUN_JOBS=false): a job no worker takes is reported', () => {
  test('warns once while a due job waits past the limit, and says when jobs move again', () => withJobQueue(async (queue, logger, logged) => {
    const stop = watchUnclaimedJobs({ queue, names: ['work'], logger, afterMs: 50, everyMs: 10 });
    try {
      await queue.enqueue('work', { n: 1 });
      await until(() => logged.some((l) => l.level === 40));
      assert.match(logged.find((l) => l.level === 40)!.msg, /no worker has taken one lately/);
      queue.process('work', async () => undefined);
      await queue.drain('work');
      await until(() => logged.some((l) => /taking jobs again/.test(l.msg)));
      assert.equal(logged.filter((l) => l.level === 40).length, 1, 'warned once');
    } finally {
      stop();
    }
  }));

  test('a live worker slowly clearing a backlog is "behind", not "no worker"', () => withJobQueue(async (queue, logger, logged) => {
    // The worker takes one job and holds it until the test lets it go: it is alive, the rest wait.
    const releases: (() => void)[] = [];
    queue.process('work', () => new Promise<void>((resolve) => { releases.push(resolve); }));
    for (let n = 0; n < 5; n++) await queue.enqueue('work', { n });
    await until(() => releases.length > 0);
    const stop = watchUnclaimedJobs({ queue, names: ['work'], logger, afterMs: 50, everyMs: 10 });
    try {
      await until(() => logged.some((l) => l.level === 40));
      const warnings = logged.filter((l) => l.level === 40);
      assert.match(warnings[0]!.msg, /^workers are behind/);
      assert.ok(!warnings.some((l) => /no worker/.test(l.msg)), warnings.map((l) => l.msg).join('\n'));
      assert.ok((warnings[0]!.waiting ?? 0) >= 4, 'it counts the waiting jobs');
      const releaseAll = setInterval(() => { for (let r = releases.shift(); r; r = releases.shift()) r(); }, 5);
      try {
        await queue.drain('work');
      } finally {
        clearInterval(releaseAll);
      }
      await until(() => logged.some((l) => /caught up/.test(l.msg)));
      assert.equal(logged.filter((l) => l.level === 40).length, 1, 'warned once');
    } finally {
      stop();
    }
  }, { pollMs: 5 }));

  test('a claim is seen from a running job, fewer waiting, or the oldest due job taken between looks', () => {
    const look = (at: number, waiting: number, running: number, oldestWaitingMs: number) => ({ at, waiting, running, oldestWaitingMs });
    assert.equal(claimedSince(null, look(0, 3, 1, 90_000)), true, 'a job runs now');
    assert.equal(claimedSince(null, look(0, 3, 0, 90_000)), false);
    assert.equal(claimedSince(look(0, 5, 0, 60_000), look(30_000, 4, 0, 90_000)), true, 'fewer wait');
    // As many new jobs came as were taken, none running at either look: the oldest is younger than the old oldest now is.
    assert.equal(claimedSince(look(0, 5, 0, 60_000), look(30_000, 5, 0, 70_000)), true, 'the oldest was taken');
    assert.equal(claimedSince(look(0, 5, 0, 60_000), look(30_000, 6, 0, 90_000)), false, 'the same oldest job, 30 s older');
  });

  test('past the limit: "no-worker" without a claim within it, "behind" with one', () => {
    const now = { at: 200_000, waiting: 84, running: 0, oldestWaitingMs: 137_000 };
    assert.equal(jobsState({ ...now, oldestWaitingMs: 59_000 }, null, 60_000), 'ok');
    assert.equal(jobsState(now, null, 60_000), 'no-worker', 'never a claim');
    assert.equal(jobsState(now, 130_000, 60_000), 'no-worker', 'the last claim 70 s ago');
    assert.equal(jobsState(now, 190_000, 60_000), 'behind', 'a claim 10 s ago');
  });
});
