import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { NewFact } from '../../../graph/memory-store.js';
import { openDatabase } from '../../../graph/sqlite/database.js';
import { SqliteGraphStore } from '../../../graph/sqlite/sqlite-graph-store.js';
import { SqliteMemoryStore } from '../../../graph/sqlite/sqlite-memory-store.js';
import { oweMergeRename, relabelFacts } from '../../../pipelines/interaction/merge-participants.js';
import { renameInFacts } from '../../../pipelines/interaction/rename-facts.js';
import { finishPendingRenames } from '../../../pipelines/interaction/finish-rename.js';

const tenant = 't-rename';
const at = '2026-12-01T10:00:00.000Z';

function stores(): { graph: SqliteGraphStore; memory: SqliteMemoryStore } {
  const db = openDatabase(':memory:');
  return { graph: new SqliteGraphStore(db), memory: new SqliteMemoryStore(db) };
}

function fact(content: string, speakerId: string, subjectId: string, addresseeIds: string[] = []): NewFact {
  return {
    content, speakerId, subjectId, addresseeIds, kind: 'preference', slot: null, value: null, time: at, referIds: [], validFrom: at,
    supersedes: null, confidence: 0.8, sessionId: 's-1', source: 'test',
  };
}

/** Texts of the stored facts, in the order added. */
async function texts(memory: SqliteMemoryStore, ids: string[]): Promise<string[]> {
  return Promise.all(ids.map(async (id) => (await memory.getFact(tenant, id))?.content ?? '(gone)'));
}

