import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { openStores } from '../../graph/open-stores.js';
import { MemoryIndexer } from '../../pipelines/memory/memory-indexer.js';
import { drainConsolidation } from '../../pipelines/memory/after-consolidation.js';
import { CONSOLIDATION_JOB } from '../../pipelines/memory/consolidate.js';
import { speakerLockKey } from '../../pipelines/memory/subject-lock.js';
import { finishPendingErasures } from '../../pipelines/interaction/erase-participant.js';
import { buildApp } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { ParleyClient } from '../../clients/typescript/src/index.js';
import { holdsSecret, leaksOf, sqliteRows } from '../helpers/erasure-scan.js';
import { tempDir } from '../helpers/temp-dir.js';

const T = 'default';

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    return statSync(file).isDirectory() ? filesUnder(file) : [file];
  });
}

/** A server on `dataDir` (embedded stores), listening on a loopback port; closing it is the process going away. */
async function serve(dataDir: string, stores?: ReturnType<typeof openStores>): Promise<{ app: FastifyInstance; api: ParleyClient }> {
  const app = await buildApp(loadConfig({ DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent' }), { logger: pino({ level: 'silent' }), ...(stores ? { stores } : {}) });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = address && typeof address === 'object' ? address.port : 0;
  return { app, api: new ParleyClient({ baseUrl: `http://127.0.0.1:${port}` }) };
}

interface Seeded {
  id: string;
  utteranceId: string;
  secrets: string[];
  surviving: { id: string; text: string }[];
}

const SAID = 'I restore carillons in Vessingham and my locker code is 4471.';

/** A person with a turn (consolidated), and someone else's reply to them that must stay. */
async function seed(app: FastifyInstance, api: ParleyClient, session: string, name: string): Promise<Seeded> {
  const posted = await api.postUtterances(session, [
    { speaker: name, text: SAID },
    { speaker: 'Ben', text: 'That is a rare craft.', addressees: [name] },
  ]);
  await drainConsolidation(app.stores.queue, 120_000);
  const said = await api.interactions({ session_id: session });
  const id = said.find((u) => u.text === SAID)!.speaker.id;
  const utteranceId = posted.utterance_ids[0]!;
  return {
    id, utteranceId, secrets: [name.split(' ')[1]!, 'Vessingham', 'carillons', '4471', id, utteranceId],
    surviving: [{ id: posted.utterance_ids[1]!, text: 'That is a rare craft.' }],
  };
}

/**
 * The process dies right after the participant left the graph, before the second pass: a consolidation job that read
 * their turn before the erasure began has just written its keyword entry and vector (as in the race of erasure.test).
 */
async function eraseAndCrash(app: FastifyInstance, api: ParleyClient, person: Seeded): Promise<void> {
  const graph = app.stores.graph;
  const realDelete = graph.deleteParticipant.bind(graph);
  graph.deleteParticipant = async (...args: Parameters<typeof graph.deleteParticipant>) => {
    await app.stores.lexical.index(T, [{ id: person.utteranceId, text: SAID, layer: 'interaction', sessionId: 's', speakerId: person.id, addresseeIds: [] }]);
    const [vector] = await app.models.textEmbedder.embed([SAID]);
    await app.stores.vectors.upsert(T, 'memory_interaction', [{ id: person.utteranceId, vector: vector!, payload: { layer: 'interaction', speakerId: person.id } }]);
    const deleted = await realDelete(...args);
    throw new Error(`process killed after the participant left the graph (injected; ${deleted?.length} utterances deleted)`);
  };
  try {
    await assert.rejects(api.eraseParticipant(person.id), (err: { status?: number }) => err.status === 500);
  } finally {
    graph.deleteParticipant = realDelete;
  }
  // What the second pass would have removed is still there, and the participant is gone: the crash this test is about.
  assert.deepEqual((await app.stores.lexical.search(T, 'carillons Vessingham', 5)).map((h) => h.id), [person.utteranceId]);
  await assert.rejects(api.participant(person.id), (err: { status?: number }) => err.status === 404);
}

/** Once the erasures a start finishes in the background are done (none pending). */
async function pendingDone(app: FastifyInstance): Promise<void> {
  while ((await app.stores.graph.pendingErasures(T)).length > 0) await new Promise((r) => setTimeout(r, 20));
}

/**
 * Leaks of the person in every table of the SQLite file and in every byte of the data directory. When there are any,
 * followed by what tells an erasure that left the rows from rows stored again (other ids): the ids erased, and every
 * participant, utterance (with its first words), pending erasure, keyword entry, consolidation record and vector the file holds.
 */
function leaks(app: FastifyInstance, dataDir: string, person: Seeded): string[] {
  const found = leaksOf(sqliteRows(app.stores.sqlite), { name: person.secrets[0]!, secrets: person.secrets, surviving: person.surviving });
  for (const file of filesUnder(dataDir)) {
    const bytes = readFileSync(file);
    for (const s of person.secrets) if (holdsSecret(bytes, s)) found.push(`${path.relative(dataDir, file)}: ${s}`);
  }
  if (found.length === 0) return found;
  const db = app.stores.sqlite;
  const rows = (sql: string): string[] => (db.prepare(sql).raw().all() as unknown[][]).map((r) => r.map((c) => String(c).slice(0, 48)).join(' | '));
  return [
    ...found,
    `(context) erased: participant ${person.id}, utterance ${person.utteranceId}`,
    ...rows('SELECT tenant, id, name, created_at FROM participants').map((r) => `(context) participant: ${r}`),
    ...rows('SELECT tenant, id, session_id, seq, speaker_id, time, text FROM utterances').map((r) => `(context) utterance: ${r}`),
    ...rows('SELECT tenant, participant_id, utterance_ids, owner, lease_until FROM pending_erasures').map((r) => `(context) pending erasure: ${r}`),
    ...rows('SELECT tenant, id, layer, session_id, speaker_id, addressees FROM lexical_docs').map((r) => `(context) keyword entry: ${r}`),
    ...rows('SELECT tenant, utterance_id, speaker_id, processed_at FROM memory_processed').map((r) => `(context) processed: ${r}`),
    ...rows('SELECT tenant, collection, id, payload FROM vectors').map((r) => `(context) vector: ${r}`),
  ];
}

describe('an erasure cut short by a crash between its passes', () => {
  const dirs: { remove(): void }[] = [];
  after(() => {
    for (const d of dirs) d.remove();
  });

  test('is finished when the server starts again: nothing of the person is left in any table or file', async () => {
    const tmp = tempDir('parley-erase-crash-');
    dirs.push(tmp);
    let { app, api } = await serve(tmp.dir);
    let person: Seeded;
    try {
      person = await seed(app, api, 'crash-restart', 'Odalys Pennecroft');
      await eraseAndCrash(app, api, person);
      assert.equal((await app.stores.graph.pendingErasures(T)).length, 1, 'the erasure is recorded as pending');
    } finally {
      await app.close();
    }
    ({ app, api } = await serve(tmp.dir));
    try {
      await pendingDone(app);
      assert.deepEqual(await app.stores.lexical.search(T, 'carillons Vessingham', 5), []);
      const [vector] = await app.models.textEmbedder.embed([SAID]);
      const near = await app.stores.vectors.search(T, 'memory_interaction', vector!, 10);
      assert.ok(!near.some((h) => h.id === person.utteranceId), 'the vector a job wrote meanwhile is gone');
      assert.deepEqual(leaks(app, tmp.dir, person), []);
      const said = await api.interactions({ session_id: 'crash-restart' });
      assert.deepEqual(said.map((u) => [u.text, u.addressees.length]), [['That is a rare craft.', 0]], 'others\' words stay, without them');
    } finally {
      await app.close();
    }
  });

  test('a repeated DELETE of the id finishes it (200), and a third one is a 404', async () => {
    const tmp = tempDir('parley-erase-again-');
    dirs.push(tmp);
    const { app, api } = await serve(tmp.dir);
    try {
      const person = await seed(app, api, 'crash-again', 'Ilvane Drossmark');
      await eraseAndCrash(app, api, person);
      const erased = await api.eraseParticipant(person.id);
      assert.equal(erased.id, person.id);
      assert.equal(erased.erased_utterances, 1);
      assert.deepEqual(await app.stores.graph.pendingErasures(T), []);
      assert.deepEqual(await app.stores.lexical.search(T, 'carillons Vessingham', 5), []);
      assert.deepEqual(leaks(app, tmp.dir, person), []);
      await assert.rejects(api.eraseParticipant(person.id), (err: { status?: number; message?: string }) => err.status === 404);
    } finally {
      await app.close();
    }
  });

  test('a repeated DELETE claims the erasure: while another server finishes it, a 409 that does nothing; once that claim ends, it finishes', async () => {
    const tmp = tempDir('parley-erase-claimed-');
    dirs.push(tmp);
    const { app, api } = await serve(tmp.dir);
    try {
      const person = await seed(app, api, 'crash-claimed', 'Ormond Tellabree');
      await eraseAndCrash(app, api, person);
      const [failed] = await app.stores.graph.pendingErasures(T);
      assert.ok(failed?.owner, 'the DELETE claimed the erasure it recorded');
      assert.ok(failed.leaseUntil! <= new Date().toISOString(), 'and gave its claim up when it failed');
      // Another server's start-up pass has just claimed it.
      const now = new Date();
      assert.equal(await app.stores.graph.claimErasure(T, person.id, { owner: 'other-server', now: now.toISOString(), until: new Date(now.getTime() + 3_600_000).toISOString() }), true);
      await assert.rejects(api.eraseParticipant(person.id), (err: { status?: number; code?: string; message?: string }) =>
        err.status === 409 && err.code === 'PARLEY_ERR_CONFLICT' && /another server/.test(err.message ?? ''));
      assert.deepEqual((await app.stores.lexical.search(T, 'carillons Vessingham', 5)).map((h) => h.id), [person.utteranceId], 'nothing ran beside that server');
      assert.equal((await app.stores.graph.pendingErasures(T))[0]?.owner, 'other-server', 'the claim stays that server\'s');
      // That server crashed: its lease ends.
      const past = new Date(Date.now() - 1000).toISOString();
      assert.equal(await app.stores.graph.claimErasure(T, person.id, { owner: 'other-server', now: past, until: past }), true);
      assert.equal((await api.eraseParticipant(person.id)).id, person.id, 'the same request finishes it now');
      assert.deepEqual(await app.stores.graph.pendingErasures(T), []);
      assert.deepEqual(await app.stores.lexical.search(T, 'carillons Vessingham', 5), []);
      assert.deepEqual(leaks(app, tmp.dir, person), []);
    } finally {
      await app.close();
    }
  });

  test('one claimed by another server is left to it at start, and taken over once that server\'s lease has ended', async () => {
    const tmp = tempDir('parley-erase-leased-');
    dirs.push(tmp);
    let { app, api } = await serve(tmp.dir);
    let person: Seeded;
    try {
      person = await seed(app, api, 'crash-leased', 'Corvin Haldane');
      await eraseAndCrash(app, api, person);
      // Another server on the store has just started finishing it.
      const now = new Date();
      const until = new Date(now.getTime() + 3_600_000).toISOString();
      assert.equal(await app.stores.graph.claimErasure(T, person.id, { owner: 'other-server', now: now.toISOString(), until }), true);
    } finally {
      await app.close();
    }
    // Closing waits for the start's pass: it must have left the erasure to its owner.
    ({ app, api } = await serve(tmp.dir));
    await app.close();
    const stores = openStores(loadConfig({ DATA_DIR: tmp.dir, PORT: '0', LOG_LEVEL: 'silent' }), pino({ level: 'silent' }));
    const [pending] = await stores.graph.pendingErasures(T);
    assert.equal(pending?.owner, 'other-server', 'the erasure claimed by another server is still pending, and still its');
    assert.deepEqual((await stores.lexical.search(T, 'carillons Vessingham', 5)).map((h) => h.id), [person.utteranceId]);
    // That server crashed: its lease ends (here: is cut to the past by it, as if the hour had gone by).
    const past = new Date(Date.now() - 1000).toISOString();
    assert.equal(await stores.graph.claimErasure(T, person.id, { owner: 'other-server', now: past, until: past }), true);
    ({ app, api } = await serve(tmp.dir, stores));
    try {
      await pendingDone(app);
      assert.deepEqual(await app.stores.lexical.search(T, 'carillons Vessingham', 5), []);
      assert.deepEqual(leaks(app, tmp.dir, person), []);
    } finally {
      await app.close();
    }
  });

  test('the claim is renewed while an erasure runs: one longer than a lease is not taken over by another server', async () => {
    const tmp = tempDir('parley-erase-renew-');
    const spare = tempDir('parley-erase-renew-models-');
    dirs.push(tmp, spare);
    const first = await serve(tmp.dir);
    let person: Seeded;
    try {
      person = await seed(first.app, first.api, 'crash-renew', 'Ysolde Marrack');
      await eraseAndCrash(first.app, first.api, person);
    } finally {
      await first.app.close();
    }
    // The models of a server on another directory; the crashed store is opened alone (no start-up finisher on it).
    const other = await serve(spare.dir);
    const stores = openStores(loadConfig({ DATA_DIR: tmp.dir, PORT: '0', LOG_LEVEL: 'silent' }), pino({ level: 'silent' }));
    try {
      const leaseMs = 3000;
      let claims = 0;
      let renewed = (): void => undefined;
      const seenRenewal = new Promise<void>((resolve) => { renewed = resolve; });
      const realClaim = stores.graph.claimErasure.bind(stores.graph);
      stores.graph.claimErasure = async (...args: Parameters<typeof realClaim>) => {
        const ok = await realClaim(...args);
        if (args[2].owner === 'this-server' && ok && ++claims >= 2) renewed();
        return ok;
      };
      // The erasure's memory step lasts until a renewal is seen (60 s at most, without one): longer than its lease.
      let takenOver: boolean | undefined;
      const realDelete = stores.memory.deleteParticipant.bind(stores.memory);
      stores.memory.deleteParticipant = async (...args) => {
        await Promise.race([seenRenewal, new Promise((r) => setTimeout(r, 60_000).unref())]);
        // Another server asking now: held by the renewal just seen (without renewals the lease ended long ago).
        const now = new Date().toISOString();
        takenOver ??= await realClaim(T, person.id, { owner: 'other-server', now, until: now });
        return realDelete(...args);
      };
      const { done } = await finishPendingErasures({ stores, audioSpans: null, embedder: other.app.models.textEmbedder, minAsrConfidence: 'auto' }, T, { owner: 'this-server', leaseMs });
      assert.ok(claims >= 2, `renewed while it ran (claims: ${claims})`);
      assert.equal(takenOver, false, 'another server could take over an erasure still running');
      assert.deepEqual(done, [person.id]);
      assert.deepEqual(await stores.graph.pendingErasures(T), []);
    } finally {
      await stores.close();
      await other.app.close();
    }
  });

  test('a long one does not hold the start: the server serves while it is finished in the background', async () => {
    const tmp = tempDir('parley-erase-background-');
    dirs.push(tmp);
    let { app, api } = await serve(tmp.dir);
    try {
      await eraseAndCrash(app, api, await seed(app, api, 'crash-background', 'Merrow Quillane'));
    } finally {
      await app.close();
    }
    // The finish stops at its first step until released: a start that waited for it would never be ready.
    const stores = openStores(loadConfig({ DATA_DIR: tmp.dir, PORT: '0', LOG_LEVEL: 'silent' }), pino({ level: 'silent' }));
    let release = (): void => undefined;
    const held = new Promise<void>((resolve) => { release = resolve; });
    const realDelete = stores.memory.deleteParticipant.bind(stores.memory);
    stores.memory.deleteParticipant = async (...args) => { await held; return realDelete(...args); };
    ({ app, api } = await serve(tmp.dir, stores));
    try {
      assert.equal((await api.participants()).length, 1, 'the server answers while the erasure is pending');
      assert.equal((await app.stores.graph.pendingErasures(T)).length, 1);
      release();
      await pendingDone(app);
      assert.deepEqual(await app.stores.lexical.search(T, 'carillons Vessingham', 5), []);
    } finally {
      release();
      await app.close();
    }
  });

  test('a fact a job stores after the re-read is recorded before it is deleted: a crash after the delete leaves nothing', async () => {
    const tmp = tempDir('parley-erase-late-fact-');
    dirs.push(tmp);
    const { app, api } = await serve(tmp.dir);
    const { graph, memory } = app.stores;
    const [realBegin, realDelete] = [graph.beginErasure.bind(graph), memory.deleteParticipant.bind(memory)];
    try {
      const person = await seed(app, api, 'crash-late-fact', 'Tamsin Orrowby');
      const late = 'Tamsin keeps her spare key under the Quorlwick statue';
      let records = 0;
      // A consolidation job stores (and indexes) a fact of theirs once the erasure has read them again (its first
      // `beginErasure`: the new erasure was recorded, claimed, by `beginClaimedErasure`).
      graph.beginErasure = async (...args) => {
        await realBegin(...args);
        if (++records !== 1) return;
        const at = new Date().toISOString();
        const [fact] = await memory.addFacts(T, [{
          content: late, speakerId: person.id, subjectId: person.id, addresseeIds: [], kind: 'statement', slot: null, value: null, time: at,
          referIds: [], validFrom: at, supersedes: null, confidence: 0.9, sessionId: 'crash-late-fact', source: 'test',
        }]);
        const [vector] = await app.models.textEmbedder.embed([late]);
        await new MemoryIndexer(app.stores.vectors, app.stores.lexical, app.models.textEmbedder, 'auto').indexFacts(T, [{ fact: fact!, vector: vector! }]);
      };
      memory.deleteParticipant = async (...args) => {
        await realDelete(...args);
        throw new Error('process killed right after the memories were deleted (injected)');
      };
      await assert.rejects(api.eraseParticipant(person.id), (err: { status?: number }) => err.status === 500);
      [graph.beginErasure, memory.deleteParticipant] = [realBegin, realDelete];
      assert.equal(records >= 1, true);
      assert.equal((await api.eraseParticipant(person.id)).id, person.id, 'the same request finishes it');
      assert.deepEqual(await app.stores.lexical.search(T, 'Quorlwick statue', 5), [], 'the late fact\'s keyword entry is gone');
      assert.deepEqual(leaks(app, tmp.dir, person), []);
    } finally {
      [graph.beginErasure, memory.deleteParticipant] = [realBegin, realDelete];
      await app.close();
    }
  });
  test('a fact stored between the last listing and the delete, then a crash at that instant: the same request finds it', async () => {
    const tmp = tempDir('parley-erase-unlisted-fact-');
    dirs.push(tmp);
    const { app, api } = await serve(tmp.dir);
    const { memory } = app.stores;
    const realDelete = memory.deleteParticipant.bind(memory);
    try {
      const person = await seed(app, api, 'crash-unlisted', 'Perrin Ashgrove');
      const late = 'Perrin hides the boathouse key inside the Wendlestoke lantern';
      // A consolidation job stores (and indexes) a fact of theirs after the erasure's last listing, just before its
      // delete; the process dies as the delete returns.
      memory.deleteParticipant = async (...args) => {
        const at = new Date().toISOString();
        const [fact] = await memory.addFacts(T, [{
          content: late, speakerId: person.id, subjectId: person.id, addresseeIds: [], kind: 'statement', slot: null, value: null, time: at,
          referIds: [], validFrom: at, supersedes: null, confidence: 0.9, sessionId: 'crash-unlisted', source: 'test',
        }]);
        const [vector] = await app.models.textEmbedder.embed([late]);
        await new MemoryIndexer(app.stores.vectors, app.stores.lexical, app.models.textEmbedder, 'auto').indexFacts(T, [{ fact: fact!, vector: vector! }]);
        await realDelete(...args);
        throw new Error('process killed as the memories were deleted (injected)');
      };
      await assert.rejects(api.eraseParticipant(person.id), (err: { status?: number }) => err.status === 500);
      memory.deleteParticipant = realDelete;
      assert.equal((await api.eraseParticipant(person.id)).id, person.id, 'the same request finishes it');
      assert.deepEqual(await app.stores.lexical.search(T, 'Wendlestoke lantern', 5), [], 'the unlisted fact\'s keyword entry is gone');
      assert.deepEqual(leaks(app, tmp.dir, { ...person, secrets: [...person.secrets, 'Wendlestoke'] }), []);
    } finally {
      memory.deleteParticipant = realDelete;
      await app.close();
    }
  });
});

describe('a consolidation job that read their turn before the erasure', () => {
  test('writes before they leave the graph, under their lock, or not at all: nothing of it is left', async () => {
    const tmp = tempDir('parley-erase-late-job-');
    const { app, api } = await serve(tmp.dir);
    const { vectors, locks, queue } = app.stores;
    const [realUpsert, realWithLock] = [vectors.upsert.bind(vectors), locks.withLock.bind(locks)];
    try {
      const person = await seed(app, api, 'crash-late-job', 'Wenna Calloway');
      // A re-index of their turn (as a merge queues) has checked that the turn is stored, and is about to write its vector.
      let blocked = false;
      let release = (): void => undefined;
      const held = new Promise<void>((resolve) => { release = resolve; });
      vectors.upsert = async (...args: Parameters<typeof vectors.upsert>) => {
        const [, collection, points] = args;
        if (collection === 'memory_interaction' && points.some((p) => p.id === person.utteranceId && p.payload['sessionId'] === 'crash-late-job')) {
          blocked = true;
          await held;
        }
        return realUpsert(...args);
      };
      // It goes on once the erasure waits for their lock; an erasure that never does lets it go on when it is done.
      locks.withLock = ((keys, work) => {
        if (blocked && keys.includes(speakerLockKey(T, person.id))) release();
        return realWithLock(keys, work);
      }) as typeof locks.withLock;
      await queue.enqueue(CONSOLIDATION_JOB, { tenant: T, sessionId: 'crash-late-job', utteranceId: person.utteranceId }, { jobId: `reindex-${person.utteranceId}` });
      const deadline = Date.now() + 120_000;
      while (!blocked) {
        assert.ok(Date.now() < deadline, 'the re-index job reached its write');
        await new Promise((r) => setTimeout(r, 20));
      }
      assert.equal((await api.eraseParticipant(person.id)).id, person.id);
      release();
      await drainConsolidation(queue, 120_000);
      const [vector] = await app.models.textEmbedder.embed([SAID]);
      const near = await vectors.search(T, 'memory_interaction', vector!, 10);
      assert.ok(!near.some((h) => h.id === person.utteranceId), 'the job\'s vector of their turn is gone');
      assert.deepEqual(await app.stores.lexical.search(T, 'carillons Vessingham', 5), []);
      assert.deepEqual(leaks(app, tmp.dir, person), []);
    } finally {
      [vectors.upsert, locks.withLock] = [realUpsert, realWithLock];
      await app.close();
      tmp.remove();
    }
  });
});
