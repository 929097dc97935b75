/** A stored memory for tests that hand facts to a decider, a closer or a ranker without a store. */
import type { Fact } from '../../graph/memory-store.js';

/**
 * A current fact written at `at` (ISO: its `time`, `validFrom` and `createdAt`): an unslotted `statement` of the `fact`
 * layer with no end, no plan object and no links, confidence 0.7, session `s`, source `test`; `over` sets the rest.
 */
export function storedFact(at: string, over: Partial<Fact> & Pick<Fact, 'id' | 'content' | 'speakerId' | 'subjectId'>): Fact {
  return {
    addresseeIds: [], kind: 'statement', layer: 'fact', slot: null, value: null, time: at, eventTime: null, referIds: [],
    validFrom: at, validTo: null, validUntil: null, planObject: null, supersedes: null, supersededBy: null, confidence: 0.7,
    sessionId: 's', source: 'test', createdAt: at, ...over,
  };
}