describe('renameInFacts: the old label is rewritten only where it is the renamed person', () => {
  test('a label that is also a word ("May", "On") is kept as the word: a month, a preposition', async () => {
    const { graph, memory } = stores();
    const may = await graph.createParticipant(tenant, { name: 'May' });
    const on = await graph.createParticipant(tenant, { name: 'On' });
    const added = await memory.addFacts(tenant, [
      fact('Tom is moving in May', may.id, may.id),
      fact('May is moving to Porto', may.id, may.id),
      fact('On Friday, On will send it', on.id, on.id),
    ]);
    await renameInFacts(memory, tenant, may.id, 'May', 'Ana');
    await renameInFacts(memory, tenant, on.id, 'On', 'Dora');
    assert.deepEqual(await texts(memory, added.map((f) => f.id)), ['Tom is moving in May', 'Ana is moving to Porto', 'On Friday, On will send it']);
  });

  test('other people\'s names stay: a longer name, another holder of the label', async () => {
    const { graph, memory } = stores();
    const ana = await graph.createParticipant(tenant, { name: 'Ana' });
    const lopez = await graph.createParticipant(tenant, { name: 'Ana Lopez' });
    const other = await graph.createParticipant(tenant, { name: 'Anabel', aliases: ['Ana'] });
    const added = await memory.addFacts(tenant, [
      fact('Ana Lopez told Ana about the flat', lopez.id, lopez.id, [ana.id]),
      fact('Ana met Ana Lopez at the station', ana.id, ana.id),
      fact('Ana thanked Ana for the lift', ana.id, ana.id, [other.id]),
    ]);
    await renameInFacts(memory, tenant, ana.id, 'Ana', 'Ana Silva', new Set([other.id]));
    // Where Ana only listens, the fact still names her (trial 9, F8): "Ana Lopez" is the longer name of someone else.
    assert.deepEqual(await texts(memory, added.map((f) => f.id)), [
      'Ana Lopez told Ana Silva about the flat', 'Ana Silva met Ana Lopez at the station', 'Ana thanked Ana for the lift',
    ]);
  });

  // Trial 9 (issue #16 F8): "Donna introduced themself" became "Ana introduced themself", but "Ben asked Donna to
  // remember…", where Donna was the one asked, kept "Donna".
  test('a fact they take part in as listener or speaker names them by the new label, once named; others of that name stay', async () => {
    const { graph, memory } = stores();
    const donna = await graph.createParticipant(tenant, { name: 'Donna' });
    const ben = await graph.createParticipant(tenant, { name: 'Ben' });
    const added = await memory.addFacts(tenant, [
      fact('Donna introduced themself', donna.id, donna.id, [ben.id]),
      fact('Ben asked Donna to remember the party', ben.id, ben.id, [donna.id]),
      fact('Ben told Donna he is moving to Leeds', donna.id, ben.id, [ben.id]),
      // Named twice in a fact only heard: one may be another Donna.
      fact('Ben told Donna that Donna Smith and Donna are friends', ben.id, ben.id, [donna.id]),
      // Not there at all: another Donna, whom Ben talks about to someone else.
      fact('Ben met Donna at the station', ben.id, ben.id),
    ]);
    await renameInFacts(memory, tenant, donna.id, 'Donna', 'Ana');
    assert.deepEqual(await texts(memory, added.map((f) => f.id)), [
      'Ana introduced themself', 'Ben asked Ana to remember the party', 'Ben told Ana he is moving to Leeds',
      'Ben told Donna that Donna Smith and Donna are friends', 'Ben met Donna at the station',
    ]);
  });

  test('a mention inside the new name stays ("Silva" → "da Silva")', async () => {
    const { graph, memory } = stores();
    const silva = await graph.createParticipant(tenant, { name: 'Silva' });
    const added = await memory.addFacts(tenant, [fact('Silva said that da Silva went home', silva.id, silva.id)]);
    await renameInFacts(memory, tenant, silva.id, 'Silva', 'da Silva');
    assert.deepEqual(await texts(memory, added.map((f) => f.id)), ['da Silva said that da Silva went home']);
  });

  test('an unnamed speaker is named only in facts about them, on a rename and on a merge alike', async () => {
    const { graph, memory } = stores();
    const voice = await graph.createParticipant(tenant, {});
    const ben = await graph.createParticipant(tenant, { name: 'Ben' });
    const added = await memory.addFacts(tenant, [
      fact('An unnamed speaker enjoys green tea', voice.id, voice.id),
      // Said by the voice about Ben: the unnamed speaker here is another person the voice spoke of.
      fact('Ben lent an unnamed speaker his bike', voice.id, ben.id),
      fact('An unnamed speaker likes Acme', voice.id, 'entity:acme'),
    ]);
    await renameInFacts(memory, tenant, voice.id, null, 'Carla');
    assert.deepEqual(await texts(memory, added.map((f) => f.id)), ['Carla enjoys green tea', 'Ben lent an unnamed speaker his bike', 'Carla likes Acme']);

    const voice2 = await graph.createParticipant(tenant, {});
    const xena = await graph.createParticipant(tenant, { name: 'Xena' });
    const more = await memory.addFacts(tenant, [
      fact('An unnamed speaker walks to work', voice2.id, voice2.id),
      fact('Ben lent an unnamed speaker a book', voice2.id, ben.id),
    ]);
    await oweMergeRename({ graph, memory }, tenant, voice2, xena);
    await relabelFacts({ graph, memory }, tenant, voice2.id, xena.id);
    assert.deepEqual(await texts(memory, more.map((f) => f.id)), ['Xena walks to work', 'Ben lent an unnamed speaker a book']);
  });

  // A merge into a named person rewrote the person's own facts too, where "an unnamed speaker" is always someone else.
  test('a voice merged into a named person: only the voice\'s facts are named; the person\'s own keep their unnamed speaker', async () => {
    const { graph, memory } = stores();
    const voice = await graph.createParticipant(tenant, {});
    const xena = await graph.createParticipant(tenant, { name: 'Xena' });
    const added = await memory.addFacts(tenant, [
      fact('An unnamed speaker walks to work', voice.id, voice.id),
      fact('The book club meets at an unnamed speaker\'s house', xena.id, 'entity:book-club'),
      fact('An unnamed speaker sold Xena a bike', xena.id, xena.id),
    ]);
    await oweMergeRename({ graph, memory }, tenant, voice, xena);
    await graph.mergeParticipants(tenant, voice.id, xena.id);
    await relabelFacts({ graph, memory }, tenant, voice.id, xena.id);
    assert.deepEqual(await texts(memory, added.map((f) => f.id)), [
      'Xena walks to work', 'The book club meets at an unnamed speaker\'s house', 'An unnamed speaker sold Xena a bike',
    ]);
    assert.equal((await graph.getParticipant(tenant, xena.id))?.attributes['$pending_rename'], undefined, 'nothing left owed');
  });

  // A consolidation job finishing renames between a merge's record and its name write cleared the record: the rewrite was lost.
  test('a rename recorded before the name is set survives a finishing pass in between, and is done once the name is set', async () => {
    const { graph, memory } = stores();
    const voice = await graph.createParticipant(tenant, {});
    const ana = await graph.createParticipant(tenant, { name: 'Ana' });
    const [own] = await memory.addFacts(tenant, [fact('An unnamed speaker grows basil', voice.id, voice.id)]);
    await oweMergeRename({ graph, memory }, tenant, ana, voice);
    await finishPendingRenames({ graph, memory }, tenant, [voice.id]);
    assert.ok((await graph.getParticipant(tenant, voice.id))?.attributes['$pending_rename'], 'still owed while the name is not set');
    await graph.mergeParticipants(tenant, ana.id, voice.id);
    await relabelFacts({ graph, memory }, tenant, ana.id, voice.id);
    assert.deepEqual(await texts(memory, [own!.id]), ['Ana grows basil']);
  });

  // A merge that gave an unnamed survivor the merged-away one's name left the survivor's own memories unnamed.
  test('a merge naming an unnamed survivor names its own earlier facts; one already naming them about someone else stays', async () => {
    const { graph, memory } = stores();
    const voice = await graph.createParticipant(tenant, {});
    const yara = await graph.createParticipant(tenant, { name: 'Yara' });
    const added = await memory.addFacts(tenant, [
      fact('An unnamed speaker grows tomatoes', voice.id, voice.id),
      fact('The caller wants a refund', voice.id, voice.id),
      fact('Yara lent an unnamed speaker a ladder', yara.id, yara.id),
    ]);
    await oweMergeRename({ graph, memory }, tenant, yara, voice);
    await graph.mergeParticipants(tenant, yara.id, voice.id);
    assert.equal((await graph.getParticipant(tenant, voice.id))?.name, 'Yara', 'the survivor holds the name');
    await relabelFacts({ graph, memory }, tenant, yara.id, voice.id);
    assert.deepEqual(await texts(memory, added.map((f) => f.id)), ['Yara grows tomatoes', 'Yara wants a refund', 'Yara lent an unnamed speaker a ladder']);
    assert.equal((await graph.getParticipant(tenant, voice.id))?.attributes['$pending_rename'], undefined, 'nothing left owed');
  });
});
