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

test('shutdown sends the memory.updated of the last stored turn to the live socket before closing it', async () => {
  const server = await startTestApp({ PARLEY_ASR: 'none', PARLEY_SHUTDOWN_GRACE_MS: '60000' });
  const c = await TestWsClient.connect(`${server.wsUrl}/v1/stream?session_id=shutdown-memory`);
  try {
    await c.next('session.started');
    c.sendJson({ type: 'utterance', speaker: 'Dora', text: 'I work at Acme as a nurse.' });
    await c.next('transcript.final');
    // At once: the turn's consolidation job is queued, not done.
    await server.close();
    const updated = c.events.find((e) => e.type === 'memory.updated');
    const bye = c.events.find((e) => e.type === 'error' && e.code === 'PARLEY_ERR_SHUTTING_DOWN');
    assert.ok(updated, `events: ${c.events.map((e) => e.type).join(', ')}`);
    assert.ok(bye && (updated.seq as number) < (bye.seq as number), 'memory.updated came before the closing error');
  } finally {
    c.close();
  }
});

test('a graceful restart goes on with the event numbering where it stopped (no block of numbers skipped)', async () => {
  const tmp = tempDir('parley-seq-restart-');
  const env = { DATA_DIR: tmp.dir, PARLEY_ASR: 'none' };
  const clients: TestWsClient[] = [];
  try {
    const first = await startTestApp(env);
    const a = await TestWsClient.connect(`${first.wsUrl}/v1/stream?session_id=seq-restart`);
    clients.push(a);
    await a.next('session.started');
    a.sendJson({ type: 'utterance', speaker: 'Ana', text: 'first' });
    const firstFinal = await a.next('transcript.final');
    await first.close();
    const lastSeq = Math.max(...a.events.map((e) => e.seq as number));
    assert.equal(a.events.at(-1)?.code, 'PARLEY_ERR_SHUTTING_DOWN');

    const second = await startTestApp(env);
    const b = await TestWsClient.connect(`${second.wsUrl}/v1/stream?session_id=seq-restart`);
    clients.push(b);
    const started = await b.next('session.started');
    assert.equal(started.seq, lastSeq + 1, `events before the restart: ${a.events.map((e) => `${e.seq} ${e.type}`).join(', ')}`);
    b.sendJson({ type: 'utterance', speaker: 'Ana', text: 'second' });
    const final = await b.next('transcript.final');
    assert.equal(final.seq, lastSeq + 2);
    assert.ok(Number((final.turn_id as string).slice('turn_'.length)) <= lastSeq + 2, `turn ids go on too: ${String(firstFinal.turn_id)} then ${String(final.turn_id)}`);
    await second.close();
  } finally {
    for (const c of clients) c.close();
    tmp.remove();
  }
});
