import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { buildApp } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { PENDING_RENAME } from '../../pipelines/interaction/pending-rename.js';
import { tempDir } from '../helpers/temp-dir.js';

const T = 'default';

/** A server on `dataDir` (embedded stores), listening on a loopback port; closing it is the process going away. */
async function serve(dataDir: string): Promise<FastifyInstance> {
  const app = await buildApp(loadConfig({ DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent' }), { logger: pino({ level: 'silent' }) });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return app;
}

/**
 * A rename whose memory rewrite a crash cut short (`$pending_rename` left set) used to be finished only by the same
 * PATCH sent again; the server now finishes it when it starts, in the background, as it does erasures.
 */
describe('a rename left pending by a crash is finished at start', () => {
  const dirs: { remove(): void }[] = [];
  after(() => {
    for (const d of dirs) d.remove();
  });

  test('the memories say the new name once the restarted server has finished it, and nothing is left owed', async () => {
    const tmp = tempDir('parley-rename-start-');
    dirs.push(tmp);
    let app = await serve(tmp.dir);
    let ids: { bea: string; voice: string; fact: string; unnamedFact: string };
    try {
      const { graph, memory } = app.stores;
      const bea = await graph.createParticipant(T, { name: 'Bea' });
      const voice = await graph.createParticipant(T, {});
      const at = new Date().toISOString();
      const base = { addresseeIds: [], kind: 'preference' as const, slot: null, value: null, time: at, referIds: [], validFrom: at, supersedes: null, confidence: 0.8, sessionId: 'rs-1', source: 'test' };
      const [fact] = await memory.addFacts(T, [{ ...base, content: 'Bea is learning to sail', speakerId: bea.id, subjectId: bea.id }]);
      const [unnamedFact] = await memory.addFacts(T, [{ ...base, content: 'An unnamed speaker loves green tea', speakerId: voice.id, subjectId: voice.id }]);
      // The state a crash leaves: names stored with the rewrite they owe recorded, the memories not yet rewritten.
      await graph.updateParticipantAttribute(T, bea.id, PENDING_RENAME, () => ({ from: ['Bea'], to: 'Beatrice' }));
      await graph.updateParticipant(T, bea.id, { name: 'Beatrice' });
      await graph.updateParticipantNames(T, voice.id, (s) => ({ ...s, name: 'Grace', attributes: { ...s.attributes, [PENDING_RENAME]: { from: [null], to: 'Grace' } } }));
      ids = { bea: bea.id, voice: voice.id, fact: fact!.id, unnamedFact: unnamedFact!.id };
    } finally {
      await app.close();
    }
    app = await serve(tmp.dir);
    try {
      const { graph, memory } = app.stores;
      const owed = async (): Promise<boolean> => (await graph.getParticipants(T, [ids.bea, ids.voice])).some((p) => PENDING_RENAME in p.attributes);
      // Done in the background after listen: polled, however long the busy machine takes.
      while (await owed()) await new Promise((r) => setTimeout(r, 20));
      assert.equal((await memory.getFact(T, ids.fact))?.content, 'Beatrice is learning to sail');
      assert.equal((await memory.getFact(T, ids.unnamedFact))?.content, 'Grace loves green tea');
      const hits = await app.stores.lexical.search(T, 'Beatrice sail', 5);
      assert.ok(hits.some((h) => h.id === ids.fact), 'indexed again under the new name');
    } finally {
      await app.close();
    }
  });
});
