import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { tempDir } from '../helpers/temp-dir.js';

const MAIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../server/main.js');

/** Run `server/main.js` on `env` until it exits by itself; its exit code, stdout (the log) and stderr. */
async function runToExit(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [MAIN], {
    env: { ...process.env, PORT: '0', PARLEY_ASR: 'none', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => { stdout += d.toString(); });
  child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
  // A server that starts anyway is killed; the test then fails on its code.
  const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
  const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  clearTimeout(timer);
  return { code, stdout, stderr };
}

// A newcomer's trial: a taken PORT or a DATA_DIR that cannot be a directory was reported only after the
// speech and text models had loaded (half a minute on a busy machine), as "failed to start" naming no variable.
describe('start-up refuses a PORT it cannot listen on or a DATA_DIR it cannot use, before loading anything', () => {
  test('PORT already taken: exit 2 naming PORT and HOST, nothing loaded or logged first', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    const tmp = tempDir('parley-start-up-early-');
    try {
      const { code, stdout, stderr } = await runToExit({ PORT: String(port), DATA_DIR: tmp.dir });
      assert.equal(code, 2, stderr);
      assert.match(stderr, /invalid configuration/);
      assert.match(stderr, new RegExp(`HOST="127\\.0\\.0\\.1", PORT=${port}`));
      assert.match(stderr, /EADDRINUSE/);
      assert.equal(stdout, '', 'refused before the models or stores opened (they log)');
    } finally {
      tmp.remove();
      await new Promise((resolve) => taken.close(resolve));
    }
  });

  test('DATA_DIR under a file: exit 2 naming DATA_DIR, nothing loaded or logged first', async () => {
    const tmp = tempDir('parley-start-up-early-');
    try {
      const file = path.join(tmp.dir, 'a-file');
      writeFileSync(file, 'x');
      const { code, stdout, stderr } = await runToExit({ DATA_DIR: path.join(file, 'data') });
      assert.equal(code, 2, stderr);
      assert.match(stderr, /DATA_DIR=".*a-file\/data" cannot be used as a directory/);
      assert.match(stderr, /ENOTDIR/);
      assert.equal(stdout, '', 'refused before the models or stores opened (they log)');
    } finally {
      tmp.remove();
    }
  });
});
