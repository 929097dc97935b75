import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pino } from 'pino';
import { openStores } from '../../graph/open-stores.js';
import { buildApp } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { tempDir } from '../helpers/temp-dir.js';

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
