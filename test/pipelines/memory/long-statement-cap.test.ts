/**
 * An over-long turn (a 10,000-character unpunctuated dictation) is never one fact, and a served `source_text` is cut to
 * 500 characters with an ellipsis: one query item stays a memory, not a transcript twice over.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { EmbeddedExtractor } from '../../../pipelines/memory/embedded-extractor.js';
import { MAX_FACT_CHARS, MAX_SOURCE_TEXT_CHARS, clauseCapped, ellipsised } from '../../../pipelines/memory/clause-cap.js';
import { factItem } from '../../../pipelines/retrieval/memory-items.js';
import type { Fact } from '../../../graph/memory-store.js';

const TIME = '2026-12-01T12:00:00.000Z';

async function facts(text: string): Promise<string[]> {
  const r = await new EmbeddedExtractor().extract({
    current: { id: 'u1', speakerId: 'pat', addresseeIds: ['rae'], text, time: TIME, sessionId: 's' } as never, previous: [], names: { pat: 'Pat', rae: 'Rae' },
  });
  return r.facts.map((f) => f.content);
}

describe('length caps on fact texts and source_text', () => {
  test('an unpunctuated 9,900-character statement is no fact; a long one with clauses keeps its first clause', async () => {
    const unpunctuated = `I think ${'the garden needs a lot more work before the summer party '.repeat(170)}`.trim();
    assert.ok(unpunctuated.length > 9000);
    const none = await facts(unpunctuated);
    assert.ok(none.every((f) => f.length <= MAX_FACT_CHARS), JSON.stringify(none.map((f) => f.length)));
    const long = `I spent the whole weekend repainting the fence behind the shed, ${'then the neighbours came over with more paint and brushes and ladders '.repeat(8)}`.trim();
    const kept = await facts(long);
    assert.ok(kept.length > 0, 'a clause is still recorded');
    assert.ok(kept.every((f) => f.length <= MAX_FACT_CHARS), JSON.stringify(kept));
    assert.ok(kept.some((f) => /repainting the fence behind the shed$/.test(f)), JSON.stringify(kept));
    const short = await facts('I spent the whole weekend repainting the fence behind the shed.');
    assert.ok(short.some((f) => /repainting the fence behind the shed/.test(f)), 'short statements are as before');
  });

  test('clauseCapped and ellipsised', () => {
    assert.equal(clauseCapped('I like tea.'), 'I like tea.');
    assert.equal(clauseCapped('x'.repeat(400)), null);
    const s = ellipsised(`${'word '.repeat(300)}`);
    assert.ok(s.length <= MAX_SOURCE_TEXT_CHARS && s.endsWith('…'));
    assert.equal(ellipsised('short'), 'short');
  });

  test('a fact item carries at most 500 characters of source_text, ending with "…"', async () => {
    const names = { ref: async () => null } as never;
    const f = { id: 'f1', kind: 'statement', layer: 'fact', content: 'Pat likes tea', speakerId: 'pat', addresseeIds: [], referIds: ['u1'],
      sessionId: 's', time: TIME, validFrom: TIME, validTo: null, validUntil: null, eventTime: null } as unknown as Fact;
    const said = `I like tea ${'and I talk for a very long time about it '.repeat(60)}`;
    const item = await factItem(names, f, 1, TIME, said);
    assert.ok(item.source_text !== null && item.source_text.length <= MAX_SOURCE_TEXT_CHARS, String(item.source_text?.length));
    assert.ok(item.source_text!.endsWith('…'));
    assert.ok(item.source_text!.startsWith('I like tea and I talk'));
    assert.equal((await factItem(names, f, 1, TIME, 'I like tea.')).source_text, 'I like tea.');
  });
});
