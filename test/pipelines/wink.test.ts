import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EmbeddedExtractor } from '../../pipelines/memory/embedded-extractor.js';
import { EntityExtractor } from '../../pipelines/retrieval/entity-extraction.js';
import { affectTarget } from '../../pipelines/affect/attribution.js';
import { wink } from '../../pipelines/wink.js';
import type { Utterance } from '../../graph/types.js';

test('wink-nlp is loaded once per process: many extractors, one model', async () => {
  assert.equal(wink(), wink());
  // Each extractor used to load the model again, and the loader failed near the twentieth load.
  for (let i = 0; i < 40; i++) {
    const facts = new EmbeddedExtractor();
    const entities = new EntityExtractor();
    assert.deepEqual(entities.extract('Ana visited the Lisbon office').map((m) => m.name).includes('Lisbon'), true);
    const current: Utterance = { id: `u${i}`, sessionId: 's', speakerId: 'p_ana', addresseeIds: [], text: 'I live in Porto.',
      startMs: null, endMs: null, time: '2026-11-01T10:00:00.000Z', confidence: null, audioRef: null, seq: i };
    const out = await facts.extract({ current, previous: [], names: { p_ana: 'Ana' } });
    assert.ok(out.facts.length + out.profileUpdates.length > 0);
  }
  assert.equal(affectTarget('I love my new job'), 'new job');
});
