import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { openDatabase } from '../../graph/sqlite/database.js';
import { SqliteJobQueue } from '../../graph/sqlite/sqlite-job-queue.js';
import { watchUnclaimedJobs } from '../../server/unclaimed-jobs.js';
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

describe('watchUnclaimedJobs (PARLEY_RUN_JOBS=false): a job no worker takes is reported', () => {
  test('warns once while a due job waits past the limit, and says when jobs move again', async () => {
    const tmp = tempDir('parley-unclaimed-');
    const db = openDatabase(path.join(tmp.dir, 'parley.db'));
    const queue = new SqliteJobQueue(db);
    const logged: { level: number; msg: string }[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => logged.push(JSON.parse(line) as { level: number; msg: string }) });
    const stop = watchUnclaimedJobs({ queue, names: ['work'], logger, afterMs: 50, everyMs: 10 });
    try {
      await queue.enqueue('work', { n: 1 });
      const until = async (pred: () => boolean): Promise<void> => {
        while (!pred()) await new Promise((resolve) => setTimeout(resolve, 10));
      };
      await until(() => logged.some((l) => l.level === 40));
      assert.match(logged.find((l) => l.level === 40)!.msg, /no worker takes them/);
      queue.process('work', async () => undefined);
      await queue.drain('work');
      await until(() => logged.some((l) => /taking jobs again/.test(l.msg)));
      assert.equal(logged.filter((l) => l.level === 40).length, 1, 'warned once');
    } finally {
      stop();
      await queue.close();
      db.close();
      tmp.remove();
    }
  });
});
