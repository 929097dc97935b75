import assert from 'node:assert/strict';
import { afterEach, beforeEach, test } from 'node:test';
import type { EntityIndex } from '../../../graph/entity-index.js';
import { contractSuite } from './contract-suite.js';

/** What each backend's fixture provides: a fresh, empty index and a way to clean it up. */
export type EntityIndexFactory = () => Promise<{ index: EntityIndex; cleanup(): Promise<void> }>;

const SEEDS = [
  { id: 'sch_work', name: 'work', description: 'jobs, colleagues, meetings', origin: 'seed' as const },
  { id: 'sch_pets', name: 'pets', description: 'animals at home', origin: 'seed' as const },
];

/** The shared behaviour every EntityIndex implementation must show. `skip` names why it cannot run here. */
export function entityIndexContract(name: string, make: EntityIndexFactory, skip?: string): void {
  contractSuite(`EntityIndex contract: ${name}`, skip, () => {
    let index: EntityIndex;
    let cleanup: () => Promise<void>;
    beforeEach(async () => {
      ({ index, cleanup } = await make());
    });
    afterEach(async () => {
      await cleanup();
    });

    test('seed schemas are inserted once and emergent ones added', async () => {
      await index.ensureSchemas('t1', SEEDS);
      await index.ensureSchemas('t1', [{ ...SEEDS[0]!, name: 'renamed' }]);
      const emergent = await index.addSchema('t1', { name: 'the job interview', description: 'interview at Acme', origin: 'emergent' });
      const schemas = await index.listSchemas('t1');
      assert.deepEqual(schemas.map((s) => s.name).sort(), ['pets', 'the job interview', 'work']);
      assert.equal(schemas.find((s) => s.id === emergent.id)?.origin, 'emergent');
      assert.deepEqual(await index.listSchemas('t2'), [], 'schemas are per tenant');
    });

    test('an emergent schema promoted twice at once (two processes) is one schema, by its name', async () => {
      const [a, b] = await Promise.all([
        index.addSchema('t1', { name: 'The job interview', description: 'interview at Acme', origin: 'emergent' }),
        index.addSchema('t1', { name: 'the  job interview ', description: 'asked about Acme', origin: 'emergent' }),
      ]);
      assert.equal(a.id, b.id);
      const again = await index.addSchema('t1', { name: 'the job interview', description: 'later', origin: 'emergent' });
      assert.equal(again.id, a.id);
      assert.equal((await index.listSchemas('t1')).filter((s) => s.origin === 'emergent').length, 1);
      const other = await index.addSchema('t2', { name: 'the job interview', description: 'elsewhere', origin: 'emergent' });
      assert.notEqual(other.id, a.id, 'per tenant');
      await index.deleteSchema('t1', a.id, 'sch_fallback');
      const anew = await index.addSchema('t1', { name: 'the job interview', description: 'promoted again', origin: 'emergent' });
      assert.notEqual(anew.id, a.id, 'a schema erased may emerge again');
    });

    test('entities upsert by name or alias, keep their one schema, and are found by name', async () => {
      const a = await index.upsertEntity('t1', { name: 'Miko', aliases: ['the cat'], description: 'the cat Miko', schemaId: 'sch_pets' });
      const again = await index.upsertEntity('t1', { name: 'miko', aliases: ['kitty'], description: 'x', schemaId: 'sch_work' });
      assert.equal(again.id, a.id);
      assert.equal(again.schemaId, 'sch_pets', 'an entity stays in the schema it was given');
      assert.deepEqual(again.aliases.sort(), ['kitty', 'the cat']);
      const viaAlias = await index.upsertEntity('t1', { name: 'The Cat', description: 'y', schemaId: 'sch_work' });
      assert.equal(viaAlias.id, a.id);
      assert.deepEqual((await index.findByNames('t1', ['KITTY'])).map((e) => e.id), [a.id]);
      assert.deepEqual(await index.findByNames('t2', ['miko']), [], 'other tenants see nothing');
      const names = await index.listNames('t1');
      assert.equal(names.length, 1);
      assert.equal(names[0]?.key, 'miko');
    });

    test('an entity is described by its earliest turn, whichever upsert comes first; a rewritten description stays', async () => {
      const early = { name: 'Lake Tahoe', description: 'Lake Tahoe: we booked the cabin', schemaId: 'sch_pets', descriptionOrder: '2026-11-02T10:00#1' };
      const late = { name: 'lake tahoe', description: 'lake tahoe: two feet of snow', schemaId: 'sch_work', descriptionOrder: '2026-11-02T10:01#2' };
      const kept = async (tenant: string, first: typeof early, second: typeof early) => {
        const a = await index.upsertEntity(tenant, first);
        const b = await index.upsertEntity(tenant, second);
        assert.equal(b.id, a.id);
        const [stored] = await index.getEntities(tenant, [a.id]);
        return { returned: [b.name, b.description, b.schemaId, b.descriptionOrder], stored: [stored?.name, stored?.description, stored?.schemaId, stored?.descriptionOrder] };
      };
      const inOrder = await kept('t1', early, late);
      assert.deepEqual(inOrder.stored, ['Lake Tahoe', early.description, 'sch_pets', early.descriptionOrder]);
      assert.deepEqual(await kept('t2', late, early), inOrder, 'the later turn upserted first is described over');
      const unordered = await index.upsertEntity('t1', { name: 'Lake Tahoe', description: 'no turn', schemaId: 'sch_work' });
      assert.equal(unordered.description, early.description, 'an upsert without an order keeps the description');
      await index.describe('t1', unordered.id, 'Lake Tahoe');
      const again = await index.upsertEntity('t1', { ...early, descriptionOrder: '2026-01-01T00:00#1' });
      assert.equal(again.description, 'Lake Tahoe', 'a description rewritten (erasure) is not taken back to a turn');
    });

    test('memories are recorded idempotently, counted, listed newest first and removable', async () => {
      const e = await index.upsertEntity('t1', { name: 'Acme', description: 'a company', schemaId: 'sch_work' });
      const f = await index.upsertEntity('t1', { name: 'Ben', description: 'a person', schemaId: 'sch_work' });
      await index.addMemories('t1', e.id, { factIds: ['f1'], utteranceIds: ['u1'] });
      await index.addMemories('t1', e.id, { factIds: ['f1', 'f2'], utteranceIds: ['u1'] });
      await index.addMemories('t1', f.id, { utteranceIds: ['u9'] });
      const [stored] = await index.getEntities('t1', [e.id]);
      assert.equal(stored?.memoryCount, 3);
      const mem = await index.memoriesOf('t1', [e.id], 10);
      assert.deepEqual(mem.factIds, ['f2', 'f1']);
      assert.deepEqual(mem.utteranceIds, ['u1']);
      assert.deepEqual(await index.entitiesOfMemories('t1', ['u1', 'u9']), [e.id, f.id].sort());
      await index.removeMemories('t1', ['f1']);
      assert.deepEqual((await index.memoriesOf('t1', [e.id], 10)).factIds, ['f2']);
      assert.equal((await index.getEntities('t1', [e.id]))[0]?.memoryCount, 2);
      assert.deepEqual((await index.memoriesOf('t2', [e.id], 10)).factIds, []);
    });

    test('erasing memories deletes the entities left with none, with their names and links', async () => {
      const kept = await index.upsertEntity('t1', { name: 'Garden', description: 'the garden', schemaId: 'sch_daily_life' });
      const gone = await index.upsertEntity('t1', { name: 'Oaxwellton', description: 'a town', schemaId: 'sch_daily_life', aliases: ['Oax'] });
      await index.addMemories('t1', kept.id, { factIds: ['f1', 'f2'] });
      await index.addMemories('t1', gone.id, { factIds: ['f1'], utteranceIds: ['u1'] });
      await index.link('t1', kept.id, gone.id, 'strong');
      assert.deepEqual(await index.eraseMemories('t1', ['f1', 'u1']), [gone.id]);
      assert.deepEqual((await index.getEntities('t1', [kept.id, gone.id])).map((e) => e.id), [kept.id]);
      assert.deepEqual(await index.findByNames('t1', ['Oaxwellton', 'Oax']), []);
      assert.deepEqual(await index.neighbours('t1', [kept.id], 5), []);
      assert.deepEqual((await index.memoriesOf('t1', [kept.id], 10)).factIds, ['f2']);
      assert.deepEqual(await index.eraseMemories('t1', []), []);
    });

    test('erasure helpers: entities quoting a text are found and rewritten, named ones deleted, a schema dropped', async () => {
      const quoting = await index.upsertEntity('t1', { name: 'Lisbon', description: 'Lisbon: Thanks Ana. I fly to Lisbon.', schemaId: 'sch_work' });
      const named = await index.upsertEntity('t1', { name: 'Ben', aliases: ['Benji'], description: 'Ben: hello', schemaId: 'sch_work' });
      await index.addMemories('t1', named.id, { utteranceIds: ['u1'] });
      await index.link('t1', named.id, quoting.id, 'strong');
      assert.deepEqual((await index.entitiesDescribedBy('t1', ['Thanks Ana. I fly', 'absent'])).map((e) => e.id), [quoting.id]);
      assert.deepEqual(await index.entitiesDescribedBy('t2', ['Thanks Ana']), [], 'tenant-scoped');
      await index.describe('t1', quoting.id, 'Lisbon');
      assert.equal((await index.getEntities('t1', [quoting.id]))[0]?.description, 'Lisbon');
      assert.deepEqual(await index.entitiesDescribedBy('t1', ['Thanks Ana']), []);
      const before = await index.version('t1');
      await index.deleteEntities('t1', [named.id]);
      await index.deleteEntities('t1', [named.id]);
      assert.ok((await index.version('t1')) > before);
      assert.deepEqual(await index.findByNames('t1', ['Ben', 'Benji']), []);
      assert.deepEqual(await index.neighbours('t1', [quoting.id], 5), []);
      assert.deepEqual(await index.entitiesOfMemories('t1', ['u1']), []);
      const schema = await index.addSchema('t1', { name: 'Ben & Lisbon', description: 'asked about Ben', origin: 'emergent' });
      await index.setSchema('t1', [quoting.id], schema.id);
      await index.deleteSchema('t1', schema.id, 'sch_daily_life');
      await index.deleteSchema('t1', schema.id, 'sch_daily_life');
      assert.deepEqual((await index.listSchemas('t1')).filter((s) => s.id === schema.id), []);
      assert.equal((await index.getEntities('t1', [quoting.id]))[0]?.schemaId, 'sch_daily_life');
    });

    test('links are symmetric, weighted, and one hop is returned strongest first', async () => {
      const ids = [];
      for (const n of ['a', 'b', 'c', 'd']) ids.push((await index.upsertEntity('t1', { name: n, description: n, schemaId: 'sch_work' })).id);
      const [a, b, c, d] = ids as [string, string, string, string];
      await index.link('t1', a, b, 'strong');
      await index.link('t1', a, c, 'weak');
      await index.link('t1', a, c, 'weak', 2);
      await index.link('t1', a, d, 'weak');
      await index.link('t1', a, a, 'strong');
      const fromB = await index.neighbours('t1', [b], 5);
      assert.deepEqual(fromB.map((n) => [n.neighbourId, n.strength]), [[a, 'strong']]);
      const fromA = await index.neighbours('t1', [a], 5);
      assert.deepEqual(fromA.map((n) => [n.neighbourId, n.strength, n.weight]), [[b, 'strong', 1], [c, 'weak', 3], [d, 'weak', 1]]);
      assert.deepEqual((await index.neighbours('t1', [a], 1)).map((n) => n.neighbourId), [b, c], 'limit per entity and strength');
      assert.deepEqual(await index.neighbours('t2', [a], 5), []);
    });

    test('record leaves memories, ranks, counts, links and the version as the single calls in order would', async () => {
      const make = async (tenant: string): Promise<string[]> => {
        const ids = [];
        for (const n of ['a', 'b', 'c']) ids.push((await index.upsertEntity(tenant, { name: n, description: n, schemaId: 'sch_work' })).id);
        return ids;
      };
      const [a, b, c] = await make('single') as [string, string, string];
      await index.addMemories('single', a, { utteranceIds: ['u1'] });
      await index.addMemories('single', b, { factIds: ['f1'], utteranceIds: ['u1', 'u0'] });
      await index.addMemories('single', a, { factIds: ['f1'], utteranceIds: ['u1'] });
      await index.link('single', a, b, 'strong');
      await index.link('single', b, a, 'strong');
      await index.link('single', a, c, 'weak', 2);
      await index.link('single', c, c, 'weak');
      const [x, y, z] = await make('batch') as [string, string, string];
      const before = await index.version('batch');
      await index.record('batch', {
        memories: [
          { entityId: x, utteranceIds: ['u1'] }, { entityId: y, factIds: ['f1'], utteranceIds: ['u1', 'u0'] },
          { entityId: x, factIds: ['f1'], utteranceIds: ['u1'] },
        ],
        links: [{ a: x, b: y, strength: 'strong' }, { a: y, b: x, strength: 'strong' }, { a: x, b: z, strength: 'weak', by: 2 }, { a: z, b: z, strength: 'weak' }],
      });
      assert.equal(await index.version('batch') - before, await index.version('single') - 3, 'the version moves as with the single calls');
      const rename = (ids: string[]): string[] => ids.map((id) => ({ [x]: a, [y]: b, [z]: c })[id] ?? id);
      for (const [single, batch] of [[a, x], [b, y], [c, z]] as const) {
        assert.deepEqual(await index.memoriesOf('batch', [batch], 10), await index.memoriesOf('single', [single], 10), 'same memories in the same order');
        assert.equal((await index.getEntities('batch', [batch]))[0]?.memoryCount, (await index.getEntities('single', [single]))[0]?.memoryCount);
        const got = (await index.neighbours('batch', [batch], 5)).map((n) => [rename([n.neighbourId])[0], n.strength, n.weight]);
        assert.deepEqual(got, (await index.neighbours('single', [single], 5)).map((n) => [n.neighbourId, n.strength, n.weight]));
      }
      assert.deepEqual((await index.neighbours('batch', [x], 5)).map((n) => [n.strength, n.weight]), [['strong', 2], ['weak', 2]]);
      await index.record('batch', { memories: [], links: [] });
      assert.deepEqual((await index.memoriesOf('batch', [x], 10)).utteranceIds, ['u1'], 'memories are recorded once');
    });

    test('links recorded for a source are added once: a run again, reordered, cut short or extended adds only what is new', async () => {
      const [a, b, c] = await Promise.all(['a', 'b', 'c'].map(async (n) => (await index.upsertEntity('src', { name: n, description: n, schemaId: 'sch_work' })).id)) as [string, string, string];
      const weights = async (): Promise<Array<[string, string, number]>> =>
        (await index.neighbours('src', [a], 5)).map((n) => [n.neighbourId, n.strength, n.weight]);
      const links = [{ a, b, strength: 'strong' as const }, { a: b, b: a, strength: 'strong' as const }, { a, b: c, strength: 'weak' as const, by: 2 }];
      await index.record('src', { memories: [{ entityId: a, utteranceIds: ['u1'] }], links, source: 'u1' });
      const once = await weights();
      assert.deepEqual(once, [[b, 'strong', 2], [c, 'weak', 2]]);
      await index.record('src', { memories: [{ entityId: a, utteranceIds: ['u1'] }], links, source: 'u1' });
      assert.deepEqual(await weights(), once, 'the same source again adds nothing');
      await index.record('src', { memories: [], links: [...links].reverse(), source: 'u1' });
      assert.deepEqual(await weights(), once, 'nor in another order');
      await index.record('src', { memories: [], links: [...links, { a: c, b: a, strength: 'weak' }], source: 'u1' });
      assert.deepEqual(await weights(), [[b, 'strong', 2], [c, 'weak', 3]], 'a link the source lacked is added');
      await index.record('src', { memories: [], links: [{ a, b, strength: 'strong' }], source: 'u2' });
      assert.deepEqual((await weights())[0], [b, 'strong', 3], 'another source adds its own');
      await index.record('src', { memories: [], links: [{ a, b, strength: 'strong' }] });
      assert.deepEqual((await weights())[0], [b, 'strong', 4], 'no source: added every time');
      await index.eraseMemories('src', ['u2']);
      await index.record('src', { memories: [], links: [{ a, b, strength: 'strong' }], source: 'u2' });
      assert.deepEqual((await weights())[0], [b, 'strong', 5], 'erasing a source\'s memories forgets its links');
    });

    test('entities of schemas come most-remembered first; setSchema moves them and bumps the version', async () => {
      const a = await index.upsertEntity('t1', { name: 'a', description: 'a', schemaId: 'sch_work' });
      const b = await index.upsertEntity('t1', { name: 'b', description: 'b', schemaId: 'sch_work' });
      await index.addMemories('t1', b.id, { utteranceIds: ['u1', 'u2'] });
      assert.deepEqual((await index.entitiesOfSchemas('t1', ['sch_work'], 5)).map((e) => e.id), [b.id, a.id]);
      assert.deepEqual((await index.entitiesOfSchemas('t1', ['sch_work'], 1)).map((e) => e.id), [b.id]);
      const before = await index.version('t1');
      await index.setSchema('t1', [a.id], 'sch_new');
      assert.ok((await index.version('t1')) > before);
      assert.deepEqual((await index.entitiesOfSchemas('t1', ['sch_new'], 5)).map((e) => e.id), [a.id]);
      assert.equal(await index.version('t2'), 0);
    });
  });
}
