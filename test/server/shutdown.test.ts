import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pino } from 'pino';
import { openStores } from '../../graph/open-stores.js';
import { buildApp } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { startTestApp } from '../helpers/app.js';
import { tempDir } from '../helpers/temp-dir.js';
import { TestWsClient } from '../helpers/ws-client.js';

test('on close the stores drain their queue while the models its jobs use are still open', async () => {
  const tmp = tempDir('parley-shutdown-');
  try {
    const config = loadConfig({ DATA_DIR: tmp.dir, PORT: '0', LOG_LEVEL: 'silent' });
    const logger = pino({ level: 'silent' });
    const stores = openStores(config, logger);
    const app = await buildApp(config, { logger, stores: {
      ...stores,
      // A consolidation job still running while the queue drains embeds text.
      close: async (timeoutMs) => {
        drained = await app.models.textEmbedder.embed(['a job finishing during shutdown']);
        await stores.close(timeoutMs);
      },
    } });
    let drained: Float32Array[] = [];
    await app.ready();
    await app.close();
    assert.equal(drained.length, 1);
    await assert.rejects(app.models.textEmbedder.embed(['after close']), { code: 'PARLEY_ERR_SHUTTING_DOWN' });
    await assert.rejects(app.models.inference(), { code: 'PARLEY_ERR_SHUTTING_DOWN' });
  } finally {
    tmp.remove();
  }
});

test('a socket that closes after shutdown leaves no resume timer to fire into the closed stores', async () => {
  const server = await startTestApp({ PARLEY_SESSION_RESUME_MS: '50', PARLEY_ASR: 'none' });
  const failures: unknown[] = [];
  const onFailure = (err: unknown): void => {
    failures.push(err);
  };
  process.on('unhandledRejection', onFailure);
  process.on('uncaughtException', onFailure);
  try {
    const c = await TestWsClient.connect(`${server.wsUrl}/v1/stream?session_id=late-close`);
    await c.next('session.started');
    const session = server.app.sessions.get('default', 'late-close');
    assert.ok(session);
    await server.close();
    // The server's socket handler reporting the client gone only now, as it can when the client
    // closes while the app shuts down.
    server.app.sessions.disconnected(session);
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.deepEqual(failures.map((e) => (e as Error).message), []);
    c.close();
  } finally {
    process.off('unhandledRejection', onFailure);
    process.off('uncaughtException', onFailure);
  }
});
