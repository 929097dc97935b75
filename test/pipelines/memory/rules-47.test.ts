/**
 * Rules 47: a withdrawal opening a sentence, then the clause that replaces what it withdrew ("Scratch that, I won't go to
 * Oslo"): the clause is read on its own. Before, it was lost with the withdrawal, and after rules 45 left out an opening
 * "Actually," a sentence "scrap that, I won't go…" gave no fact at all.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { EMBEDDED_RULES_VERSION } from '../../../pipelines/memory/embedded-extractor.js';
import type { ExtractedFact } from '../../../pipelines/memory/extractor.js';
import { factsSaid } from '../../helpers/extract-said.js';

const TIME = '2026-12-01T10:00:00.000Z';
const facts = (text: string): Promise<ExtractedFact[]> => factsSaid(text, TIME, ['lee', 'Lee'], ['ned', 'Ned']);
const contents = async (text: string): Promise<string[]> => (await facts(text)).map((f) => f.content);

describe('rules 47: a withdrawal and the clause after it', () => {
  test('the version is 47 or later', () => {
    assert.ok(EMBEDDED_RULES_VERSION >= 47);
  });

  test('the clause after "scratch / scrap / forget that," is a fact of its own', async () => {
    for (const text of ["Scratch that, I won't go to Oslo.", "Actually, scrap that, I won't go to Oslo.", "Scrap that - I won't go to Oslo.",
      "Forget that, I won't go to Oslo.", "scrap that i won't go to oslo"]) {
      const said = await contents(text);
      assert.equal(said.length, 1, `${text} → ${JSON.stringify(said)}`);
      assert.match(said[0]!, /^Lee won't go to Oslo$/i, text);
    }
    const leeds = await facts('Oh, scratch that, I will stay in Leeds.');
    assert.deepEqual(leeds.map((f) => [f.kind, f.content]), [['commitment', 'Lee will stay in Leeds']]);
  });

  test('a clause that "forget that" takes stays whole, and a withdrawal alone tells nothing new', async () => {
    assert.deepEqual(await contents('forget that i said it'), []);
    assert.deepEqual(await contents('Scratch that.'), []);
    assert.deepEqual(await contents('Scrap the trip, I won\'t go to Oslo.'), ["Scrap the trip, Lee won't go to Oslo"]);
  });
});
