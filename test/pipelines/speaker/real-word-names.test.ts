import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { openDatabase } from '../../../graph/sqlite/database.js';
import { SqliteGraphStore } from '../../../graph/sqlite/sqlite-graph-store.js';
import { introductionOf } from '../../../pipelines/memory/embedded-rules.js';
import { applyProfileUpdates } from '../../../pipelines/memory/profile-updates.js';
import { detectIntroduction } from '../../../pipelines/speaker/name-patterns.js';
import { couldBeName } from '../../../pipelines/speaker/name-words.js';

// Real names that are also WordNet common words and absent from the census list of first names.
const WORD_NAMES = ['River', 'Sky', 'Storm', 'Rain', 'Gift'];

describe('a real name that is also a word, given as strong evidence', () => {
  test('couldBeName: strong evidence written capitalised passes; weak or lower-case evidence and function words do not', () => {
    for (const w of WORD_NAMES) {
      assert.equal(couldBeName(w, undefined, true), true, w);
      assert.equal(couldBeName(w), false, `${w} as weak evidence`);
      assert.equal(couldBeName(w.toLowerCase(), undefined, true), false, `${w.toLowerCase()} written lower-case`);
    }
    for (const w of ['On', 'In', 'The', 'Fine']) assert.equal(couldBeName(w, undefined, true), false, w);
  });

  test('"My name is River." names River in typed text; lower-case speech and "my name is on …" still name no one', () => {
    for (const w of WORD_NAMES) {
      assert.equal(introductionOf(`My name is ${w}.`)?.name, w, `rules extractor: ${w}`);
      assert.equal(detectIntroduction(`Hello. My name is ${w}.`)?.name, w, `speaker namer: ${w}`);
    }
    for (const s of ['my name is river', 'My name is on the list.', 'my name is on it']) {
      assert.equal(introductionOf(s), null, s);
      assert.equal(detectIntroduction(s), null, s);
    }
  });

  test('an extractor-given name "River" names the participant; "On" does not', async () => {
    const db = openDatabase(':memory:');
    const graph = new SqliteGraphStore(db);
    const river = await graph.createParticipant('t-wordnames', {});
    const on = await graph.createParticipant('t-wordnames', {});
    await applyProfileUpdates(graph, 't-wordnames', [
      { participantId: river.id, attribute: 'name', value: 'River', referIds: ['u_1'], confidence: 0.9 },
      { participantId: on.id, attribute: 'name', value: 'On', referIds: ['u_2'], confidence: 0.9 },
    ]);
    assert.equal((await graph.getParticipant('t-wordnames', river.id))?.name, 'River');
    assert.equal((await graph.getParticipant('t-wordnames', on.id))?.name, null);
    db.close();
  });
});
