/** A merge keeps the names taught either person (`$taught_names`): the survivor's list is the union of both. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { openDatabase } from '../../../graph/sqlite/database.js';
import { SqliteGraphStore } from '../../../graph/sqlite/sqlite-graph-store.js';
import { keepClientKeysAfterMerge } from '../../../pipelines/interaction/derived-attributes.js';
import { TAUGHT_NAMES } from '../../../pipelines/interaction/participant-attributes.js';

const T = 't_merge_taught';

async function merged(fromAttributes: Record<string, unknown>, intoAttributes: Record<string, unknown>): Promise<Record<string, unknown>> {
  const db = openDatabase(':memory:');
  const graph = new SqliteGraphStore(db);
  const from = await graph.createParticipant(T, { name: 'Ana', attributes: fromAttributes });
  const into = await graph.createParticipant(T, { name: 'Grace', aliases: ['Gracie'], attributes: intoAttributes });
  await graph.mergeParticipants(T, from.id, into.id);
  await keepClientKeysAfterMerge(graph, T, from, into);
  const attributes = (await graph.getParticipant(T, into.id))!.attributes;
  db.close();
  return attributes;
}

describe('keepClientKeysAfterMerge and the taught names', () => {
  test('both people taught names: the survivor records the union, not only its own list', async () => {
    const attributes = await merged({ [TAUGHT_NAMES]: ['ana'], city: 'Porto' }, { [TAUGHT_NAMES]: ['gracie'] });
    assert.deepEqual(attributes[TAUGHT_NAMES], ['ana', 'gracie']);
    assert.equal(attributes.city, 'Porto');
  });

  test('only the merged-away person was taught a name: the survivor records it', async () => {
    const attributes = await merged({ [TAUGHT_NAMES]: ['ana'] }, { tier: 'gold' });
    assert.deepEqual(attributes[TAUGHT_NAMES], ['ana']);
    assert.equal(attributes.tier, 'gold');
  });

  test('only the survivor was taught a name: its list stays as it was', async () => {
    const attributes = await merged({}, { [TAUGHT_NAMES]: ['gracie'] });
    assert.deepEqual(attributes[TAUGHT_NAMES], ['gracie']);
  });
});
