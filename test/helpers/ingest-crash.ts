import assert from 'node:assert/strict';
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

/** The tenant and session the crashing child stores into. */
export const CRASH_TENANT = 't1';
export const CRASH_SESSION = 'crash-1';

/** The batch the child stores (ids `crash-{i}`), and the test resends after its crash. */
export function crashBatch(n: number): { id: string; speaker: string; text: string }[] {
  return Array.from({ length: n }, (_, i) => ({ id: `crash-${i}`, speaker: i % 2 === 0 ? 'spk-a' : 'spk-b', text: `line ${i} about the garden` }));
}

/**
 * Run `ingest-crash-child.js` on `dataDir` and SIGKILL it while it hands its `stopAt`-th consolidation
 * job to the queue (of `count` it would queue). Resolves once it is gone.
 */
export async function ingestAndCrash(options: { dataDir: string; queue: 'embedded' | 'redis'; redisUrl: string; prefix: string; stopAt: number; count: number }): Promise<void> {
  const script = fileURLToPath(new URL('./ingest-crash-child.js', import.meta.url));
  const { dataDir, queue, redisUrl, prefix, stopAt, count } = options;
  const child = fork(script, [dataDir, queue, redisUrl, prefix, String(stopAt), String(count)], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = once(child, 'exit');
  const message = await Promise.race([once(child, 'message').then(([m]) => m as string), exited.then(() => 'exited')]);
  child.kill('SIGKILL');
  await exited;
  assert.equal(message, 'stopped', `the child did not reach its ${stopAt}th enqueue: ${stderr.slice(-800)}`);
}
