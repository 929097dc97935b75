/**
 * Rules 30: a stay said ahead ("next month I'm in Tokyo for two weeks") is, beside its plan, a `staying_in` memory that
 * holds from its start to its end; the derived attribute records the step that begins it as well as the one that ends
 * it, read at any time by `shownAttributes`, with nothing run when the stay begins.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Fact, NewFact } from '../../../graph/memory-store.js';
import { openDatabase } from '../../../graph/sqlite/database.js';
import { SqliteGraphStore } from '../../../graph/sqlite/sqlite-graph-store.js';
import { SqliteMemoryStore } from '../../../graph/sqlite/sqlite-memory-store.js';
import { rederiveAttributes } from '../../../pipelines/interaction/derived-attributes.js';
import { DERIVED_STEPS, shownAttributes, withDerived } from '../../../pipelines/interaction/participant-attributes.js';
import { EMBEDDED_RULES_VERSION } from '../../../pipelines/memory/embedded-extractor.js';
import type { ExtractedFact } from '../../../pipelines/memory/extractor.js';
import { STAY_SLOT } from '../../../pipelines/memory/stays.js';
import { decideWithStays } from '../../../pipelines/memory/temporary-states.js';
import { inAskedOrder } from '../../../pipelines/retrieval/where-asked.js';
import { extractSaid, factsSaid } from '../../helpers/extract-said.js';
import { storedFact } from '../../helpers/stored-fact.js';

/** Tuesday 1 December 2026, 12:00 UTC. */
const TUESDAY = '2026-12-01T12:00:00.000Z';

const facts = (text: string, time = TUESDAY): Promise<ExtractedFact[]> => factsSaid(text, time, ['sol', 'Sol'], ['ana', 'Ana']);

function said(subjectId: string, value: string, time: string, validUntil: string | null, validFrom = time, slot = STAY_SLOT): NewFact {
  return {
    content: `Sol ${slot} ${value}`, speakerId: subjectId, addresseeIds: [], subjectId, kind: 'profile', slot, value, time,
    referIds: ['u_1'], validFrom, supersedes: null, confidence: 0.9, sessionId: 's_1', source: 'test/1', validUntil,
  };
}

