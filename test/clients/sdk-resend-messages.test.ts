import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { ParleyClient, type ServerEvent, type StreamSession } from '../../clients/typescript/src/index.js';
import { killHard, startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { tempDir } from '../helpers/temp-dir.js';

/**
 * A newcomer's trial sent an `utterance` with an `utterance_id` every 300 ms and killed the server with
 * SIGKILL: the messages sent just before the crash were never stored, and nothing said so (the SDK resent
 * unacknowledged audio on resume, not messages). Now unacknowledged utterances with an id are sent again
 * (the server stores an id once: one it did store is only acknowledged again), one the application sent without
 * an id too (the SDK gave it one), and a query is reported (`PARLEY_CLIENT_LOST` error event, `lostMessages`).
 * The server is stopped (SIGSTOP) before the last messages go out, so it never reads them, then killed.
 */
test('@parley/client: messages unacknowledged at a crash are resent (utterances, with or without the application\'s id) or reported (queries)', async () => {
  const tmp = tempDir('parley-sdk-resend-msg-');
  const env = { DATA_DIR: tmp.dir, PARLEY_ASR: 'none', PARLEY_SESSION_RESUME_MS: '60000' };
  let server: ServerProcess | null = await startServerProcess(env);
  let session: StreamSession | null = null;
  try {
    const client = new ParleyClient({ baseUrl: server.httpUrl });
    session = await client.stream({ sessionId: 'sdk-resend-msg', resume: { attempts: 600, delayMs: 250 } });
    const seen: ServerEvent[] = [];
    void (async () => {
      for await (const e of session) seen.push(e);
    })().catch(() => undefined);

    // Acknowledged before the crash: not sent again (stored once).
    const first = session.waitFor('transcript.final', (e) => e.utterance_id === 'm-0', { timeoutMs: 60_000 });
    session.send({ type: 'utterance', utterance_id: 'm-0', speaker: 'Tex', text: 'Memo 0: the locker code is 1000.' });
    await first;

    server.child.kill('SIGSTOP');
    session.send({ type: 'utterance', utterance_id: 'm-1', speaker: 'Tex', text: 'Memo 1: the locker code is 1001.' });
    const memo = { type: 'utterance' as const, speaker: 'Tex', text: 'Memo without an id.' };
    const query = { type: 'query' as const, id: 'q-1', question: 'What is the locker code?' };
    session.send(memo);
    session.send(query);
    session.send({ type: 'utterance', utterance_id: 'm-2', speaker: 'Tex', text: 'Memo 2: the locker code is 1002.' });
    await session.drained();
    await sleep(200);
    const resumed = session.waitFor('session.started', (e) => e.resumed === true, { timeoutMs: 240_000 });
    const port = new URL(server.httpUrl).port;
    await killHard(server);
    server = null;
    server = await startServerProcess({ ...env, PORT: port });
    await resumed;

    const acked = Promise.all(['m-1', 'Memo without an id.', 'm-2'].map((key) => session!.waitFor('transcript.final',
      (e) => e.utterance_id === key || e.text === key, { timeoutMs: 60_000 })));
    const memoId = (await acked)[1]!.utterance_id;
    assert.match(memoId, /^sdk-/, 'the SDK gave the id-less utterance its own id');
    await session.end({ timeoutMs: 60_000 });

    const transcript = (await new ParleyClient({ baseUrl: server.httpUrl }).transcript('sdk-resend-msg')).utterances;
    assert.deepEqual(transcript.map((u) => u.id).filter((id) => id.startsWith('m-')), ['m-0', 'm-1', 'm-2'],
      'each utterance with an id is stored once: the one acknowledged before the crash, the two sent again after it');
    assert.deepEqual(transcript.filter((u) => u.text === memo.text).map((u) => u.id), [memoId], 'stored once, under the SDK\'s id');
    assert.equal(session.resentMessages, 3);
    assert.deepEqual(session.lostMessages, [{ type: 'query', id: 'q-1', message: query }]);
    assert.equal(session.lostMessages[0]!.message, query, 'the very object the application sent');
    const lost = seen.filter((e): e is Extract<ServerEvent, { type: 'error' }> => e.type === 'error' && e.code === 'PARLEY_CLIENT_LOST');
    assert.deepEqual(lost.map((e) => [e.fatal, e.dropped]), [[false, { type: 'query', id: 'q-1' }]],
      'the application is told of each message not sent again');
    assert.match(lost[0]!.message, /q-1.*query\.result/);
  } finally {
    session?.close();
    if (server) {
      server.child.kill('SIGCONT');
      await killHard(server);
    }
    tmp.remove();
  }
});
