import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { NewUtterance } from '../../graph/graph-store.js';
import { openDatabase } from '../../graph/sqlite/database.js';
import { SqliteGraphStore } from '../../graph/sqlite/sqlite-graph-store.js';
import { unstoredStreamFromMs } from '../../server/ws/stream-frontier.js';

const T = 'default';

function turn(sessionId: string, speakerId: string, startMs: number, endMs: number): NewUtterance {
  return {
    sessionId, speakerId, text: `said from ${startMs} to ${endMs}`, addresseeIds: [], startMs, endMs,
    time: '2026-12-05T10:00:00.000Z', confidence: 0.9, audioRef: null, turnId: `turn_${startMs}`,
  };
}

/** Where a resumed session says nothing of its previous audio stream is stored, read from the store alone. */
async function frontier(graph: SqliteGraphStore, id: string): Promise<number | null> {
  return unstoredStreamFromMs(graph, T, (await graph.getSession(T, id))!);
}

test('unstoredStreamFromMs: none without a recorded stream; 0 before its first turn; then the end of its last stored turn on its own clock', async () => {
  const db = openDatabase(':memory:');
  try {
    const graph = new SqliteGraphStore(db);
    const ana = await graph.createParticipant(T, { name: 'Ana' });
    await graph.openSession(T, 's', '2026-12-05T10:00:00.000Z');
    assert.equal(await frontier(graph, 's'), null, 'no audio stream recorded: nothing can be named');

    // The first stream begins at 0; crashed before any turn ended: everything it got is named.
    await graph.updateSession(T, 's', { audioStreamMs: 0 });
    assert.equal(await frontier(graph, 's'), 0);
    // Crashed between turns, or in the middle of a later one: from the end of the last stored turn.
    await graph.addUtterances(T, [turn('s', ana.id, 500, 2400.6)]);
    assert.equal(await frontier(graph, 's'), 2400, 'rounded down: a little silence more, never a part of a turn less');
    await graph.addUtterances(T, [turn('s', ana.id, 3000, 5200)]);
    assert.equal(await frontier(graph, 's'), 5200);

    // A second stream (a resume after the first crashed) begins where the transcript ended; its clock starts at 0.
    await graph.updateSession(T, 's', { audioStreamMs: 5200 });
    assert.equal(await frontier(graph, 's'), 0, 'the new stream stored nothing yet: the earlier stream\'s turns are not its own');
    await graph.addUtterances(T, [turn('s', ana.id, 5200 + 300, 5200 + 1700)]);
    assert.equal(await frontier(graph, 's'), 1700, 'on the second stream\'s clock');
    // A text utterance without times does not move it.
    await graph.addUtterances(T, [{ ...turn('s', ana.id, 0, 0), startMs: null, endMs: null, text: 'typed', turnId: 'turn_typed' }]);
    assert.equal(await frontier(graph, 's'), 1700);
  } finally {
    db.close();
  }
});
