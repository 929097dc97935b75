import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { TestWsClient } from '../helpers/ws-client.js';

const A = 'key-alpha-123';
const B = 'key-bravo-456';

/** Connect, wait for `session.started`, then drop the socket without `session.end`. */
async function connectAndDrop(url: string, key: string): Promise<void> {
  const ws = await TestWsClient.connect(url, { authorization: `Bearer ${key}` });
  await ws.next('session.started');
  ws.socket.terminate();
  await ws.closed();
}

async function until(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('live session slots', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({
      PARLEY_API_KEYS: `${A}:tenantA,${B}:tenantB`,
      PARLEY_MAX_SESSIONS: '4', PARLEY_MAX_SESSIONS_PER_TENANT: '3', PARLEY_MAX_RESUMABLE_SESSIONS: '4',
    });
  });
  after(async () => { await t.close(); });

  test('sockets dropped without session.end hold no live slot, and waiting sessions are bounded', async () => {
    for (let i = 0; i < 8; i++) await connectAndDrop(`${t.wsUrl}/v1/stream?session_id=dropped-${i}`, i % 2 === 0 ? A : B);
    // Four of eight wait for a resume (the bound); the oldest were finished early.
    await until(() => t.app.sessions.size === 4, 'the waiting sessions to be bounded');
    const ws = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=fresh`, { authorization: `Bearer ${A}` });
    const started = await ws.next('session.started');
    assert.equal(started.resumed, false);
    // The newest dropped session can still be resumed.
    const back = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=dropped-7`, { authorization: `Bearer ${B}` });
    assert.equal((await back.next('session.started')).resumed, true);
    ws.close();
    back.close();
    await Promise.all([ws.closed(), back.closed()]);
  });

  test('one tenant cannot take every live slot', async () => {
    const mine: TestWsClient[] = [];
    for (let i = 0; i < 3; i++) {
      const ws = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=a-${i}`, { authorization: `Bearer ${A}` });
      await ws.next('session.started');
      mine.push(ws);
    }
    const refused = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=a-3`, { authorization: `Bearer ${A}` });
    const err = await refused.next('error');
    assert.equal(err.code, 'PARLEY_ERR_OVERLOADED');
    assert.equal(await refused.closed(), 1013);
    const other = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=b-0`, { authorization: `Bearer ${B}` });
    assert.equal((await other.next('session.started')).type, 'session.started');
    // The server-wide cap still holds.
    const full = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=b-1`, { authorization: `Bearer ${B}` });
    assert.equal((await full.next('error')).code, 'PARLEY_ERR_OVERLOADED');
    for (const ws of [...mine, other]) ws.close();
  });
});
