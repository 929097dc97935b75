import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runSessions, type EvalUtterance, type RunOptions } from '../../bench/lib/speaker-sessions.js';
import type { SpeakerDecisionParams } from '../../pipelines/speaker/speaker-decision.js';

const at = (deg: number): Float32Array => Float32Array.from([Math.cos((deg * Math.PI) / 180), Math.sin((deg * Math.PI) / 180), 0, 0]);
const D: SpeakerDecisionParams = { modelId: 'm', calibration: { a: -5, b: 10, c: 0, e: 0 }, logPriorPrevious: 2, logPriorSession: 1, logPriorNew: 1, minFoundSeconds: 0 };
const run: RunOptions = { thresholds: { tauMatch: 0.5, tauUpdate: 0.6, alpha: 0.5 }, mergeTau: null, decision: D };
// Speaker b's first turn (50°) goes to a's id; b's next turn (100°) founds a new id.
const session: EvalUtterance[] = [['a', 0], ['a', 10], ['b', 50], ['b', 100]].map(([speaker, deg]) => ({ speaker: speaker as string, vector: at(deg as number), seconds: 2 }));

test('the bench scores a moved turn under its new id and counts the move as right when the founding speaker spoke it', async () => {
  const off = await runSessions([session], 'm', run);
  assert.deepEqual(off.attributions.map((a) => a.id), ['p1', 'p1', 'p1', 'p2']);
  assert.deepEqual(off.revisions, { moved: 0, right: 0 });
  const on = await runSessions([session], 'm', { ...run, revise: { window: 16, margin: -1 } });
  assert.deepEqual(on.attributions.map((a) => a.id), ['p1', 'p1', 'p2', 'p2']);
  assert.deepEqual(on.revisions, { moved: 1, right: 1 });
  const limited = await runSessions([session], 'm', { ...run, revise: { window: 16, margin: -1, minStayRate: 0.8 } });
  assert.deepEqual(limited.revisions, { moved: 1, right: 1 }, 'two stays of two transitions: a meeting-like start');
});
