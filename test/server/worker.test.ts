import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { deleteKeys, redisSkipReason, TEST_REDIS_URL } from '../helpers/redis.js';
import { tempDir } from '../helpers/temp-dir.js';
import { TestWsClient } from '../helpers/ws-client.js';

const WORKER = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../server/worker.js');
const skip = await redisSkipReason();

describe('npm run worker: consolidation in another process over Redis', { skip }, () => {
  const prefix = `parley-test-worker-${process.pid}`;
  const tmp = tempDir('parley-worker-');
  const env = {
    DATA_DIR: tmp.dir, PARLEY_QUEUE: 'redis', REDIS_URL: TEST_REDIS_URL, PARLEY_REDIS_PREFIX: prefix, PARLEY_ASR: 'none',
  };
  let server: TestApp;
  let worker: ReturnType<typeof spawn>;

  before(async () => {
    server = await startTestApp({ ...env, PARLEY_RUN_JOBS: 'false' });
    worker = spawn(process.execPath, [WORKER], { env: { ...process.env, ...env, LOG_LEVEL: 'info' }, stdio: ['ignore', 'pipe', 'pipe'] });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('worker did not start')), 30_000);
      createInterface({ input: worker.stdout! }).on('line', (line) => {
        if (line.includes('parley worker running')) {
          clearTimeout(timer);
          resolve();
        }
      });
      worker.once('exit', (code) => reject(new Error(`worker exited with ${code}`)));
    });
  });
  after(async () => {
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    worker.kill('SIGTERM');
    await exited;
    await server.close();
    await deleteKeys(prefix);
    tmp.remove();
  });

  test('a fact said on the server is consolidated by the worker and reported to the live session', async () => {
    const c = await TestWsClient.connect(`${server.wsUrl}/v1/stream?session_id=w1`);
    await c.next('session.started');
    c.sendJson({ type: 'utterance', speaker: 'Ana', text: 'I live in Porto and I love sushi.' });
    await c.next('transcript.final');
    const updated = await c.next('memory.updated', () => true, 30_000);
    const ops = updated.ops as { op: string; text: string }[];
    assert.ok(ops.some((o) => o.op === 'ADD' && /Porto/.test(o.text)), JSON.stringify(ops));
    const facts = await server.app.stores.memory.listFacts('default', {});
    assert.ok(facts.some((f) => /Porto/.test(f.content)), 'the worker wrote to the shared store');
    c.close();
  });
});
