import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { capitaliseProperNouns, withProperNounCase } from '../../../pipelines/memory/proper-noun-case.js';
import { defaultWordNet } from '../../../pipelines/retrieval/wordnet.js';
import { extractSaid } from '../../helpers/extract-said.js';
import { memoryFixture } from '../../helpers/memory-fixture.js';

const GRACE = ['p_grace', 'Grace'] as const;
const BO = ['p_bo', 'Bo'] as const;

describe('proper nouns from a lower-case recogniser', { skip: !defaultWordNet().available && 'WordNet is not installed (Debian wordnet-base)' }, () => {
  test('words WordNet lists only as capitalised nouns are capitalised; ordinary words never', () => {
    assert.equal(capitaliseProperNouns('she moved to lisbon, then porto, on monday'), 'she moved to Lisbon, then Porto, on Monday');
    // Each has a lower-case sense or another part of speech: china, turkey, may, grace, berlin (a carriage), english.
    const ordinary = 'i may like china and turkey, grace said in berlin to the english teacher';
    assert.equal(capitaliseProperNouns(ordinary), ordinary);
    // Function words, acronyms and inflected verbs WordNet also lists as capitalised nouns (IT, US, OH, Ate, Sat…).
    const small = 'it me or us oh an am ate sam ed who sat ca eu';
    assert.equal(capitaliseProperNouns(small), small);
    assert.equal(capitaliseProperNouns('in paris in june'), 'in Paris in June');
    // A word with a non-ASCII letter is one word, never split at the letter.
    assert.equal(capitaliseProperNouns('zürich'), 'zürich');
  });

  test('a lower-case sentence keeps its function words lower case and only the place capitalised', async () => {
    const text = 'i love it when my sister visits us in lisbon';
    const extraction = withProperNounCase(await extractSaid(text, '2026-12-04T10:00:00Z', GRACE, BO), text);
    const contents = extraction.facts.map((f) => f.content);
    assert.ok(contents.some((c) => /\bLisbon\b/.test(c)), JSON.stringify(contents));
    for (const c of contents) assert.doesNotMatch(c, /\b(IT|US|OR|ME|AN|OH)\b/, JSON.stringify(contents));
  });

  test('an all-lower-case transcript gets "Lisbon" in the fact text and the lives_in value', async () => {
    const extraction = await extractSaid('i moved to lisbon last month', '2026-12-04T10:00:00Z', GRACE, BO);
    const lives = extraction.facts.find((f) => f.slot === 'lives_in');
    assert.ok(lives, JSON.stringify(extraction.facts));
    assert.equal(lives.value?.toLowerCase(), 'lisbon');
    withProperNounCase(extraction, 'i moved to lisbon last month');
    assert.equal(lives.value, 'Lisbon');
    assert.match(lives.content, /\bLisbon\b/);
    assert.doesNotMatch(lives.content, /\blisbon\b/);
  });

  test('consolidation stores the place capitalised from a lower-case turn', async () => {
    const f = await memoryFixture('parley-trialfix-case', ['Grace', 'Bo']);
    try {
      await f.say('s1', 'Grace', ['Bo'], 'i moved to lisbon last month', '2026-12-04T10:00:00Z');
      const facts = await f.memory.listFacts('parley-trialfix-case');
      const lives = facts.find((x) => x.slot === 'lives_in');
      assert.equal(lives?.value, 'Lisbon', JSON.stringify(facts.map((x) => [x.content, x.slot, x.value])));
      assert.match(lives.content, /\bLisbon\b/);
    } finally {
      await f.close();
    }
  });

  test('a transcript with capitals is left as its recogniser wrote it', async () => {
    const text = 'I moved to lisbon last month';
    const extraction = await extractSaid(text, '2026-12-04T10:00:00Z', GRACE, BO);
    const before = JSON.stringify(extraction);
    withProperNounCase(extraction, text);
    assert.equal(JSON.stringify(extraction), before);
  });
});
