import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { drainConsolidation } from '../../pipelines/memory/after-consolidation.js';
import { CONSOLIDATION_JOB } from '../../pipelines/memory/consolidate.js';
import { speakerLockKey } from '../../pipelines/memory/subject-lock.js';
import { cosine } from '../../pipelines/embeddings/text-embedder.js';
import { ParleyClient } from '../../clients/typescript/src/index.js';
import { clientFor, startTestApp, type TestApp } from '../helpers/app.js';
import { deployments, type Deployment } from '../helpers/deployments.js';
import { leaksOf, neo4jRows, sqliteRows, type ScannedRow } from '../helpers/erasure-scan.js';

const READBACK = 'So that is Ilvane Drossmark at 12 Elm Street, Vessingham, phone 555 0142, right?';
const REDACTED = 'So that is [erased] at [erased], phone [erased], right?';
/** Turns of others that hold none of her details: each stays exactly as said. */
const UNTOUCHED = ['The old elm on Elm Street came down in the storm.', 'Hello, this is Ilvane Carrow returning a call.', 'Ilvane Carrow will call you back tomorrow.'];

async function storedRows(t: TestApp, deployment: Deployment): Promise<ScannedRow[]> {
  return deployment.networked ? neo4jRows(await deployment.dumpNeo4j()) : sqliteRows(t.app.stores.sqlite);
}

