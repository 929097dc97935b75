import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { FactFilter } from '../../graph/memory-store.js';
import { drainConsolidation } from '../../pipelines/memory/after-consolidation.js';
import { subjectLockKey } from '../../pipelines/memory/subject-lock.js';
import { deploymentAppForSuite } from '../helpers/app.js';
import { gate } from '../helpers/held-open.js';
import { deployments } from '../helpers/deployments.js';

/*
 * Forgetting "I moved to Berkeley" makes "I live in Richmond" current again, unless something newer took the slot. A
 * consolidation job writing "I moved to Oakland" at the same time must never leave two current homes: the reopening
 * takes the subject's lock that consolidation writes under, and checks the slot again under it. Each interleaving is
 * forced with hooks on the app's stores (no sleeps).
 */

for (const deployment of deployments('forget-reopen-race')) describe(`forgetting reopens under the subject's lock, ${deployment.name}`, { skip: deployment.skip }, () => {
  const suite = deploymentAppForSuite(deployment);
  const { t } = suite;

  const post = async (sessionId: string, speaker: string, text: string): Promise<string> =>
    (await suite.api.postUtterances(sessionId, [{ speaker, text }])).utterance_ids[0]!;
  const say = async (sessionId: string, speaker: string, text: string): Promise<string> => {
    const id = await post(sessionId, speaker, text);
    await drainConsolidation(t.app.stores.queue, 120_000);
    return id;
  };
  const currentHomes = async (subjectId: string): Promise<string[]> => (await suite.api.memories({}))
    .filter((m) => m.subject_id === subjectId)
    .flatMap((m) => m.text.match(/Richmond|Berkeley|Oakland/) ?? []);

  test('a new home written after the forgetting found the old one to reopen, before it reopened it: the old one stays history', async () => {
    await say('race-recheck-1', 'Rhea', 'I live in Richmond.');
    const moved = await say('race-recheck-2', 'Rhea', 'I moved to Berkeley.');
    const [richmond] = (await suite.api.memories({ include_history: true })).filter((m) => /Richmond/.test(m.text));
    assert.ok(richmond && richmond.valid_to !== null, 'the move closed Richmond');
    const graph = t.app.stores.graph;
    const beginErasure = graph.beginErasure.bind(graph);
    let armed = true;
    // Once the forgetting has recorded Richmond to reopen: "I moved to Oakland" is consolidated, to the end.
    graph.beginErasure = async (tenant, id, plan, ids) => {
      await beginErasure(tenant, id, plan, ids);
      if (!armed || ((JSON.parse(plan) as { reopen?: unknown[] }).reopen ?? []).length === 0) return;
      armed = false;
      await say('race-recheck-3', 'Rhea', 'I moved to Oakland.');
    };
    try {
      await suite.api.forgetUtterance(moved);
    } finally {
      graph.beginErasure = beginErasure;
    }
    assert.equal(armed, false, 'the forgetting meant to reopen Richmond');
    assert.deepEqual(await currentHomes(richmond.subject_id), ['Oakland']);
  });

  test('a consolidation job deciding a new home while the forgetting reopens the old one: one current home', async () => {
    await say('race-lock-1', 'Ines', 'I live in Richmond.');
    const moved = await say('race-lock-2', 'Ines', 'I moved to Berkeley.');
    const [richmond] = (await suite.api.memories({ include_history: true })).filter((m) => /Richmond/.test(m.text) && m.subject_id !== undefined);
    const ines = (await suite.api.memories({ include_history: true })).find((m) => /Berkeley/.test(m.text))?.subject_id;
    assert.ok(richmond && ines && richmond.subject_id === ines);
    const { memory, locks } = t.app.stores;
    const listFacts = memory.listFacts.bind(memory);
    const withLock = locks.withLock.bind(locks);
    const read = gate();
    const resume = gate();
    const forgetAsksLock = gate();
    let paused = false;
    // The job of "I moved to Oakland" reads Ines's home (Berkeley current) under its locks, then waits there.
    memory.listFacts = async (tenant: string, filter?: FactFilter) => {
      const facts = await listFacts(tenant, filter);
      if (!paused && filter?.slot && filter.subjectId === ines) {
        paused = true;
        read.open();
        await resume.promise;
      }
      return facts;
    };
    locks.withLock = (keys, work, holder) => {
      if (paused && keys.includes(subjectLockKey(deployment.tenant, ines))) forgetAsksLock.open();
      return withLock(keys, work, holder);
    };
    try {
      await post('race-lock-3', 'Ines', 'I moved to Oakland.');
      await read.promise;
      const forgetting = suite.api.forgetUtterance(moved);
      // The forgetting either waits for the job's lock, or (without it) finishes: then the job goes on.
      await Promise.race([forgetAsksLock.promise, forgetting.then(() => undefined, () => undefined)]);
      resume.open();
      await forgetting;
      await drainConsolidation(t.app.stores.queue, 120_000);
    } finally {
      resume.open();
      memory.listFacts = listFacts;
      locks.withLock = withLock;
    }
    assert.deepEqual(await currentHomes(ines), ['Oakland']);
  });

  test('the memory that comes back is embedded before the subject\'s lock is taken: no lock is held across an embedder call', async () => {
    await say('race-embed-1', 'Nora', 'I live in Richmond.');
    const moved = await say('race-embed-2', 'Nora', 'I moved to Berkeley.');
    const nora = (await suite.api.memories({ include_history: true })).find((m) => /Berkeley/.test(m.text))?.subject_id;
    assert.ok(nora);
    const key = subjectLockKey(deployment.tenant, nora);
    const { locks } = t.app.stores;
    const embedder = t.app.models.textEmbedder;
    const withLock = locks.withLock.bind(locks);
    const embed = embedder.embed.bind(embedder);
    let holding = 0;
    const embeddedWhileHeld: boolean[] = [];
    locks.withLock = (keys, work, holder) => withLock(keys, async (signal) => {
      const mine = keys.includes(key);
      if (mine) holding += 1;
      try {
        return await work(signal);
      } finally {
        if (mine) holding -= 1;
      }
    }, holder);
    embedder.embed = async (texts) => {
      if (texts.some((x) => /Richmond/.test(x))) embeddedWhileHeld.push(holding > 0);
      return embed(texts);
    };
    try {
      await suite.api.forgetUtterance(moved);
    } finally {
      locks.withLock = withLock;
      embedder.embed = embed;
    }
    assert.ok(embeddedWhileHeld.length > 0, 'Richmond, current again, was embedded to be indexed');
    assert.deepEqual(embeddedWhileHeld.filter(Boolean), [], 'never while the forgetting held Nora\'s lock');
    assert.deepEqual(await currentHomes(nora), ['Richmond']);
  });
});