describe('rules 30: a stay said ahead holds from its start', () => {
  test('the version is 30', () => {
    assert.ok(EMBEDDED_RULES_VERSION >= 30);
  });

  test('beside the plan, a staying_in memory with the stay\'s start and end; no profile update now', async () => {
    const cases: Array<[string, string, string, string]> = [
      ["Next month I'm in Tokyo for two weeks.", 'Tokyo', '2027-01-01T00:00:00.000Z', '2027-01-15T00:00:00.000Z'],
      ["I'll be in Oslo for ten days from Monday.", 'Oslo', '2026-12-07T00:00:00.000Z', '2026-12-17T00:00:00.000Z'],
      ["We're in Brighton this weekend.", 'Brighton', '2026-12-05T00:00:00.000Z', '2026-12-07T00:00:00.000Z'],
      ["I'm in Vienna next week.", 'Vienna', '2026-12-07T00:00:00.000Z', '2026-12-14T00:00:00.000Z'],
    ];
    for (const [text, place, start, end] of cases) {
      const fs = await facts(text);
      const stay = fs.find((f) => f.slot === STAY_SLOT);
      assert.equal(stay?.value, place, text);
      assert.equal(stay?.validFrom, start, text);
      assert.equal(stay?.validUntil, end, text);
      assert.equal(stay?.content, `Sol is staying in ${place}`, text);
      assert.equal(fs.find((f) => f.kind === 'plan')?.content, `Sol will be in ${place}`, `the plan stays: ${text}`);
    }
    const r = await extractSaid("Next month I'm in Tokyo for two weeks.", TUESDAY, ['sol', 'Sol'], ['ana', 'Ana']);
    assert.deepEqual(r.profileUpdates, [], 'the attribute is not set on the day it is said');
  });

  test('a stay that holds as said has no start of its own; one ahead with no end said, a question, another person: none', async () => {
    assert.equal((await facts("I'm staying in Madrid for two weeks.")).find((f) => f.slot === STAY_SLOT)?.validFrom, undefined);
    for (const text of ["I'll be in Paris from Monday.", 'Are you in Madrid next week?', 'My sister is in Berlin next week.', 'I might go to Paris next month.']) {
      assert.ok(!(await facts(text)).some((f) => f.slot === STAY_SLOT), text);
    }
  });

  test('the attribute: none until the start, the stay from it, none after its end, the home throughout', async () => {
    const db = openDatabase(':memory:');
    const graph = new SqliteGraphStore(db);
    const memory = new SqliteMemoryStore(db);
    const p = await graph.createParticipant('t', { name: 'Sol' });
    await memory.addFacts('t', [
      said(p.id, 'Lisbon', '2026-11-01T10:00:00.000Z', null, '2026-11-01T10:00:00.000Z', 'lives_in'),
      said(p.id, 'Nice', TUESDAY, '2026-12-04T12:00:00.000Z'),
      said(p.id, 'Tokyo', TUESDAY, '2027-01-15T00:00:00.000Z', '2027-01-01T00:00:00.000Z'),
    ]);
    // Worked out once, when said; nothing runs after.
    await rederiveAttributes(graph, memory, 't', [{ participantId: p.id, slot: STAY_SLOT }, { participantId: p.id, slot: 'lives_in' }], TUESDAY);
    const stored = (await graph.getParticipant('t', p.id))!.attributes;
    const at = (t: string): unknown => shownAttributes(stored, t)[STAY_SLOT];
    assert.equal(at('2026-12-02T00:00:00.000Z'), 'Nice');
    assert.equal(at('2026-12-20T00:00:00.000Z'), undefined);
    assert.equal(at('2027-01-05T00:00:00.000Z'), 'Tokyo');
    assert.equal(at('2027-01-15T00:00:00.000Z'), undefined, 'the end is exclusive');
    assert.equal(shownAttributes(stored, '2027-01-05T00:00:00.000Z').lives_in, 'Lisbon');
    // Worked out after Nice ended, before Tokyo: no value now, the step that begins Tokyo kept.
    await rederiveAttributes(graph, memory, 't', [{ participantId: p.id, slot: STAY_SLOT }], '2026-12-20T00:00:00.000Z');
    const later = (await graph.getParticipant('t', p.id))!.attributes;
    assert.equal(later[STAY_SLOT], undefined);
    assert.equal(shownAttributes(later, '2026-12-21T00:00:00.000Z')[STAY_SLOT], undefined);
    assert.equal(shownAttributes(later, '2027-01-02T00:00:00.000Z')[STAY_SLOT], 'Tokyo');
  });

  test('withDerived keeps the steps of a value none holds now; with none, the record goes', () => {
    const steps = [{ from: '2027-01-01T00:00:00.000Z', value: 'Tokyo' }, { from: '2027-01-15T00:00:00.000Z', value: null }];
    const a = withDerived({ lives_in: 'Lisbon' }, STAY_SLOT, null, steps);
    assert.deepEqual(shownAttributes(a, '2026-12-20T00:00:00.000Z'), { lives_in: 'Lisbon' });
    assert.deepEqual(shownAttributes(a, '2027-01-02T00:00:00.000Z'), { lives_in: 'Lisbon', staying_in: 'Tokyo' });
    assert.ok(!(DERIVED_STEPS in withDerived(a, STAY_SLOT, null, [])));
  });

  test('a stay ahead replaces nothing: an UPDATE of the stay now becomes an ADD', () => {
    const nice = { fact: { id: 'f_nice', slot: STAY_SLOT, validUntil: '2026-12-04T12:00:00.000Z' } as Fact, score: 0.9 };
    assert.deepEqual(decideWithStays({ op: 'UPDATE', targetId: 'f_nice' }, '2027-01-15T00:00:00.000Z', [nice], true), { op: 'ADD' });
    assert.deepEqual(decideWithStays({ op: 'UPDATE', targetId: 'f_nice' }, '2027-01-15T00:00:00.000Z', [nice]), { op: 'UPDATE', targetId: 'f_nice' });
  });

  test('"where is Sol now?" before the stay begins: the stay ahead is no present value', () => {
    const f = (id: string, value: string, validFrom: string, validUntil: string | null, slot = 'lives_in'): Fact => storedFact(TUESDAY, {
      id, content: value, speakerId: 'sol', subjectId: 'sol', kind: 'profile', layer: 'profile', slot, value, validFrom, validUntil, confidence: 1, source: 't',
    });
    const ranked = [
      { kind: 'fact', score: 2, f: f('home', 'Lisbon', '2026-11-01T00:00:00.000Z', null) },
      { kind: 'fact', score: 1, f: f('tokyo', 'Tokyo', '2027-01-01T00:00:00.000Z', '2027-01-15T00:00:00.000Z', STAY_SLOT) },
    ];
    assert.deepEqual(inAskedOrder(ranked, 'present', '2026-12-20T00:00:00.000Z').map((c) => c.f.id), ['home', 'tokyo']);
    assert.deepEqual(inAskedOrder(ranked, 'present', '2027-01-05T00:00:00.000Z').map((c) => c.f.id), ['tokyo', 'home']);
  });
});