for (const deployment of deployments('erase-readback')) describe(`erasure of a caller read back by an agent, ${deployment.name}`, { skip: deployment.skip }, () => {
  let t: TestApp;
  let api: ParleyClient;
  const { tenant } = deployment;
  before(async () => {
    t = await startTestApp(deployment.env);
    api = clientFor(t, deployment.headers);
  });
  after(async () => {
    await t?.close();
    await deployment.cleanup();
  });

  /** A call: the caller gives her details, the agent reads them back; a third person and a living namesake talk elsewhere. */
  async function call(session: string): Promise<{ callerId: string; readbackId: string; emailId: string }> {
    const posted = await api.postUtterances(session, [
      { speaker: 'Ilvane Drossmark', text: 'Hello, I would like to update my delivery details please.' },
      { speaker: 'Agent Rook', text: READBACK, addressees: ['Ilvane Drossmark'] },
      { speaker: 'Ilvane Drossmark', text: 'Yes. And you can write to me at ilvane.d@example.org.' },
      { speaker: 'Agent Rook', text: 'Thanks, I have ilvane.d@example.org on file now.' },
    ]);
    await api.postUtterances(`${session}-other`, [
      { speaker: 'Wenna Hale', text: UNTOUCHED[0]! }, { speaker: 'Ilvane Carrow', text: UNTOUCHED[1]! },
      { speaker: 'Agent Rook', text: UNTOUCHED[2]!, addressees: ['Wenna Hale'] },
    ]);
    // The agent alone, after the call: no one is inferred as its addressee.
    await api.postUtterances(`${session}-notes`, [{ speaker: 'Agent Rook', text: 'Note to self: ilvane.d@example.org confirmed.' }]);
    await drainConsolidation(t.app.stores.queue, 120_000);
    const callerId = (await api.interactions({ session_id: session })).find((u) => u.speaker.name === 'Ilvane Drossmark')!.speaker.id;
    await api.updateParticipant(callerId, { attributes: { home_address: '12 Elm Street, Vessingham', phone_number: '5550142' } });
    return { callerId, readbackId: posted.utterance_ids[1]!, emailId: posted.utterance_ids[3]! };
  }

  test('her name and details go from the agent\'s turns (transcript, keywords, vectors); others\' turns stay as said', async () => {
    const { callerId, readbackId } = await call('readback');
    await api.eraseParticipant(callerId);

    const kept = await api.interactions({ session_id: 'readback' });
    assert.deepEqual(kept.map((u) => u.text), [REDACTED, 'Thanks, I have [erased] on file now.'].reverse());
    const others = await api.interactions({ session_id: 'readback-other' });
    assert.deepEqual(others.map((u) => u.text).sort(), [...UNTOUCHED].sort(), 'a common word of her address and a living namesake stay');
    assert.deepEqual((await api.interactions({ session_id: 'readback-notes' })).map((u) => [u.text, u.addressees.length]), [['Note to self: [erased] confirmed.', 0]]);

    for (const words of ['Drossmark', 'Vessingham', '0142']) {
      assert.deepEqual(await t.app.stores.lexical.search(tenant, words, 5), [], `keyword search finds no "${words}"`);
    }
    assert.ok((await t.app.stores.lexical.search(tenant, 'Elm', 5)).length >= 1, 'the third person\'s turn is still found');
    const [point] = await t.app.stores.vectors.get(tenant, 'memory_interaction', [readbackId]);
    assert.ok(point, 'the read-back is still indexed');
    const [before, now] = await t.app.models.textEmbedder.embed([READBACK, REDACTED]);
    assert.ok(cosine(point.vector, now!) > 0.99, 'its vector is of the redacted text');
    assert.ok(cosine(point.vector, before!) < cosine(point.vector, now!));

    const secrets = ['Drossmark', 'Vessingham', '555 0142', '5550142', 'ilvane.d@example.org', '12 Elm Street', callerId];
    assert.deepEqual(leaksOf(await storedRows(t, deployment), { name: 'Drossmark', secrets, surviving: [] }), [], 'nothing of her details is left');
  });

  test('an erasure cut short after the agent\'s turns were rewritten indexes them again when repeated', async () => {
    const { callerId } = await call('readback-crash');
    const lexical = t.app.stores.lexical;
    const realIndex = lexical.index.bind(lexical);
    let failed = false;
    lexical.index = async (...args: Parameters<typeof lexical.index>) => {
      if (!failed && args[1].some((e) => e.text.startsWith('Note to self: [erased]'))) {
        failed = true;
        throw new Error('keyword index unreachable (injected)');
      }
      return realIndex(...args);
    };
    try {
      await assert.rejects(api.eraseParticipant(callerId), (err: { status?: number }) => err.status === 500);
    } finally {
      lexical.index = realIndex;
    }
    assert.ok(failed, 'the failure was injected while re-indexing a redacted turn');
    await api.eraseParticipant(callerId);
    // The turn that failed was addressed to no one: only the pending erasure's record of it has it indexed again.
    assert.deepEqual(await lexical.search(tenant, 'example', 5), [], 'the redacted note\'s keyword entry was written again');
    assert.deepEqual(await lexical.search(tenant, 'Drossmark Vessingham', 5), []);
    assert.deepEqual((await api.interactions({ session_id: 'readback-crash' })).map((u) => u.text), [REDACTED, 'Thanks, I have [erased] on file now.'].reverse());
  });

  test('what a living spouse holds, dates, amounts, years and words stay; his own mobile and name in a read-back go', async () => {
    const kept = [
      'My address is 27 Birch Road, Orlwick, and our landline is 01632 960111.',
      'Will you call back? We opened on 2024-01-15, open 10.00-12.00, it cost 1 000 000.',
      'In 1985 we opened; your total is 45.72 and my favourite is 2024.',
    ];
    const posted = await api.postUtterances('spouses', [
      { speaker: 'Will Hale', text: 'Our landline is 01632 960111, we live at 27 Birch Road, Orlwick, my mobile is 07700 900461.' },
      { speaker: 'Will Hale', text: 'We met on 2024-01-15, open 10.00-12.00, it cost 1 000 000.' },
      { speaker: 'Sarah Hale', text: kept[0]! },
      { speaker: 'Agent Rook', text: kept[1]!, addressees: ['Will Hale'] },
      { speaker: 'Agent Rook', text: kept[2]!, addressees: ['Sarah Hale'] },
      { speaker: 'Agent Rook', text: 'So that is Will Hale, mobile 07700 900461, right?', addressees: ['Will Hale'] },
    ]);
    await drainConsolidation(t.app.stores.queue, 120_000);
    const speakers = await api.interactions({ session_id: 'spouses' });
    const willId = speakers.find((u) => u.speaker.name === 'Will Hale')!.speaker.id;
    const sarahId = speakers.find((u) => u.speaker.name === 'Sarah Hale')!.speaker.id;
    await api.updateParticipant(willId, { attributes: { home_address: '27 Birch Road, Orlwick', town_address: 'London', dob: '1985', favourite_number: '2024', order_number: '4572' } });
    await api.updateParticipant(sarahId, { attributes: { home_address: '27 Birch Road, Orlwick' } });
    const factsOf = async (): Promise<string[]> => (await t.app.stores.memory.listFacts(tenant, { subjectId: sarahId, limit: 1000 })).map((f) => f.content).sort();
    const sarahFacts = await factsOf();
    await api.eraseParticipant(willId);
    const texts = new Map((await api.interactions({ session_id: 'spouses' })).map((u) => [u.id, u.text]));
    assert.equal(texts.get(posted.utterance_ids[2]!), kept[0], 'Sarah\'s own address and landline stay');
    assert.equal(texts.get(posted.utterance_ids[3]!), kept[1], 'a name used as a word, dates, times and amounts stay');
    assert.equal(texts.get(posted.utterance_ids[4]!), kept[2], 'a bare year, a decimal and a favourite number stay');
    assert.equal(texts.get(posted.utterance_ids[5]!), 'So that is [erased], mobile [erased], right?');
    assert.deepEqual(await factsOf(), sarahFacts, 'Sarah\'s facts stay');
  });

  test('a job that read the read-back before it was redacted never indexes the old text', async () => {
    const { callerId, readbackId } = await call('readback-race');
    const agentId = (await api.interactions({ session_id: 'readback-race' })).find((u) => u.speaker.name === 'Agent Rook')!.speaker.id;
    const { locks, queue } = t.app.stores;
    const realWithLock = locks.withLock.bind(locks);
    // A re-index of the agent's turn (as a merge queues) has read it and waits for the agent's lock until the erasure is done.
    let blocked = false;
    let release = (): void => undefined;
    const held = new Promise<void>((resolve) => { release = resolve; });
    locks.withLock = (async (keys, work) => {
      if (!blocked && keys.includes(speakerLockKey(tenant, agentId))) {
        blocked = true;
        await held;
      }
      return realWithLock(keys, work);
    }) as typeof locks.withLock;
    try {
      await queue.enqueue(CONSOLIDATION_JOB, { tenant, sessionId: 'readback-race', utteranceId: readbackId }, { jobId: `race-${readbackId}` });
      const deadline = Date.now() + 120_000;
      while (!blocked) {
        assert.ok(Date.now() < deadline, 'the re-index job reached the agent\'s lock');
        await new Promise((r) => setTimeout(r, 20));
      }
      await api.eraseParticipant(callerId);
    } finally {
      release();
      locks.withLock = realWithLock;
    }
    await drainConsolidation(queue, 120_000);
    for (const words of ['Drossmark', 'Vessingham', '0142']) {
      assert.deepEqual(await t.app.stores.lexical.search(tenant, words, 5), [], `keyword search finds no "${words}"`);
    }
    const [point] = await t.app.stores.vectors.get(tenant, 'memory_interaction', [readbackId]);
    const [now] = await t.app.models.textEmbedder.embed([REDACTED]);
    assert.ok(point && cosine(point.vector, now!) > 0.99, 'its vector is of the redacted text');
  });
});
