import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ParleyClient } from '../../clients/typescript/src/index.js';
import { startTestApp } from '../helpers/app.js';
import { TestWsClient } from '../helpers/ws-client.js';

test('a session opened again from the store (after a restart) listens for the names of who was in it', async () => {
  const server = await startTestApp({ PARLEY_ASR: 'none' });
  try {
    // Stored without a live session, as a server that restarted finds it.
    await new ParleyClient({ baseUrl: server.httpUrl }).postUtterances('was-here', [
      { speaker: 'Ana', addressees: ['Ben'], text: 'Ben, can you bring the ladder?' },
      { speaker: 'Ben', addressees: ['Ana'], text: 'Sure, tomorrow morning.' },
    ]);
    const c = await TestWsClient.connect(`${server.wsUrl}/v1/stream?session_id=was-here`);
    assert.equal((await c.next('session.started')).resumed, true);
    const session = server.app.sessions.get('default', 'was-here');
    assert.ok(session, 'the live session');
    let names: string[] = [];
    for (let i = 0; i < 200 && names.length < 2; i++) {
      names = await session.vocabulary.names();
      if (names.length < 2) await new Promise((r) => setTimeout(r, 10));
    }
    assert.deepEqual(names, ['ben', 'ana'], 'the last speaker first');
    c.close();
  } finally {
    await server.close();
  }
});
