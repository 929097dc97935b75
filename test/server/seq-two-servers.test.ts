import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { buildApp } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { FIRST_SEQ_BLOCK } from '../../server/ws/event-numbering.js';
import { tempDir } from '../helpers/temp-dir.js';
import { TestWsClient } from '../helpers/ws-client.js';

/** A listening server (text only) on `dataDir`; two may share one data directory. */
async function startServer(dataDir: string): Promise<{ app: FastifyInstance; wsUrl: string }> {
  const app = await buildApp(loadConfig({ DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent' }), { logger: pino({ level: 'silent' }) });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  assert.ok(address && typeof address === 'object');
  return { app, wsUrl: `ws://127.0.0.1:${address.port}` };
}

/**
 * A client reconnecting back and forth between two servers while each old connection still holds the session (a trial
 * saw `seq` reach 405 after 30 such reconnects): each new live session numbers above what the old one had reserved
 * in the store, which the old one cannot give back once the other server took the session. A short connection used
 * to leave a block of 100 unused; it now reserves FIRST_SEQ_BLOCK first, so each reconnect skips at most that.
 */
describe('event numbers of one session alternating between two servers', () => {
  const tmp = tempDir('parley-seq-two-servers-');
  let a: Awaited<ReturnType<typeof startServer>>;
  let b: Awaited<ReturnType<typeof startServer>>;
  before(async () => {
    a = await startServer(tmp.dir);
    b = await startServer(tmp.dir);
  });
  after(async () => {
    await Promise.all([a.app.close(), b.app.close()]);
    tmp.remove();
  });

  test(`each reconnect to the other server skips at most ${FIRST_SEQ_BLOCK} numbers; none repeats`, async () => {
    const clients: TestWsClient[] = [];
    const skips: number[] = [];
    for (let i = 0; i < 8; i++) {
      const c = await TestWsClient.connect(`${(i % 2 === 0 ? a : b).wsUrl}/v1/stream?session_id=alternating`);
      const started = await c.next('session.started');
      const before = clients.at(-1);
      if (before) {
        // The old connection is told (its last number, from its own block), then closed.
        await before.next('error', (e) => e.code === 'PARLEY_ERR_SESSION_BUSY');
        await before.closed();
        skips.push(Number(started.seq) - Math.max(...before.events.map((e) => Number(e.seq))) - 1);
      }
      c.sendJson({ type: 'utterance', speaker: 'Ana', text: `hello number ${i}` });
      await c.nextNew('transcript.final');
      clients.push(c);
    }
    const last = clients.at(-1)!;
    last.close();
    await last.closed();
    assert.ok(skips.every((s) => s >= 0 && s <= FIRST_SEQ_BLOCK), `numbers skipped at each reconnect: ${skips.join(', ')}`);
    const all = clients.flatMap((c) => c.events.map((e) => Number(e.seq)));
    assert.equal(new Set(all).size, all.length, 'no number is given twice');
  });
});
