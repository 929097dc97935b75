/**
 * `pagedUtterances` (erasure, manual merge) reads a whole history, also when its turns share one time (an import):
 * paging by the oldest time seen alone stopped after the first page of 1000.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pino } from 'pino';
import { openStores } from '../../../graph/open-stores.js';
import type { NewUtterance } from '../../../graph/graph-store.js';
import { pagedUtterances } from '../../../pipelines/interaction/erase-participant.js';
import { loadConfig } from '../../../server/config.js';
import { tempDir } from '../../helpers/temp-dir.js';

const T = 'default';
const say = (speakerId: string, text: string, time: string, addresseeIds: string[] = []): NewUtterance => ({
  sessionId: 's1', speakerId, addresseeIds, text, startMs: null, endMs: null, time, confidence: null, audioRef: null,
});

test('a history of more than one page at one time is read whole', async () => {
  const tmp = tempDir();
  const stores = openStores(loadConfig({ DATA_DIR: tmp.dir, PORT: '0', LOG_LEVEL: 'silent' }), pino({ level: 'silent' }));
  try {
    const x = await stores.graph.createParticipant(T, { name: 'Xena' });
    const y = await stores.graph.createParticipant(T, { name: 'Yves' });
    const spoken: string[] = [];
    for (let i = 0; i < 2300; i += 500) {
      const batch = Array.from({ length: 500 }, (_, j) => say(x.id, `line ${i + j}`, '2026-12-01T00:00:00.000Z', [y.id]));
      spoken.push(...(await stores.graph.addUtterances(T, batch)).map((u) => u.id));
    }
    // And a few at other times, before and after.
    spoken.push(...(await stores.graph.addUtterances(T, [say(x.id, 'early', '2026-11-01T00:00:00.000Z'), say(x.id, 'late', '2026-12-02T00:00:00.000Z')])).map((u) => u.id));
    const read = await pagedUtterances(stores, T, { speakerId: x.id });
    assert.equal(read.length, spoken.length);
    assert.deepEqual(new Set(read), new Set(spoken));
    assert.equal((await pagedUtterances(stores, T, { addresseeId: y.id })).length, 2500);
  } finally {
    await stores.close();
    tmp.remove();
  }
});
