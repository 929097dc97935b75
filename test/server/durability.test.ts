import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { killHard, startServerProcess } from '../helpers/server-process.js';
import { tempDir } from '../helpers/temp-dir.js';
import { TestWsClient } from '../helpers/ws-client.js';
import { ParleyClient } from '../../clients/typescript/src/index.js';

describe('durability', () => {
  const tmp = tempDir('parley-durable-');
  after(() => tmp.remove());

  test('acknowledged utterances survive kill -9 of the server', async () => {
    const env = { DATA_DIR: tmp.dir };
    const first = await startServerProcess(env);
    await new ParleyClient({ baseUrl: first.httpUrl }).postUtterances('crash', [{ speaker: 'Ana', text: 'imported before the crash' }]);
    const ws = await TestWsClient.connect(`${first.wsUrl}/v1/stream?session_id=crash`);
    await ws.next('session.started');
    ws.sendJson({ type: 'utterance', speaker: 'Ben', text: 'spoken just before the crash' });
    const final = await ws.next('transcript.final');
    await killHard(first); // the moment transcript.final arrived, with no graceful shutdown

    const second = await startServerProcess(env);
    try {
      const transcript = await new ParleyClient({ baseUrl: second.httpUrl }).transcript('crash');
      assert.deepEqual(transcript.utterances.map((u) => u.text), ['imported before the crash', 'spoken just before the crash']);
      assert.equal(transcript.utterances[1]?.id, final.utterance_id);
      const resumed = await TestWsClient.connect(`${second.wsUrl}/v1/stream?session_id=crash`);
      const started = await resumed.next('session.started');
      assert.equal(started.resumed, true);
      assert.ok(started.seq > final.seq, 'event numbering never repeats after a crash');
      resumed.close();
    } finally {
      await killHard(second);
    }
  });

  test('SIGTERM drains live sessions, tells clients, and exits cleanly', async () => {
    const server = await startServerProcess({ DATA_DIR: tmp.dir, PARLEY_ASR: 'none' });
    const ws = await TestWsClient.connect(`${server.wsUrl}/v1/stream?session_id=graceful`);
    await ws.next('session.started');
    ws.sendJson({ type: 'utterance', speaker: 'Ana', text: 'one more thing before you go' });
    await ws.next('transcript.final');
    const exited = new Promise<number | null>((resolve) => server.child.once('exit', (code) => resolve(code)));
    server.child.kill('SIGTERM');
    const notice = await ws.next('error');
    assert.equal(notice.code, 'PARLEY_ERR_SHUTTING_DOWN');
    assert.equal(notice.fatal, false);
    assert.equal(await ws.closed(), 1001);
    assert.equal(await exited, 0);
  });

  test('a bad configuration stops start-up with a clear message', async () => {
    await assert.rejects(startServerProcess({ DATA_DIR: tmp.dir, PORT: 'x', HOST: '0.0.0.0' }), (err: Error) => {
      assert.match(err.message, /exited with 2/);
      assert.match(err.message, /PORT="x" must be an integer/);
      assert.match(err.message, /HOST=0.0.0.0 is not loopback/);
      return true;
    });
  });
});
