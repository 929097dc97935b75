import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { tempDir } from '../helpers/temp-dir.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const scripts = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;

/** Whether process `pid` still exists. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Resolve once `pid` is gone; false if it is still there after `limitMs` (generous: a hang, not a speed limit). */
async function gone(pid: number, limitMs = 60_000): Promise<boolean> {
  for (const until = Date.now() + limitMs; Date.now() < until;) {
    if (!alive(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return !alive(pid);
}

/** Resolve with the first JSON log line of `child`'s `stream` whose msg is `msg`. */
function logLine(child: ChildProcess, stream: 'stdout' | 'stderr', msg: string): Promise<{ pid: number }> {
  return new Promise((resolve, reject) => {
    createInterface({ input: child[stream]! }).on('line', (line) => {
      if (line.includes(`"msg":"${msg}"`)) resolve(JSON.parse(line) as { pid: number });
    });
    child.once('exit', (code) => reject(new Error(`npm exited with ${code} before "${msg}"`)));
  });
}

/**
 * `kill -TERM <npm pid>` of `npm run worker` used to leave `node dist/server/worker.js` running under
 * init: npm passed the signal to its `sh -c`, which died without passing it on. And `npm run -s mcp` as
 * an MCP server command first ran `tsc` (a minute on a busy machine), past clients' initialize time-out.
 */
describe('npm scripts that start a Parley process', () => {
  test('start, worker, mcp and jobs have no build step before them and exec node (no shell left between npm and node)', () => {
    // `npm run jobs` used to run `tsc -p .` first: a minute, rewriting dist/ under a running server.
    for (const name of ['worker', 'mcp', 'jobs']) assert.equal(scripts[`pre${name}`], undefined, `pre${name}`);
    for (const name of ['start', 'worker', 'mcp', 'jobs']) assert.match(scripts[name] ?? '', /^exec node scripts\/launch\.mjs /, name);
  });

  test('a program not built stops at once, naming `npm run build` (no build in a server command)', async () => {
    const child = spawn(process.execPath, [path.join(ROOT, 'scripts/launch.mjs'), 'server/not-built.js'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    assert.equal(code, 1);
    assert.match(stderr, /dist\/server\/not-built\.js is not built: run `npm run build`/);
  });

  /**
   * Start `npm run -s worker`, send npm `signal` once the worker runs, and check that the worker is gone after
   * npm; `shutdownLogged` also that it logged its graceful shutdown (readable while npm's pipe is open).
   */
  async function signalNpmWorker(signal: NodeJS.Signals, shutdownLogged: boolean): Promise<void> {
    const tmp = tempDir('faults-life-npm-worker-');
    const npm = spawn('npm', ['run', '-s', 'worker'], {
      cwd: ROOT, env: { ...process.env, DATA_DIR: tmp.dir, LOG_LEVEL: 'info' }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let worker = 0;
    try {
      const exited = new Promise<void>((resolve) => npm.once('exit', () => resolve()));
      worker = (await logLine(npm, 'stdout', 'parley worker running')).pid;
      const stopping = logLine(npm, 'stdout', 'worker shutting down: finishing running jobs').then(() => true, () => false);
      npm.kill(signal);
      await exited;
      assert.ok(await gone(worker), `worker ${worker} still running after npm exited (${signal})`);
      if (shutdownLogged) assert.ok(await stopping, 'the worker shut down on the signal');
    } finally {
      npm.kill('SIGKILL');
      if (worker && alive(worker)) process.kill(worker, 'SIGKILL');
      tmp.remove();
    }
  }

  test('SIGTERM to `npm run worker` reaches the worker: it shuts down and no process is left', async () => {
    await signalNpmWorker('SIGTERM', true);
  });

  /**
   * README said a signal to npm's pid reaches Parley; SIGKILL cannot be passed on, and a newcomer's `kill -9`
   * of `npm start` left node on the port (the restart failed with EADDRINUSE). launch.mjs now watches npm.
   */
  test('SIGKILL to `npm run worker` (npm itself killed) still ends the worker: no process is left', async () => {
    await signalNpmWorker('SIGKILL', false);
  });

  test('`npm run -s mcp` answers initialize, and closing its stdin ends every process it started', async () => {
    const tmp = tempDir('faults-life-npm-mcp-');
    const npm = spawn('npm', ['run', '-s', 'mcp'], {
      cwd: ROOT, env: { ...process.env, DATA_DIR: tmp.dir, LOG_LEVEL: 'info' }, stdio: ['pipe', 'pipe', 'pipe'],
    });
    let server = 0;
    try {
      const exited = new Promise<number | null>((resolve) => npm.once('exit', (code) => resolve(code)));
      server = (await logLine(npm, 'stderr', 'parley mcp serving on stdio')).pid;
      const reply = new Promise<string>((resolve) => createInterface({ input: npm.stdout! }).once('line', resolve));
      npm.stdin!.write(JSON.stringify({
        jsonrpc: '2.0', id: 1, method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'npm-scripts', version: '1' } },
      }) + '\n');
      assert.equal((JSON.parse(await reply) as { id: number }).id, 1);
      npm.stdin!.end();
      assert.equal(await exited, 0);
      assert.ok(await gone(server), `mcp server ${server} still running after npm exited`);
    } finally {
      npm.kill('SIGKILL');
      if (server && alive(server)) process.kill(server, 'SIGKILL');
      tmp.remove();
    }
  });
});
