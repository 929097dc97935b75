import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defaultWordNet } from '../../pipelines/retrieval/wordnet.js';
import { startTestApp } from '../helpers/app.js';

// The name checks of a live turn (addressee, session naming) consult WordNet; read lazily, its index load stalled the
// first turn naming someone for seconds when no job had read it before (PARLEY_RUN_JOBS=false).
test('the real server (eager models) reads WordNet at start-up, before any turn', async (t) => {
  if (!defaultWordNet().available) {
    t.skip('no WordNet at /usr/share/wordnet');
    return;
  }
  assert.equal(defaultWordNet().loaded, false, 'nothing in this process read it yet');
  const started = await startTestApp({ PARLEY_ASR: 'none', PARLEY_RUN_JOBS: 'false', PARLEY_TEXT_EMBEDDER: 'use-lite' }, false, undefined, {});
  try {
    assert.equal(defaultWordNet().loaded, false, 'a test app (lazy models) does not pay for it');
  } finally {
    await started.close();
  }
  const eager = await startTestApp({ PARLEY_ASR: 'none', PARLEY_RUN_JOBS: 'false', PARLEY_TEXT_EMBEDDER: 'use-lite' }, false, undefined, { eagerModels: true });
  try {
    assert.equal(defaultWordNet().loaded, true);
  } finally {
    await eager.close();
  }
});
