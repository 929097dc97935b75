import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Participant, Utterance } from '../../../graph/types.js';
import { afterMerges, sessionEvidence } from '../../../pipelines/speaker/session-cannot-links.js';

const line = (id: string, speakerId: string, text: string, startMs: number | null, endMs: number | null): Utterance => ({
  id, sessionId: 's', speakerId, addresseeIds: [], text, startMs, endMs, time: new Date(0).toISOString(), confidence: 1, audioRef: null, seq: 0,
});
const person = (id: string, name: string | null, externalId: string | null = null): Participant => ({
  id, name, externalId, aliases: [], attributes: {}, voiceprintCount: 0, createdAt: '', updatedAt: '',
});
const sorted = (pairs: [string, string][]): string[] => pairs.map((p) => [...p].sort().join('+')).sort();

describe('a session\'s cannot-links', () => {
  const transcript = [
    line('u1', 'a', 'hello there', 0, 2000),
    line('u2', 'b', 'sorry to cut in', 1500, 3000), // overlaps a
    line('u3', 'c', 'Ana, can you send it', 4000, 5000), // c names a
    line('u4', 'd', 'typed', null, null),
  ];
  const people = [person('a', 'Ana'), person('b', null, 'crm-1'), person('c', null), person('d', null, 'crm-2'), person('e', null)];

  test('time overlap, naming by name and different external ids, each pair once', () => {
    const e = sessionEvidence(transcript, people);
    assert.deepEqual(sorted(e.cannotLink), ['a+b', 'a+c', 'b+d']);
    assert.deepEqual(e.named.map((u) => u.namedAddresseeIds), [[], [], ['a'], []]);
  });

  test('after merges: ids relabelled (chains followed), joined pairs and repeats dropped', () => {
    const e = afterMerges(sessionEvidence(transcript, people), [{ from: 'e', into: 'c' }, { from: 'c', into: 'd' }]);
    assert.deepEqual(sorted(e.cannotLink), ['a+b', 'a+d', 'b+d']);
    assert.deepEqual(e.transcript.map((u) => u.speakerId), ['a', 'b', 'd', 'd']);
    assert.deepEqual(e.named[2], { speakerId: 'd', startMs: 4000, endMs: 5000, namedAddresseeIds: ['a'] });
    const joined = afterMerges(sessionEvidence(transcript, people), [{ from: 'b', into: 'a' }]);
    assert.ok(!sorted(joined.cannotLink).includes('a+a'));
    assert.deepEqual(afterMerges(e, []), e);
  });
});
