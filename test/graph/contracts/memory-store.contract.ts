/**
 * The shared contract every `MemoryStore` implementation must pass. Import `memoryStoreContract`
 * and call it with a factory; this file registers no tests by itself.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { MemoryStore, NewFact } from '../../../graph/memory-store.js';
import { contractSuite } from './contract-suite.js';

/** Creates a fresh, empty store and a function that releases it. */
export type MemoryStoreFactory = () => Promise<{ store: MemoryStore; dispose: () => Promise<void> }>;

function fact(over: Partial<NewFact> = {}): NewFact {
  return {
    content: 'Ana lives in Porto', speakerId: 'p_ana', addresseeIds: ['p_ben'], subjectId: 'p_ana',
    kind: 'profile', slot: 'lives_in', value: 'Porto', time: '2026-01-05T10:00:00.000Z',
    referIds: ['u_1'], validFrom: '2026-01-05T10:00:00.000Z', supersedes: null, confidence: 0.9,
    sessionId: 's_1', source: 'test/1', ...over,
  };
}

/** Run the contract suite against the store `factory` builds. `skip` names why it cannot run here. */
export function memoryStoreContract(name: string, factory: MemoryStoreFactory, skip?: string): void {
  contractSuite(`MemoryStore contract: ${name}`, skip, () => {
    let store: MemoryStore;
    let dispose: () => Promise<void>;
    before(async () => ({ store, dispose } = await factory()));
    after(async () => dispose());

    test('adds facts, assigns layer from kind, reads them back per tenant', async () => {
      const [a, b] = await store.addFacts('t1', [fact(), fact({ kind: 'preference', content: 'Ana loves sushi', slot: 'preference:sushi', value: 'love' })]);
      assert.ok(a && b);
      assert.equal(a.layer, 'profile');
      assert.equal(b.layer, 'fact');
      assert.equal(a.validTo, null);
      assert.equal(a.eventTime, null, 'undated unless given');
      const [dated] = await store.addFacts('t1', [fact({ kind: 'plan', content: 'Ana is flying to Lisbon on Friday 4 December 2026', slot: null, value: null, eventTime: '2026-12-04' })]);
      assert.equal((await store.getFact('t1', dated?.id ?? ''))?.eventTime, '2026-12-04');
      assert.equal(a.validUntil, null, 'no end of its own unless given');
      const [temporary] = await store.addFacts('t1', [fact({ kind: 'statement', content: "Tom can't lift heavy things for a month", slot: null, value: null, validUntil: '2027-01-01T10:00:00.000Z' })]);
      const back = await store.getFact('t1', temporary?.id ?? '');
      assert.equal(back?.validUntil, '2027-01-01T10:00:00.000Z');
      assert.equal(back?.validTo, null, 'an end of its own leaves the fact open');
      assert.equal(a.planObject, null, 'no plan object unless given');
      const about = { verb: 'build', objects: ['bed'], complements: ['garden'] };
      const [planned] = await store.addFacts('t1', [fact({ kind: 'commitment', content: 'Tom will build the raised beds', slot: null, value: null, planObject: about })]);
      assert.deepEqual((await store.getFact('t1', planned?.id ?? ''))?.planObject, about, 'the plan object reads back as stored');
      assert.deepEqual((await store.getFact('t1', a.id))?.addresseeIds, ['p_ben']);
      assert.equal(await store.getFact('t2', a.id), null, 'other tenant must not see it');
      assert.equal((await store.listFacts('t2')).length, 0);
      assert.equal((await store.listFacts('t1', { layer: 'profile' })).length, 1);
    });

    test('endedBy / endedAfter: the open facts whose own end falls in a window', async () => {
      const stay = (value: string, validUntil: string | null): NewFact => fact({ content: `Ana is staying in ${value}`, value, validUntil });
      const [june, july, home, closed] = await store.addFacts('t3e', [
        stay('Lisbon', '2026-07-01T10:00:00.000Z'), stay('Madrid', '2026-08-01T10:00:00.000Z'), stay('Berkeley', null), stay('Rome', '2026-06-15T10:00:00.000Z'),
      ]);
      assert.ok(june && july && home && closed);
      await store.closeFact('t3e', closed.id, '2026-06-10T10:00:00.000Z', null);
      const ids = async (filter: Parameters<MemoryStore['listFacts']>[1]): Promise<string[]> =>
        (await store.listFacts('t3e', filter)).map((f) => f.id).sort();
      assert.deepEqual(await ids({ endedBy: '2026-07-01T10:00:00.000Z' }), [june.id], 'an end at the bound counts; a closed fact does not');
      assert.deepEqual(await ids({ endedBy: '2026-09-01T00:00:00.000Z' }), [june.id, july.id].sort(), 'no open-ended fact');
      assert.deepEqual(await ids({ endedBy: '2026-09-01T00:00:00.000Z', endedAfter: '2026-07-01T10:00:00.000Z' }), [july.id], 'the lower bound is exclusive');
      assert.deepEqual(await ids({ endedBy: '2026-09-01T00:00:00.000Z', includeHistory: true }), [june.id, july.id, closed.id].sort());
      assert.deepEqual(await ids({ endedBy: '2026-06-30T00:00:00.000Z' }), []);
    });

    test('filters by participant role, session and slot', async () => {
      await store.addFacts('t3', [
        fact({ content: 'Ben will book the room', speakerId: 'p_ana', subjectId: 'p_ben', addresseeIds: ['p_ben'], kind: 'request', slot: null, value: null, sessionId: 's_2' }),
        fact({ content: 'Cy likes tea', speakerId: 'p_cy', subjectId: 'p_cy', addresseeIds: [], kind: 'preference', slot: 'preference:tea', value: 'like' }),
      ]);
      assert.equal((await store.listFacts('t3', { participantId: 'p_ben' })).length, 1);
      assert.equal((await store.listFacts('t3', { participantId: 'p_ben', role: 'speaker' })).length, 0);
      assert.equal((await store.listFacts('t3', { participantId: 'p_ben', role: 'addressee' })).length, 1);
      assert.equal((await store.listFacts('t3', { participantId: 'p_cy', role: 'subject' })).length, 1);
      assert.equal((await store.listFacts('t3', { sessionId: 's_2' })).length, 1);
      assert.equal((await store.listFacts('t3', { slot: 'preference:tea' }))[0]?.content, 'Cy likes tea');
    });

    test('filters by slot family: the kind\'s slot and the slots keyed under it, none that only begin like it', async () => {
      const slotted = (slot: string, value: string): NewFact => fact({ kind: 'profile', slot, value, content: `Ana's ${slot} is ${value}` });
      await store.addFacts('t3f', [slotted('order_number', '1'), slotted('order_number:45721', '45721'), slotted('order_number:88812', '88812'),
        slotted('order_numbers', '2'), slotted('order_number2', '3'), slotted('order_number-old', '4'), slotted('order', '5'),
        fact({ kind: 'profile', slot: 'order_number:31337', value: '31337', subjectId: 'p_ben', content: "Ben's order number is 31337" })]);
      const slots = async (filter: Parameters<MemoryStore['listFacts']>[1]): Promise<string[]> =>
        (await store.listFacts('t3f', filter)).map((f) => f.slot ?? '').sort();
      assert.deepEqual(await slots({ subjectId: 'p_ana', slotFamily: 'order_number' }), ['order_number', 'order_number:45721', 'order_number:88812']);
      assert.deepEqual(await slots({ slotFamily: 'order_number' }), ['order_number', 'order_number:31337', 'order_number:45721', 'order_number:88812']);
      assert.deepEqual(await slots({ subjectId: 'p_ana', slotFamily: 'order_number', slot: 'order_number:45721' }), ['order_number:45721']);
      assert.deepEqual(await slots({ slotFamily: 'booking_reference' }), []);
    });

    test('closing validity keeps history and links the replacement', async () => {
      const [old] = await store.addFacts('t4', [fact()]);
      assert.ok(old);
      const [repl] = await store.addFacts('t4', [fact({ content: 'Ana lives in Lisbon', value: 'Lisbon', supersedes: old.id, time: '2026-02-01T00:00:00.000Z', validFrom: '2026-02-01T00:00:00.000Z' })]);
      assert.ok(repl);
      const closed = await store.closeFact('t4', old.id, '2026-02-01T00:00:00.000Z', repl.id);
      assert.equal(closed?.validTo, '2026-02-01T00:00:00.000Z');
      assert.equal(closed?.supersededBy, repl.id);
      assert.equal(await store.closeFact('t4', old.id, '2026-03-01T00:00:00.000Z', null), null, 'already closed');
      assert.deepEqual((await store.listFacts('t4')).map((f) => f.id), [repl.id]);
      const all = await store.listFacts('t4', { includeHistory: true });
      assert.deepEqual(all.map((f) => f.id).sort(), [old.id, repl.id].sort());
      assert.equal((await store.getFact('t4', repl.id))?.supersedes, old.id);
    });

    test('reopening a fact its withdrawn replacement closed; referIds patched', async () => {
      const [old] = await store.addFacts('t4r', [fact()]);
      assert.ok(old);
      const [repl] = await store.addFacts('t4r', [fact({ content: 'Ana lives in Lisbon', value: 'Lisbon', supersedes: old.id, referIds: ['u_2', 'u_3'], time: '2026-02-01T00:00:00.000Z', validFrom: '2026-02-01T00:00:00.000Z' })]);
      assert.ok(repl);
      await store.closeFact('t4r', old.id, '2026-02-01T00:00:00.000Z', repl.id);
      assert.equal(await store.reopenFact('t4r', old.id, 'f_someone_else'), null, 'closed by another fact: left closed');
      assert.equal(await store.reopenFact('t4r', repl.id, old.id), null, 'a current fact: nothing to reopen');
      await store.closeFact('t4r', repl.id, repl.validFrom, null);
      const reopened = await store.reopenFact('t4r', old.id, repl.id);
      assert.equal(reopened?.validTo, null);
      assert.equal(reopened?.supersededBy, null);
      assert.equal(await store.reopenFact('t4r', old.id, repl.id), null, 'a second call changes nothing');
      assert.deepEqual((await store.listFacts('t4r')).map((f) => f.id), [old.id], 'current again; the withdrawn one is history');
      assert.equal((await store.getFact('t4r', repl.id))?.supersedes, old.id, 'the withdrawn fact keeps what it had replaced');
      assert.equal(await store.reopenFact('t4r-other', old.id, repl.id), null, 'other tenant');
      const patched = await store.patchFact('t4r', repl.id, { referIds: ['u_3'] });
      assert.deepEqual(patched?.referIds, ['u_3']);
      assert.equal(patched?.content, 'Ana lives in Lisbon', 'nothing else changes');
    });

    test('a withdrawn fact restored: current again with what it replaces now; nothing else is restored', async () => {
      const [other] = await store.addFacts('t4w', [fact()]);
      const [f] = await store.addFacts('t4w', [fact({ content: 'Ana lives in Lisbon', value: 'Lisbon', supersedes: 'f_old', referIds: ['u_2'] })]);
      assert.ok(other && f);
      assert.equal(await store.restoreWithdrawn('t4w', f.id, null), null, 'a current fact: nothing to restore');
      await store.closeFact('t4w', other.id, '2026-03-01T00:00:00.000Z', null);
      assert.equal(await store.restoreWithdrawn('t4w', other.id, null), null, 'deleted later, not withdrawn: left closed');
      await store.closeFact('t4w', f.id, f.validFrom, null);
      assert.equal(await store.restoreWithdrawn('t4w-other', f.id, null), null, 'other tenant');
      const back = await store.restoreWithdrawn('t4w', f.id, other.id);
      assert.deepEqual([back?.validTo, back?.supersededBy, back?.supersedes, back?.content], [null, null, other.id, 'Ana lives in Lisbon']);
      assert.equal(await store.restoreWithdrawn('t4w', f.id, null), null, 'a second call changes nothing');
      assert.deepEqual((await store.listFacts('t4w')).map((x) => x.id), [f.id]);
    });

    test('a withdrawn fact restored with the fresh extraction\'s fields, or as history closed by a newer fact', async () => {
      const [f] = await store.addFacts('t4x', [fact({ content: 'Ana lives in Lisbon', value: 'Lisbon', validUntil: '2026-02-01T00:00:00.000Z' })]);
      const [newer] = await store.addFacts('t4x', [fact({ content: 'Ana lives in Madrid', value: 'Madrid', validFrom: '2026-01-06T10:00:00.000Z' })]);
      assert.ok(f && newer);
      await store.closeFact('t4x', f.id, f.validFrom, null);
      const fresh = { content: 'Ana moved to Lisbon', confidence: 0.5, validUntil: null, eventTime: '2026-01-01T00:00:00.000Z', planObject: null, source: 'test/2' };
      const back = await store.restoreWithdrawn('t4x', f.id, null, { fresh, closedBy: { id: newer.id, at: newer.validFrom } });
      assert.deepEqual([back?.content, back?.confidence, back?.validUntil, back?.eventTime, back?.source], [fresh.content, 0.5, null, fresh.eventTime, 'test/2']);
      assert.deepEqual([back?.validTo, back?.supersededBy], [newer.validFrom, newer.id], 'history, replaced by the newer fact');
      assert.deepEqual((await store.listFacts('t4x')).map((x) => x.id), [newer.id]);
    });

    test('a fact replaced before it began is closed where it began, never before; a deletion keeps its time', async () => {
      const ahead = '2026-02-01T00:00:00.000Z';
      const [a, b, repl] = await store.addFacts('t4y', [fact({ validFrom: ahead }), fact({ value: 'Braga', validFrom: ahead }), fact({ value: 'Faro' })]);
      assert.ok(a && b && repl);
      assert.equal((await store.closeFact('t4y', a.id, repl.validFrom, repl.id))?.validTo, ahead);
      assert.equal((await store.closeFact('t4y', b.id, repl.validFrom, null))?.validTo, repl.validFrom, 'a plan cancelled before it held');
    });

    test('whom an utterance was processed under and what it deleted are kept; a later record without them keeps them', async () => {
      assert.equal(await store.processedBy('t7s', 'u_1'), null, 'never processed');
      await store.markProcessed('t7s', 'u_1', ['f_1']);
      assert.equal(await store.processedBy('t7s', 'u_1'), null, 'recorded without a speaker');
      await store.markProcessed('t7s', 'u_1', ['f_1'], { speakerId: 'p_ana', deletedIds: ['f_oslo'] });
      assert.deepEqual(await store.processedBy('t7s', 'u_1'), { speakerId: 'p_ana', deletedIds: ['f_oslo'] });
      await store.markProcessed('t7s', 'u_1', []);
      assert.deepEqual([await store.processedBy('t7s', 'u_1'), await store.processedFacts('t7s', 'u_1')], [{ speakerId: 'p_ana', deletedIds: ['f_oslo'] }, []]);
      await store.markProcessed('t7s', 'u_1', ['f_2'], { speakerId: 'p_ben', deletedIds: [] });
      assert.deepEqual(await store.processedBy('t7s', 'u_1'), { speakerId: 'p_ben', deletedIds: [] });
      assert.equal(await store.processedBy('t7s-other', 'u_1'), null, 'other tenant');
      await store.relabelParticipant('t7s', 'p_ben', 'p_cy');
      assert.deepEqual(await store.processedBy('t7s', 'u_1'), { speakerId: 'p_cy', deletedIds: [] }, 'a merge relabels it: no revision');
      await store.forgetUtterances('t7s', ['u_1']);
      assert.equal(await store.processedBy('t7s', 'u_1'), null, 'forgotten');
    });

    test('a fact deleted at a time reopened; one withdrawn, replaced, or deleted at another time is not', async () => {
      const at = '2026-03-01T00:00:00.000Z';
      const [a, b, c] = await store.addFacts('t4d', [fact(), fact({ content: 'Ana likes tea', slot: null, value: null, kind: 'preference' }),
        fact({ content: 'Ana likes jazz', slot: null, value: null, kind: 'preference' })]);
      assert.ok(a && b && c);
      assert.equal(await store.reopenDeleted('t4d', a.id, at), null, 'current: nothing to reopen');
      await store.closeFact('t4d', a.id, at, null);
      await store.closeFact('t4d', b.id, at, 'f_next');
      await store.closeFact('t4d', c.id, c.validFrom, null);
      assert.equal(await store.reopenDeleted('t4d', a.id, '2026-03-02T00:00:00.000Z'), null, 'deleted at another time');
      assert.equal(await store.reopenDeleted('t4d', b.id, at), null, 'replaced, not deleted');
      assert.equal(await store.reopenDeleted('t4d', c.id, c.validFrom), null, 'withdrawn, not deleted');
      assert.equal(await store.reopenDeleted('t4d-other', a.id, at), null, 'other tenant');
      const back = await store.reopenDeleted('t4d', a.id, at);
      assert.deepEqual([back?.validTo, back?.supersededBy], [null, null]);
      assert.equal(await store.reopenDeleted('t4d', a.id, at), null, 'a second call changes nothing');
      assert.deepEqual((await store.listFacts('t4d')).map((x) => x.id), [a.id]);
    });

    test('patch and delete (erase) a fact', async () => {
      const [f] = await store.addFacts('t5', [fact()]);
      assert.ok(f);
      const patched = await store.patchFact('t5', f.id, { content: 'Ana lives in Porto, Portugal', kind: 'statement' });
      assert.equal(patched?.content, 'Ana lives in Porto, Portugal');
      assert.equal(patched?.layer, 'fact');
      assert.equal(await store.deleteFact('t5', f.id), true);
      assert.equal(await store.getFact('t5', f.id), null);
      assert.equal(await store.deleteFact('t5', f.id), false);
    });

    test('relabels a participant everywhere and erases a participant', async () => {
      await store.addFacts('t6', [
        fact({ speakerId: 'p_x', subjectId: 'p_x', addresseeIds: ['p_ben', 'p_y'] }),
        fact({ speakerId: 'p_ben', subjectId: 'p_ben', addresseeIds: ['p_x'], content: 'Ben is a nurse', slot: 'occupation', value: 'nurse' }),
      ]);
      await store.addPersonaEvidence('t6', { participantId: 'p_x', kind: 'affect', target: 'Sushi', valence: 0.8, label: 'joy', strength: 0.7, utteranceId: 'u_a', sessionId: 's_1', time: '2026-01-01T00:00:00.000Z' });
      await store.addPersonaEvidence('t6', { participantId: 'p_y', kind: 'affect', target: 'sushi', valence: 0.4, label: 'joy', strength: 0.5, utteranceId: 'u_b', sessionId: 's_2', time: '2026-01-02T00:00:00.000Z' });
      await store.relabelParticipant('t6', 'p_x', 'p_y');
      assert.equal((await store.listFacts('t6', { participantId: 'p_x' })).length, 0);
      const ys = await store.listFacts('t6', { participantId: 'p_y' });
      assert.equal(ys.length, 2);
      assert.ok(ys.every((f) => !f.addresseeIds.includes('p_x')));
      const persona = await store.listPersona('t6', 'p_y');
      assert.equal(persona.length, 1, 'same (kind, target) nodes merge');
      assert.equal(persona[0]?.evidenceCount, 2);
      assert.ok(Math.abs((persona[0]?.valence ?? 0) - 0.6) < 1e-9);
      const erased = await store.deleteParticipant('t6', 'p_y');
      assert.equal(erased.factIds.length, 1, 'their own fact goes');
      assert.equal(erased.personaIds.length, 1);
      const left = await store.listFacts('t6', { includeHistory: true });
      assert.deepEqual(left.map((f) => [f.content, f.addresseeIds]), [['Ben is a nurse', []]], 'Ben\'s fact they were addressed in stays, without them');
      assert.equal((await store.listPersona('t6', 'p_y')).length, 0);
    });

    test('erasing a participant with the ids recorded deletes only those, and reports the others it found', async () => {
      const [known, late] = await store.addFacts('t6r', [
        fact({ speakerId: 'p_r', subjectId: 'p_r', content: 'R likes tea' }), fact({ speakerId: 'p_r', subjectId: 'p_r', content: 'R likes rain' }),
      ]);
      await store.addPersonaEvidence('t6r', { participantId: 'p_r', kind: 'affect', target: 'tea', valence: 0.8, label: 'joy', strength: 0.7, utteranceId: 'u_r', sessionId: 's_r', time: '2026-01-01T00:00:00.000Z' });
      const [persona] = await store.listPersona('t6r', 'p_r');
      const first = await store.deleteParticipant('t6r', 'p_r', { factIds: [known!.id], personaIds: [] });
      assert.deepEqual([first.factIds, first.personaIds], [[known!.id], []]);
      assert.deepEqual(first.left, { factIds: [late!.id], personaIds: [persona!.id] });
      assert.deepEqual((await store.listFacts('t6r', { participantId: 'p_r' })).map((f) => f.id), [late!.id], 'the unrecorded fact stays');
      const second = await store.deleteParticipant('t6r', 'p_r', { factIds: [known!.id, late!.id], personaIds: [persona!.id] });
      assert.deepEqual([second.factIds, second.personaIds, second.left], [[late!.id], [persona!.id], { factIds: [], personaIds: [] }]);
      assert.equal((await store.listFacts('t6r', { includeHistory: true })).length, 0);
    });

    test('erasing a person takes their facts and those naming them, and keeps others\' facts they were only addressed in', async () => {
      const plain = { kind: 'statement' as const, slot: null, value: null };
      const [lisbon, porto, promise, named, met, danish] = await store.addFacts('t6e', [
        fact({ content: 'Cara lives in Lisbon', speakerId: 'p_cara', subjectId: 'p_cara', addresseeIds: ['p_dan', 'p_eve'], value: 'Lisbon' }),
        fact({ content: 'Cara lives in Porto', speakerId: 'p_cara', subjectId: 'p_cara', addresseeIds: ['p_dan'], validFrom: '2026-01-01T10:00:00.000Z' }),
        fact({ ...plain, kind: 'commitment', content: 'Dan will send Cara the report', speakerId: 'p_dan', subjectId: 'p_dan', addresseeIds: ['p_cara'] }),
        fact({ ...plain, kind: 'commitment', content: 'Cara will send Dan the report', speakerId: 'p_cara', subjectId: 'p_cara', addresseeIds: ['p_dan'] }),
        fact({ ...plain, content: 'Eve met Dan at the market', speakerId: 'p_eve', subjectId: 'p_eve', addresseeIds: [] }),
        fact({ ...plain, kind: 'preference', content: 'Eve likes Danish pastries', speakerId: 'p_eve', subjectId: 'p_eve', addresseeIds: ['p_dan'] }),
      ]);
      assert.ok(await store.closeFact('t6e', porto!.id, '2026-01-05T10:00:00.000Z', lisbon!.id), 'a history row');
      const erased = await store.deleteParticipant('t6e', 'p_dan', undefined, ['Dan', '', 'D']);
      assert.deepEqual([...erased.factIds].sort(), [promise!.id, named!.id, met!.id].sort(), 'theirs, and those naming them');
      const left = await store.listFacts('t6e', { includeHistory: true });
      assert.deepEqual(left.map((f) => [f.id, f.addresseeIds]).sort(), [
        [lisbon!.id, ['p_eve']], [porto!.id, []], [danish!.id, []],
      ].sort(), 'others\' facts stay, history included, without the erased addressee');
      assert.equal((await store.listFacts('t6e', { participantId: 'p_dan', includeHistory: true })).length, 0, 'nothing of them is found');
      assert.deepEqual((await store.listFacts('t6e', { participantId: 'p_cara' })).map((f) => f.content), ['Cara lives in Lisbon']);
      assert.deepEqual((await store.deleteParticipant('t6e', 'p_dan', undefined, ['Dan'])).factIds, [], 'again: nothing more');
    });

    test('erasing a person takes other people\'s persona nodes whose target names them, and no other', async () => {
      const ev = { kind: 'affect' as const, valence: 0.8, label: 'joy', strength: 0.7, sessionId: 's_p', time: '2026-01-01T00:00:00.000Z' };
      await store.addPersonaEvidence('t6p', { ...ev, participantId: 'p_sarah', target: 'daughter maya', utteranceId: 'u_1' });
      await store.addPersonaEvidence('t6p', { ...ev, participantId: 'p_sarah', target: 'mayan ruins', utteranceId: 'u_2' });
      await store.addPersonaEvidence('t6p', { ...ev, participantId: 'p_maya', target: 'piano', utteranceId: 'u_3' });
      await store.addPersonaEvidence('t6p-other', { ...ev, participantId: 'p_sarah', target: 'daughter maya', utteranceId: 'u_4' });
      const [mine] = await store.listPersona('t6p', 'p_maya');
      const named = (await store.listPersona('t6p', 'p_sarah')).find((n) => n.target === 'daughter maya');
      assert.deepEqual([...await store.erasedPersonaIds('t6p', 'p_maya', ['Maya'])].sort(), [mine!.id, named!.id].sort());
      const erased = await store.deleteParticipant('t6p', 'p_maya', undefined, ['Maya']);
      assert.deepEqual([...erased.personaIds].sort(), [mine!.id, named!.id].sort(), 'theirs, and Sarah\'s that names them');
      assert.deepEqual((await store.listPersona('t6p', 'p_sarah')).map((n) => n.target), ['mayan ruins'], 'a word holding the name is not the name');
      assert.equal((await store.listPersona('t6p-other', 'p_sarah')).length, 1, 'other tenants untouched');
    });

    test('records processed utterances for idempotency', async () => {
      assert.equal(await store.processedFacts('t7', 'u_9'), null);
      await store.markProcessed('t7', 'u_9', ['f_1', 'f_2']);
      assert.deepEqual(await store.processedFacts('t7', 'u_9'), ['f_1', 'f_2']);
      assert.equal(await store.processedFacts('t8', 'u_9'), null);
      await store.markProcessed('t8', 'u_9', []);
      await store.forgetUtterances('t7', ['u_9', 'u_missing']);
      assert.equal(await store.processedFacts('t7', 'u_9'), null, 'forgotten');
      assert.deepEqual(await store.processedFacts('t8', 'u_9'), [], 'other tenants untouched');
    });

    test('keeps the first extraction of an unfinished utterance until it is processed, forgotten or its person erased', async () => {
      assert.equal(await store.keptExtraction('t7k', 'u_1'), null);
      assert.equal(await store.keepExtraction('t7k', 'u_1', '{"facts":["first"]}'), '{"facts":["first"]}');
      assert.equal(await store.keepExtraction('t7k', 'u_1', '{"facts":["reworded"]}'), '{"facts":["first"]}', 'the first one stays');
      assert.equal(await store.keptExtraction('t7k', 'u_1'), '{"facts":["first"]}');
      assert.equal(await store.keptExtraction('t7k-other', 'u_1'), null, 'per tenant');
      await store.markProcessed('t7k', 'u_1', []);
      assert.equal(await store.keptExtraction('t7k', 'u_1'), null, 'dropped once processed');

      await store.keepExtraction('t7k', 'u_2', '{"subject":"p_kept"}');
      await store.keepExtraction('t7k', 'u_3', '{"subject":"p_other"}');
      await store.forgetUtterances('t7k', ['u_2']);
      assert.equal(await store.keptExtraction('t7k', 'u_2'), null, 'forgotten');
      await store.keepExtraction('t7k', 'u_4', '{"subject":"p_kept"}');
      await store.deleteParticipant('t7k', 'p_kept');
      assert.equal(await store.keptExtraction('t7k', 'u_4'), null, 'an erased person\'s words do not stay in a kept extraction');
      assert.equal(await store.keptExtraction('t7k', 'u_3'), '{"subject":"p_other"}');
    });

    test('kept extractions older than a bound are dropped (a job that crashed and never ran again), newer ones stay', async () => {
      await store.keepExtraction('t7x', 'u_old', '{"facts":["old"]}');
      await store.keepExtraction('t7y', 'u_old', '{"facts":["old"]}');
      assert.equal(await store.dropKeptExtractions(new Date(Date.now() - 60_000).toISOString()), 0, 'none kept before a minute ago');
      assert.equal(await store.keptExtraction('t7x', 'u_old'), '{"facts":["old"]}');
      assert.ok(await store.dropKeptExtractions(new Date(Date.now() + 60_000).toISOString()) >= 2, 'every tenant\'s');
      assert.equal(await store.keptExtraction('t7x', 'u_old'), null);
      assert.equal(await store.keptExtraction('t7y', 'u_old'), null);
    });

    test('processed utterances read many at once: fact ids of each processed one, the others absent', async () => {
      await store.markProcessed('t7c', 'u_1', ['f_1', 'f_2']);
      await store.markProcessed('t7c', 'u_2', []);
      await store.markProcessed('t7d', 'u_3', ['f_9']);
      const found = await store.processedFactsOf('t7c', ['u_1', 'u_2', 'u_3', 'u_missing', 'u_1']);
      assert.deepEqual([...found.entries()].sort(), [['u_1', ['f_1', 'f_2']], ['u_2', []]]);
      assert.equal((await store.processedFactsOf('t7c', [])).size, 0);
    });

    test('adding a fact under an id already stored adds nothing and returns the stored fact', async () => {
      const [old] = await store.addFacts('t7b', [fact()]);
      assert.ok(old);
      const [first] = await store.addFacts('t7b', [fact({ id: 'f_rerun', content: 'Ana lives in Lisbon', value: 'Lisbon', supersedes: old.id })]);
      assert.equal(first?.id, 'f_rerun');
      // A re-run writes the same id again, possibly with other details: the stored fact stands.
      const again = await store.addFacts('t7b', [
        fact({ id: 'f_rerun', content: 'Ana lives in Lisbon now', value: 'Lisbon', supersedes: null, confidence: 0.1 }),
        fact({ id: 'f_other', content: 'Ana loves tea', kind: 'preference', slot: 'preference:tea', value: 'love' }),
      ]);
      assert.deepEqual(again.map((f) => f.id), ['f_rerun', 'f_other']);
      assert.deepEqual(again[0], first, 'the stored fact, unchanged');
      const all = await store.listFacts('t7b', { includeHistory: true });
      assert.deepEqual(all.map((f) => f.id).sort(), [old.id, 'f_other', 'f_rerun'].sort(), 'no second copy');
      assert.equal((await store.getFact('t7b', 'f_rerun'))?.supersedes, old.id);
      assert.equal(await store.getFact('t7c', 'f_rerun'), null, 'ids are per tenant');
      const [elsewhere] = await store.addFacts('t7c', [fact({ id: 'f_rerun', content: 'Cy lives in Rome' })]);
      assert.equal(elsewhere?.content, 'Cy lives in Rome', 'the same id in another tenant is another fact');
      assert.equal((await store.getFact('t7b', 'f_rerun'))?.content, 'Ana lives in Lisbon');
    });

    test('data migrations: recorded per tenant and name, once', async () => {
      assert.equal(await store.migrationDone('t11', 'm-one'), false, 'a store that never ran it');
      await store.recordMigration('t11', 'm-one');
      await store.recordMigration('t11', 'm-one');
      assert.equal(await store.migrationDone('t11', 'm-one'), true);
      assert.equal(await store.migrationDone('t11', 'm-two'), false, 'another migration');
      assert.equal(await store.migrationDone('t12', 'm-one'), false, 'another tenant');
    });

    test('persona evidence accumulates once per utterance and can be marked stable', async () => {
      const base = { participantId: 'p_a', kind: 'preference' as const, target: 'jazz', label: null, strength: 0.6, sessionId: 's_1' };
      await store.addPersonaEvidence('t9', { ...base, valence: 1, utteranceId: 'u_1', time: '2026-01-01T00:00:00.000Z' });
      await store.addPersonaEvidence('t9', { ...base, valence: 1, utteranceId: 'u_1', time: '2026-01-01T00:00:00.000Z' });
      const node = await store.addPersonaEvidence('t9', { ...base, valence: 0.5, utteranceId: 'u_2', sessionId: 's_2', time: '2026-01-03T00:00:00.000Z' });
      assert.equal(node.evidenceCount, 2);
      assert.deepEqual(node.evidenceIds, ['u_1', 'u_2']);
      assert.deepEqual(node.sessionIds.sort(), ['s_1', 's_2']);
      assert.equal(node.lastSeen, '2026-01-03T00:00:00.000Z');
      assert.equal(node.stable, false);
      await store.setPersonaStable('t9', node.id, true);
      assert.equal((await store.listPersona('t9', 'p_a', { stableOnly: true })).length, 1);
      assert.equal((await store.listPersona('t10', 'p_a')).length, 0);
      assert.equal(await store.ready(), true);
    });
  });
}
