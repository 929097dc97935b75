import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** The repository root (tests run from dist/test/…). */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const SERVER_MAIN = path.join(DIST, 'server/main.js');
export const WORKER_MAIN = path.join(DIST, 'server/worker.js');

/** A Parley process (server or worker) started by a test, with the tail of its output for failures. */
export interface ParleyProcess {
  name: string;
  child: ChildProcess;
  /** `http://127.0.0.1:<port>` for a server; empty for a worker. */
  httpUrl: string;
  wsUrl: string;
  /** The last lines it wrote, for assertion messages. */
  tail(): string;
  /** True once it exited. */
  exited(): boolean;
}

/**
 * Start `entry` (server/main.js or server/worker.js) with `env` and wait, up to `timeoutMs`, for the
 * log line `ready` (`parley listening` or `parley worker running`). Its output is read continuously
 * so a chatty process never blocks on a full pipe.
 */
export async function startParleyProcess(
  name: string, entry: string, env: Record<string, string>, ready: string, timeoutMs = 180_000,
): Promise<ParleyProcess> {
  const child = spawn(process.execPath, [entry], {
    env: { ...process.env, PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  installReaper();
  started.add(child);
  child.once('exit', () => started.delete(child));
  const lines: string[] = [];
  const keep = (line: string): void => {
    lines.push(line);
    if (lines.length > 40) lines.shift();
  };
  let exitCode: number | string | null = null;
  let gone = false;
  child.once('exit', (code, signal) => {
    gone = true;
    exitCode = code ?? signal;
  });
  createInterface({ input: child.stderr! }).on('line', keep);
  const address = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} not ready within ${timeoutMs} ms:\n${lines.join('\n')}`)), timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      reject(new Error(`${name} exited with ${exitCode}:\n${lines.join('\n')}`));
    });
    createInterface({ input: child.stdout! }).on('line', (line) => {
      keep(line);
      try {
        const entry = JSON.parse(line) as { msg?: string; address?: string };
        if (entry.msg === ready) {
          clearTimeout(timer);
          resolve(entry.address ?? '');
        }
      } catch {
        // not a log line
      }
    });
  });
  return {
    name, child, httpUrl: address, wsUrl: address.replace('http', 'ws'),
    tail: () => lines.join('\n'),
    exited: () => gone,
  };
}

const started = new Set<ChildProcess>();
const neo4jDirs = new Set<string>();
let reaperInstalled = false;

/**
 * If this test process is interrupted (the runner's per-file timeout sends SIGTERM, ^C sends SIGINT),
 * SIGKILL every process it started and the private Neo4j, so nothing outlives it.
 */
function installReaper(): void {
  if (reaperInstalled) return;
  reaperInstalled = true;
  const reap = (): void => {
    for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    for (const dir of neo4jDirs) {
      try {
        process.kill(Number(readFileSync(path.join(dir, 'pid'), 'utf8').trim()), 'SIGKILL');
      } catch {
        // not running
      }
      rmSync(dir, { recursive: true, force: true });
    }
  };
  process.once('exit', reap);
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      reap();
      process.exit(1);
    });
  }
}

/** Send `signal` and wait until the process is gone. */
export async function stopProcess(p: ParleyProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (p.exited()) return;
  const gone = new Promise((resolve) => p.child.once('exit', resolve));
  p.child.kill(signal);
  await gone;
}

/** Neo4j connection settings as `scripts/neo4j-test-server.sh` writes them. */
export interface Neo4jEnv {
  NEO4J_URI: string;
  NEO4J_USER: string;
  NEO4J_PASSWORD: string;
}

/**
 * Run `scripts/neo4j-test-server.sh <command>` for a private server whose state lives in `dir`
 * (`NEO4J_TEST_KEEP_DATA=1`, so `restart` keeps the store); returns the env it wrote.
 */
export async function neo4jServer(command: 'start' | 'restart' | 'stop', dir: string, extraEnv: Record<string, string> = {}): Promise<Neo4jEnv | null> {
  installReaper();
  if (command === 'stop') neo4jDirs.delete(dir);
  else neo4jDirs.add(dir);
  await new Promise<void>((resolve, reject) => {
    execFile('bash', [path.join(REPO_ROOT, 'scripts/neo4j-test-server.sh'), command], {
      cwd: REPO_ROOT,
      // A start (and the recovery after a SIGKILL) on a loaded 2-core machine took over 180 s once (2026-12-01).
      env: {
        ...process.env, NEO4J_TEST_DIR: dir, NEO4J_TEST_ENV: path.join(dir, 'env'), NEO4J_TEST_KEEP_DATA: '1', NEO4J_TEST_HEAP: '768m',
        NEO4J_TEST_START_S: '480', ...extraEnv,
      },
      timeout: 600_000,
    }, (err, _stdout, stderr) => (err ? reject(new Error(`neo4j-test-server.sh ${command} failed: ${err.message}\n${stderr}`)) : resolve()));
  });
  if (command === 'stop') return null;
  const env: Record<string, string> = {};
  for (const line of readFileSync(path.join(dir, 'env'), 'utf8').split('\n')) {
    const m = /^export (\w+)=(.*)$/.exec(line);
    if (m) env[m[1]!] = m[2]!;
  }
  return { NEO4J_URI: env.NEO4J_URI ?? '', NEO4J_USER: env.NEO4J_USER ?? 'neo4j', NEO4J_PASSWORD: env.NEO4J_PASSWORD ?? '' };
}

/** Poll `check` every `intervalMs` until it returns a value other than undefined; throw `what` after `timeoutMs`. */
export async function waitFor<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 180_000, intervalMs = 250): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}${lastError ? ` (last error: ${(lastError as Error).message})` : ''}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/**
 * POST JSON; returns the status and parsed body (null when not JSON). Raw on purpose: the scale-out test
 * counts every answer (a refused or failed POST while Neo4j restarts) instead of retrying or throwing as the SDK does.
 * With `timeoutMs`, a request still unanswered then fails (`TimeoutError`) instead of waiting on a server that hangs.
 */
export async function postJson(url: string, body: unknown, timeoutMs?: number): Promise<{ status: number; body: unknown }> {
  const res = await fetch(url, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body),
    ...(timeoutMs ? { signal: AbortSignal.timeout(timeoutMs) } : {}),
  });
  const text = await res.text();
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = text;
  }
  return { status: res.status, body: parsed };
}
