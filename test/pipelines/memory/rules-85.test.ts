/**
 * Rules 85 (fixrev; review1 finding 6): the thanks a verb takes ("to give thanks", rules 81) is only the object of a
 * verb of thanking; after any other word ("speak to Ben thanks", "pay thanks") the closing thanks goes again, as before
 * rules 81. Each fails on main 7b76b708 (what it did there in the comment).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ExtractedFact } from '../../../pipelines/memory/extractor.js';
import { withoutCourtesyTail } from '../../../pipelines/memory/call-phrases.js';
import { factsSaid } from '../../helpers/extract-said.js';

const MONDAY = '2026-12-07T10:00:00.000Z';

/** The facts of `text` said alone by Maria to Jo (the review's inputs). */
const alone = async (text: string): Promise<ExtractedFact[]> => factsSaid(text, MONDAY, ['maria', 'Maria'], ['ben2', 'Jo']);

describe('rules 85: a closing thanks after a request is a courtesy unless a verb of thanking takes it (finding 6)', () => {
  test('"I\'d like to speak to Ben thanks.", "I\'d like to pay thanks." drop the thanks', async () => {
    // On main: "Maria would like to speak to Ben thanks", "Maria would like to pay thanks".
    for (const [s, fact] of [["I'd like to speak to Ben thanks.", 'Maria would like to speak to Ben'], ["I'd like to pay thanks.", 'Maria would like to pay']] as const) {
      const contents = (await alone(s)).map((f) => f.content);
      assert.ok(contents.includes(fact), `${s}: ${JSON.stringify(contents)}`);
      assert.ok(!contents.some((c) => /thanks/i.test(c)), `${s}: ${JSON.stringify(contents)}`);
    }
    assert.equal(withoutCourtesyTail("I'd like to speak to Ben thanks."), "I'd like to speak to Ben.");
    assert.equal(withoutCourtesyTail('I want to cancel my order thank you'), 'I want to cancel my order');
  });

  test('the thanks a verb of thanking takes stays (rules 81)', async () => {
    for (const s of ['I want to give thanks.', 'I would like to express thanks.', 'I want to send thanks.', 'We would like to extend many thanks.',
      "I'd like to offer thanks."]) assert.equal(withoutCourtesyTail(s), s);
    const contents = (await alone("I'd like to say thanks to Ben.")).map((f) => f.content);
    assert.ok(contents.some((c) => /say thanks to Ben/.test(c)), JSON.stringify(contents));
  });
});
