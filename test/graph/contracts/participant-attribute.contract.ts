import assert from 'node:assert/strict';
import { afterEach, beforeEach, test } from 'node:test';
import type { GraphStoreFixture } from './graph-store.contract.js';
import { contractSuite } from './contract-suite.js';
import { PENDING_RENAME_KEY } from '../../../graph/graph-store.js';
import type { Participant } from '../../../graph/types.js';

/**
 * `GraphStore.updateParticipantAttribute`, the one-key update that never writes the other attributes back, and
 * `updateParticipantAttributes`, its several-key form over all the stored attributes, and `updateParticipantNames`, the
 * same over names, aliases and attributes at once: the behaviour both stores must show (the graph-store contract file is at its size limit, so it lives apart).
 */
export function participantAttributeContract(name: string, factory: () => Promise<GraphStoreFixture>, skip?: string): void {
  contractSuite(`GraphStore.updateParticipantAttribute contract: ${name}`, skip, () => {
    let fx: GraphStoreFixture;
    beforeEach(async () => {
      fx = await factory();
    });
    afterEach(async () => {
      await fx.cleanup();
    });

    test('sets, updates and removes one key, leaving the others; none for an unknown participant', async () => {
      const { store } = fx;
      const p = await store.createParticipant('t1', { name: 'Ana', attributes: { a: 1, b: 2 } });
      assert.deepEqual((await store.updateParticipantAttribute('t1', p.id, 'c', (v) => (v === undefined ? 3 : 0)))!.attributes, { a: 1, b: 2, c: 3 });
      assert.deepEqual((await store.updateParticipantAttribute('t1', p.id, 'a', (v) => (v as number) + 10))!.attributes, { a: 11, b: 2, c: 3 });
      assert.deepEqual((await store.updateParticipantAttribute('t1', p.id, 'b', () => undefined))!.attributes, { a: 11, c: 3 });
      assert.deepEqual((await store.getParticipant('t1', p.id))!.attributes, { a: 11, c: 3 }, 'stored as returned');
      assert.equal(await store.updateParticipantAttribute('t1', 'p_missing', 'a', () => 1), null);
      assert.equal(await store.updateParticipantAttribute('t2', p.id, 'a', () => 1), null, 'another tenant does not reach it');
    });

    test('concurrent updates of one key all count, and of other keys all stay', async () => {
      const { store } = fx;
      const p = await store.createParticipant('t1', { name: 'Ben', attributes: { n: 0 } });
      await Promise.all([
        ...Array.from({ length: 8 }, () => store.updateParticipantAttribute('t1', p.id, 'n', (v) => (v as number) + 1)),
        ...Array.from({ length: 4 }, (_, i) => store.updateParticipantAttribute('t1', p.id, `k${i}`, () => i)),
      ]);
      assert.deepEqual((await store.getParticipant('t1', p.id))!.attributes, { n: 8, k0: 0, k1: 1, k2: 2, k3: 3 });
    });

    test('updateParticipantAttributes changes several keys at once from all those stored; none for an unknown participant', async () => {
      const { store } = fx;
      const p = await store.createParticipant('t1', { name: 'Cy', attributes: { a: 1, b: 2 } });
      const after = await store.updateParticipantAttributes('t1', p.id, ({ a, ...rest }) => ({ ...rest, c: (a as number) + (rest.b as number) }));
      assert.deepEqual(after!.attributes, { b: 2, c: 3 });
      assert.deepEqual((await store.getParticipant('t1', p.id))!.attributes, { b: 2, c: 3 }, 'stored as returned');
      assert.equal(await store.updateParticipantAttributes('t1', 'p_missing', () => ({ a: 1 })), null);
      assert.equal(await store.updateParticipantAttributes('t2', p.id, () => ({ a: 1 })), null, 'another tenant does not reach it');
    });

    test('updateParticipantAttributes writes nothing when the update throws or returns the attributes it was given', async () => {
      const { store } = fx;
      const p = await store.createParticipant('t1', { name: 'Di', attributes: { a: 1 } });
      const before = (await store.updateParticipantAttribute('t1', p.id, 'b', () => 2))!;
      await assert.rejects(store.updateParticipantAttributes('t1', p.id, () => {
        throw new Error('refused');
      }), /refused/);
      const same = await store.updateParticipantAttributes('t1', p.id, (attributes) => attributes);
      assert.deepEqual(same!.attributes, { a: 1, b: 2 }, 'the participant as stored is returned');
      const stored = (await store.getParticipant('t1', p.id))!;
      assert.deepEqual(stored.attributes, { a: 1, b: 2 });
      assert.equal(stored.updatedAt, before.updatedAt, 'not written: updatedAt as it was');
    });

    test('concurrent several-key updates all count, with one-key updates of the same keys', async () => {
      const { store } = fx;
      const p = await store.createParticipant('t1', { name: 'Eve', attributes: { n: 0, m: 0 } });
      const both = (a: Record<string, unknown>) => ({ ...a, n: (a.n as number) + 1, m: (a.m as number) + 1 });
      await Promise.all([
        ...Array.from({ length: 6 }, () => store.updateParticipantAttributes('t1', p.id, both)),
        ...Array.from({ length: 3 }, () => store.updateParticipantAttribute('t1', p.id, 'n', (v) => (v as number) + 1)),
      ]);
      assert.deepEqual((await store.getParticipant('t1', p.id))!.attributes, { n: 9, m: 6 });
    });

    test('updateParticipantNames sets name, aliases and attributes from those stored, found by the new names; none for an unknown participant', async () => {
      const { store } = fx;
      const p = await store.createParticipant('t1', { attributes: { a: 1 } });
      const after = await store.updateParticipantNames('t1', p.id, (s) => ({ name: 'Grace', aliases: [...s.aliases, 'Gracie'], attributes: { ...s.attributes, b: 2 } }));
      assert.equal(after!.name, 'Grace');
      assert.deepEqual(after!.aliases, ['Gracie']);
      assert.deepEqual(after!.attributes, { a: 1, b: 2 });
      const stored = (await store.getParticipant('t1', p.id))!;
      assert.deepEqual([stored.name, stored.aliases, stored.attributes], ['Grace', ['Gracie'], { a: 1, b: 2 }], 'stored as returned');
      assert.deepEqual((await store.findParticipantsByName('t1', 'gracie')).map((f) => f.id), [p.id], 'the alias resolves');
      assert.deepEqual((await store.recentNamedParticipants('t1', 5)).map((f) => f.id), [p.id], 'named now');
      assert.equal(await store.updateParticipantNames('t1', 'p_missing', (s) => ({ ...s, name: 'X' })), null);
      assert.equal(await store.updateParticipantNames('t2', p.id, (s) => ({ ...s, name: 'X' })), null, 'another tenant does not reach it');
    });

    test('updateParticipantNames writes nothing when the update throws or returns what it was given', async () => {
      const { store } = fx;
      const p = await store.createParticipant('t1', { name: 'Hal', aliases: ['H'] });
      await assert.rejects(store.updateParticipantNames('t1', p.id, () => {
        throw new Error('refused');
      }), /refused/);
      const same = await store.updateParticipantNames('t1', p.id, (s) => s);
      assert.deepEqual([same!.name, same!.aliases], ['Hal', ['H']]);
      assert.equal((await store.getParticipant('t1', p.id))!.updatedAt, p.updatedAt, 'not written: updatedAt as it was');
    });

    test('concurrent updateParticipantNames all count, with attribute and rename writes landing between them', async () => {
      const { store } = fx;
      const p = await store.createParticipant('t1', { name: 'Ivy', attributes: { n: 0 } });
      const addAlias = (word: string) => (s: { name: string | null; aliases: string[]; attributes: Record<string, unknown> }) =>
        ({ ...s, aliases: [...s.aliases, word], attributes: { ...s.attributes, n: (s.attributes.n as number) + 1 } });
      await Promise.all([
        ...['A1', 'A2', 'A3', 'A4', 'A5'].map((w) => store.updateParticipantNames('t1', p.id, addAlias(w))),
        ...Array.from({ length: 3 }, () => store.updateParticipantAttribute('t1', p.id, 'n', (v) => (v as number) + 1)),
      ]);
      const stored = (await store.getParticipant('t1', p.id))!;
      assert.deepEqual([...stored.aliases].sort(), ['A1', 'A2', 'A3', 'A4', 'A5']);
      assert.equal(stored.attributes.n, 8);
      assert.equal(stored.name, 'Ivy');
    });

    test('participantsOwingRename lists those whose attributes hold a rewrite owed, whichever write set or cleared it, paged', async () => {
      const { store } = fx;
      const owed = (to: string) => ({ [PENDING_RENAME_KEY]: { from: [null], to } });
      const names = async (page?: Parameters<typeof store.participantsOwingRename>[1]) =>
        (await store.participantsOwingRename('t1', page)).map((p) => p.name);
      const created = await store.createParticipant('t1', { name: 'Ada', attributes: owed('Ada') });
      const plain = await store.createParticipant('t1', { name: 'Bo', attributes: { note: `"${PENDING_RENAME_KEY}": in a value` } });
      await store.createParticipant('t2', { name: 'Other', attributes: owed('Other') });
      assert.deepEqual(await names(), ['Ada'], 'created owing one; a value that quotes the key is no rewrite owed; another tenant\'s stays apart');
      const patched = await store.createParticipant('t1', { name: 'Cy' });
      await store.updateParticipant('t1', patched.id, { attributes: owed('Cy') });
      const named = await store.createParticipant('t1', { name: null });
      await store.updateParticipantNames('t1', named.id, (stored) => ({ ...stored, name: 'Di', attributes: { ...stored.attributes, ...owed('Di') } }));
      const single = await store.createParticipant('t1', { name: 'Ed' });
      await store.updateParticipantAttribute('t1', single.id, PENDING_RENAME_KEY, () => owed('Ed')[PENDING_RENAME_KEY]);
      // Listed by (createdAt, id), as listParticipants: participants created within one millisecond come in id order.
      const byCreation = (...ps: [Participant, string][]): string[] =>
        ps.sort(([a], [b]) => (a.createdAt === b.createdAt ? (a.id < b.id ? -1 : 1) : a.createdAt < b.createdAt ? -1 : 1)).map(([, n]) => n);
      const owing = byCreation([created, 'Ada'], [patched, 'Cy'], [named, 'Di'], [single, 'Ed']);
      assert.deepEqual(await names(), owing, 'set by a patch, a names update and a one-key update');
      const first = await store.participantsOwingRename('t1', { limit: 2 });
      assert.deepEqual(first.map((p) => p.name), owing.slice(0, 2));
      assert.deepEqual(await names({ after: first[1]!, limit: 2 }), owing.slice(2), 'keyset paging as listParticipants');
      await store.updateParticipantAttribute('t1', created.id, PENDING_RENAME_KEY, () => undefined);
      await store.updateParticipantAttributes('t1', patched.id, (attributes) => Object.fromEntries(Object.entries(attributes).filter(([k]) => k !== PENDING_RENAME_KEY)));
      assert.deepEqual(await names(), byCreation([named, 'Di'], [single, 'Ed']), 'cleared once done');
      // A merge keeps the attributes of both: the rewrite owed to the merged-away one moves with them.
      await store.mergeParticipants('t1', single.id, plain.id);
      assert.deepEqual(await names(), byCreation([plain, 'Bo'], [named, 'Di']));
    });
  });
}
