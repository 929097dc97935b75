import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pino } from 'pino';
import { setTimeout as sleep } from 'node:timers/promises';
import { buildApp } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { IDLE_ENDING } from '../../server/ws/idle-sessions.js';
import { startTestApp } from '../helpers/app.js';
import { tempDir } from '../helpers/temp-dir.js';
import { TestWsClient } from '../helpers/ws-client.js';

const IDLE_MS = 600_000;

/** Until `check` holds, looking again after each turn of the event loop's timers (no time limit of its own). */
async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await check())) await sleep(10);
}

/**
 * A session whose client dropped without `session.end` used to stay open for ever: after its resume window
 * it was only flushed, so its end (speaker merge, end job) never came and it still took utterances. After
 * `PARLEY_SESSION_IDLE_END_MS` with no client it is now ended as `POST /v1/sessions/{id}/end` would; a session
 * with a client connected is never ended, however long it is quiet. Sweeps run at a time given to them.
 */
test('a streamed session no client comes back to is ended after the idle time, as an end over HTTP would; a connected one is kept', async () => {
  const t = await startTestApp({ PARLEY_ASR: 'none', PARLEY_SESSION_RESUME_MS: '3000', PARLEY_SESSION_IDLE_END_MS: String(IDLE_MS) });
  let kept: TestWsClient | null = null;
  try {
    const sweeper = t.app.idleSessions!;
    assert.equal(sweeper.idleMs, IDLE_MS);
    kept = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=idle-kept`);
    await kept.next('session.started');
    const gone = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=idle-gone`);
    await gone.next('session.started');
    gone.sendJson({ type: 'utterance', speaker: 'Ana', text: 'I am leaving without saying goodbye' });
    await gone.next('transcript.final');
    gone.close();
    await until(() => t.app.sessions.get('default', 'idle-gone')?.connected === false);
    const dropped = Date.now();
    const waiting = t.app.sessions.get('default', 'idle-gone')!;

    assert.equal(await sweeper.sweep(dropped + IDLE_MS - 60_000), 0, 'within the idle time nothing is ended');
    assert.equal((await t.app.stores.graph.getSession('default', 'idle-gone'))?.endedAt, null);
    // Past it: ended, though no resume window is that long and the client never sent session.end.
    assert.equal(await sweeper.sweep(dropped + IDLE_MS + 60_000), 1, 'the session nobody came back to is ended');
    const ended = await t.app.stores.graph.getSession('default', 'idle-gone');
    assert.ok(ended?.endedAt, 'its end is stored');
    assert.equal(t.app.sessions.get('default', 'idle-gone'), undefined, 'its live session is freed');
    assert.equal(waiting.ending, IDLE_ENDING, 'the reason a client reaching it while it ends is told: the sweep, not HTTP');
    const post = await fetch(`${t.httpUrl}/v1/sessions/idle-gone/utterances`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ utterances: [{ speaker: 'Ana', text: 'too late' }] }),
    });
    assert.equal(post.status, 409, 'an ended session takes no more utterances');
    assert.equal(((await post.json()) as { error: { code: string } }).error.code, 'PARLEY_ERR_SESSION_ENDED');
    // The same end as over HTTP: ending it again answers that end.
    const again = await fetch(`${t.httpUrl}/v1/sessions/idle-gone/end`, { method: 'POST' });
    assert.equal(again.status, 202);
    assert.equal(((await again.json()) as { ended_at: string }).ended_at, ended.endedAt);

    // The connected session, quiet all along, is marked active by every sweep: never ended.
    assert.equal(await sweeper.sweep(dropped + 10 * IDLE_MS), 0);
    assert.equal((await t.app.stores.graph.getSession('default', 'idle-kept'))?.endedAt, null);
    kept.sendJson({ type: 'utterance', speaker: 'Ben', text: 'still here' });
    await kept.next('transcript.final');
  } finally {
    kept?.close();
    await t.close();
  }
});

/** A crash leaves its sessions open with nobody to end them: the next server's start-up sweep ends those idle too long. */
test('sessions orphaned by a crash are ended by the start-up sweep once idle; recent ones and ones never streamed are not', async () => {
  const tmp = tempDir('parley-idle-');
  try {
    const config = loadConfig({ DATA_DIR: tmp.dir, PORT: '0', LOG_LEVEL: 'silent', PARLEY_ASR: 'none', PARLEY_SESSION_IDLE_END_MS: String(IDLE_MS) });
    const first = await buildApp(config, { logger: pino({ level: 'silent' }) });
    const { graph } = first.stores;
    for (const id of ['orphan', 'recent', 'http-only']) await graph.openSession('default', id, new Date(Date.now() - 2 * IDLE_MS).toISOString());
    // As the crashed server left them: one last seen long ago, one a moment ago, one never streamed.
    await graph.updateSession('default', 'orphan', { activeAt: new Date(Date.now() - 2 * IDLE_MS).toISOString() });
    await graph.updateSession('default', 'recent', { activeAt: new Date().toISOString() });
    await first.close();

    const second = await buildApp(config, { logger: pino({ level: 'silent' }) });
    try {
      assert.ok((await second.stores.graph.getSession('default', 'orphan'))?.endedAt, 'ended before the server was ready');
      assert.equal((await second.stores.graph.getSession('default', 'recent'))?.endedAt, null);
      assert.equal((await second.stores.graph.getSession('default', 'http-only'))?.endedAt, null, 'a session never streamed is left to its client');
    } finally {
      await second.close();
    }
  } finally {
    tmp.remove();
  }
});

test('PARLEY_SESSION_IDLE_END_MS: 30 minutes by default; 0 never ends a session', async () => {
  assert.equal(loadConfig({}).sessionIdleEndMs, 1_800_000);
  // Never shorter than the resume window: by default it follows a longer one; set shorter, it is refused.
  assert.equal(loadConfig({ PARLEY_SESSION_RESUME_MS: '3600000' }).sessionIdleEndMs, 3_600_000);
  assert.throws(() => loadConfig({ PARLEY_SESSION_RESUME_MS: '3600000', PARLEY_SESSION_IDLE_END_MS: '1800000' }),
    /PARLEY_SESSION_IDLE_END_MS \(1800000\) must be 0 or at least PARLEY_SESSION_RESUME_MS \(3600000\)/);
  assert.equal(loadConfig({ PARLEY_SESSION_RESUME_MS: '3600000', PARLEY_SESSION_IDLE_END_MS: '0' }).sessionIdleEndMs, 0);
  const t = await startTestApp({ PARLEY_ASR: 'none', PARLEY_SESSION_IDLE_END_MS: '0' }, false);
  try {
    assert.equal(t.app.idleSessions, null);
  } finally {
    await t.close();
  }
});
