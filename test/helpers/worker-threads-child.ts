import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';

/**
 * Runs `body` in `threads` worker threads at once, inside a child Node process so that a native crash
 * (onnxruntime, pocketsphinx) fails only the calling test. `body` is CommonJS evaluated in each
 * thread; it posts exactly one message to `parentPort` when it is done. Asserts that the child
 * neither crashed nor failed, and returns the threads' messages (in the order they came) and the
 * child's stderr.
 */
export async function runInWorkerThreads(body: string, threads: number): Promise<{ messages: unknown[]; stderr: string }> {
  const script = `
    const { Worker } = require('node:worker_threads');
    const messages = [];
    for (let i = 0; i < ${threads}; i++) {
      new Worker(${JSON.stringify(body)}, { eval: true }).once('message', (m) => {
        messages.push(m);
        if (messages.length === ${threads}) console.log(JSON.stringify(messages));
      });
    }
  `;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const [code, signal] = (await once(child, 'exit')) as [number | null, string | null];
  assert.equal(signal, null, `crashed: ${err.slice(-500)}`);
  assert.equal(code, 0, err.slice(-500));
  assert.ok(out.trim(), `the ${threads} threads did not all report: ${err.slice(-500)}`);
  return { messages: JSON.parse(out) as unknown[], stderr: err };
}
