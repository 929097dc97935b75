import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { buildApp } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { LiveSession } from '../../server/ws/live-session.js';
import { SESSION_END_JOB, type SessionEndJobData } from '../../pipelines/interaction/session-end.js';
import { tempDir } from '../helpers/temp-dir.js';
import { TestWsClient } from '../helpers/ws-client.js';

const IDLE_MS = 600_000;

/** A listening server on `dataDir`; two may share one data directory (the embedded stores' shared mode). */
async function startServer(dataDir: string): Promise<{ app: FastifyInstance; wsUrl: string }> {
  const app = await buildApp(loadConfig({
    DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent', PARLEY_ASR: 'none',
    PARLEY_SESSION_IDLE_END_MS: String(IDLE_MS), PARLEY_SESSION_RESUME_MS: String(IDLE_MS),
  }), { logger: pino({ level: 'silent' }) });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  assert.ok(address && typeof address === 'object');
  return { app, wsUrl: `ws://127.0.0.1:${address.port}` };
}

/** Every end-of-session job `app` queues, by session id. */
function countEndJobs(app: FastifyInstance, into: Map<string, number>): void {
  const { queue } = app.stores;
  const enqueue = queue.enqueue.bind(queue);
  queue.enqueue = async (name, data, options) => {
    if (name === SESSION_END_JOB) {
      const { sessionId } = data as SessionEndJobData;
      into.set(sessionId, (into.get(sessionId) ?? 0) + 1);
    }
    return enqueue(name, data, options);
  };
}

/**
 * Every server sweeps the shared store for idle sessions; two sweeping at once must end each idle session once: one
 * stored end time, one end-of-session job, and the live end (open turn stored, speakers merged) run once, by the server
 * holding the session, whichever sweep got there first. Here server A holds a dropped session waiting for a resume,
 * and a session a crashed server left is held by neither.
 */
test('two servers sweeping idle sessions at once: each session ends once, with one end job and one live end', async () => {
  const tmp = tempDir('parley-idle-two-');
  const a = await startServer(tmp.dir);
  const b = await startServer(tmp.dir);
  const jobs = new Map<string, number>();
  const liveEnds = new Map<string, number>();
  const endVoice = LiveSession.prototype.endVoice;
  LiveSession.prototype.endVoice = async function (this: LiveSession, flush: boolean): Promise<void> {
    if (flush) liveEnds.set(this.id, (liveEnds.get(this.id) ?? 0) + 1);
    return endVoice.call(this, flush);
  };
  try {
    countEndJobs(a.app, jobs);
    countEndJobs(b.app, jobs);
    const client = await TestWsClient.connect(`${a.wsUrl}/v1/stream?session_id=idle-held`);
    await client.next('session.started');
    client.sendJson({ type: 'utterance', speaker: 'Ana', text: 'I will call back later' });
    await client.next('transcript.final');
    client.close();
    for (let i = 0; i < 600 && a.app.sessions.get('default', 'idle-held')?.connected !== false; i++) await new Promise((r) => setTimeout(r, 10));
    assert.equal(a.app.sessions.get('default', 'idle-held')?.connected, false, 'server A holds it, waiting for a resume');
    // Left by a server that crashed: live nowhere.
    const { graph } = b.app.stores;
    await graph.openSession('default', 'idle-orphan', new Date().toISOString());
    await graph.updateSession('default', 'idle-orphan', { activeAt: new Date().toISOString() });

    const later = Date.now() + 2 * IDLE_MS;
    const [byA, byB] = await Promise.all([a.app.idleSessions!.sweep(later), b.app.idleSessions!.sweep(later)]);
    assert.ok(byA >= 1 && byB >= 1, `each sweep answers the end of what it found (A ${byA}, B ${byB})`);
    for (const id of ['idle-held', 'idle-orphan']) {
      const ended = await graph.getSession('default', id);
      assert.ok(ended?.endedAt, `${id} is ended`);
      assert.equal(jobs.get(id), 1, `${id}: one end-of-session job queued`);
      // An end asked again answers the same end and queues nothing.
      const again = await fetch(`${a.wsUrl.replace('ws', 'http')}/v1/sessions/${id}/end`, { method: 'POST' });
      assert.equal(((await again.json()) as { ended_at: string }).ended_at, ended.endedAt);
      assert.equal(jobs.get(id), 1);
    }
    // The bus tells server A of B's end a little later: it must not end the live session again.
    await new Promise((r) => setTimeout(r, 1500));
    assert.equal(liveEnds.get('idle-held'), 1, 'the live session was ended (its speakers merged) once');
    assert.equal(liveEnds.get('idle-orphan'), undefined, 'a session live nowhere has no live end');
    assert.equal(a.app.sessions.get('default', 'idle-held'), undefined, 'its live session is freed');
  } finally {
    LiveSession.prototype.endVoice = endVoice;
    await b.app.close();
    await a.app.close();
    tmp.remove();
  }
});
