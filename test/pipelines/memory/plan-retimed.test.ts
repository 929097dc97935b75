/**
 * A change of plan that tells only a new time (fix9, issue #16 F3, a home-robot trial): "we're going to grandma's on
 * Saturday", then "change of plan, we're going on Sunday now", "we moved it to Sunday" or "it's Sunday, not Saturday".
 * Before, the Saturday plan stayed current (the day was read as today, or as last Sunday, or no fact was made) and
 * ranked first for "when are we going to grandma's?".
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import type { JobQueue } from '../../../graph/job-queue.js';
import { InteractionIngest } from '../../../pipelines/interaction/ingest.js';
import type { ConsolidationJob } from '../../../pipelines/memory/consolidate.js';
import { settles } from '../../../pipelines/memory/changes.js';
import { findDates } from '../../../pipelines/memory/relative-date.js';
import { Retriever } from '../../../pipelines/retrieval/retriever.js';
import { factsSaid } from '../../helpers/extract-said.js';
import { embeddedMemory, type EmbeddedMemory } from '../../helpers/memory-fixture.js';

const T = '2026-12-01T10:00:00.000Z'; // a Tuesday: Saturday is the 5th, Sunday the 6th

describe('a plan moved to another day', () => {
  test('the new day is read ahead, and the sentence settles a plan as an alternative', async () => {
    assert.deepEqual(findDates("We're going on Sunday now.", T).map((d) => d.date), ['2026-12-06'], '"Sunday now" is Sunday, not today');
    for (const s of ['Change of plan, we are going on Sunday now.', 'We moved it to Sunday.', "It's Sunday, not Saturday.",
      "I've pushed the dentist back to Friday.", 'Change of plan: we are doing the picnic on Sunday.']) {
      assert.equal(settles(s), 'instead', s);
    }
    for (const s of ['We moved the sofa to the window.', "I'm going to bed now.", 'Is it Sunday, not Saturday?', 'I am free on Sunday now.',
      "We're free on Sunday now.", 'The shop is closed on Sunday, not Saturday.']) assert.equal(settles(s), null, s);
    const moved = await factsSaid('We moved it to Sunday.', T, ['sarah', 'Sarah'], ['tom', 'Tom']);
    assert.deepEqual(moved.map((f) => [f.settles, f.eventTime]), [['instead', '2026-12-06']], 'Sunday to come, not last Sunday');
  });

  describe('over the ingest and consolidation jobs', () => {
    let m: EmbeddedMemory;
    before(() => {
      m = embeddedMemory();
    });
    after(async () => {
      await m.close();
    });

    /** The turns said in order (one minute apart), each consolidated; the current facts' texts and the history's. */
    const run = async (tenant: string, turns: Array<[speaker: string, text: string]>): Promise<{ current: string[]; ended: string[] }> => {
      const queued: ConsolidationJob[] = [];
      // A queue double: the jobs are run below, in order, as a worker would.
      const queue = { enqueue: async (_name: string, data: ConsolidationJob) => { queued.push(data); return `j${queued.length}`; } } as unknown as JobQueue;
      const ingest = new InteractionIngest({ graph: m.graph, lexical: m.lexical, queue, logger: pino({ level: 'silent' }) });
      await m.graph.openSession(tenant, 's1', T);
      for (const [k, [speaker, text]] of turns.entries()) {
        await ingest.ingest(tenant, 's1', [{ speaker, text, time: `2026-12-01T10:0${k + 1}:00.000Z` }]);
        for (const job of queued.splice(0)) await m.consolidate(tenant, job.sessionId, job.utteranceId);
      }
      const facts = await m.memory.listFacts(tenant, { includeHistory: true });
      return { current: facts.filter((f) => f.validTo === null).map((f) => f.content), ended: facts.filter((f) => f.validTo !== null).map((f) => f.content) };
    };

    for (const [n, change] of ['Change of plan, we are going on Sunday now.', 'We moved it to Sunday.', "It's Sunday, not Saturday."].entries()) {
      test(`"${change}" ends the Saturday plan and writes it again for Sunday`, async () => {
        const { current, ended } = await run(`t-retimed-${n}`, [['Sarah', "We are going to grandma's on Saturday."], ['Tom', change]]);
        assert.deepEqual(ended, ["Sarah and others are going to grandma's on Saturday 5 December 2026"]);
        assert.deepEqual(current, ["Sarah and others are going to grandma's on Sunday 6 December 2026"]);
        // The end-of-turn memories for the question lead with Sunday, not the Saturday plan.
        const asked = await new Retriever(m, m.entities, m.embedder, { minPool: 1 })
          .retrieve({ tenant: `t-retimed-${n}`, text: "When are we going to grandma's?", k: 5 });
        const first = asked.items.find((i) => /grandma's on \w+day/.test(i.text));
        assert.match(first?.text ?? '', /Sunday/, JSON.stringify(asked.items.map((i) => i.text)));
      });
    }

    test('"…on Sunday instead of Saturday" ends it too; a plan of another day moves nothing', async () => {
      const instead = await run('t-retimed-instead', [['Sarah', "We are going to grandma's on Saturday."],
        ['Tom', "Change of plan. We are going to grandma's on Sunday instead of Saturday."]]);
      assert.equal(instead.ended.length, 1);
      assert.match(instead.current.join(' | '), /grandma's on Sunday 6 December 2026/);
      const other = await run('t-retimed-other', [['Sarah', "We are going to grandma's on Saturday."], ['Tom', "We're going to the zoo on Sunday."]]);
      assert.deepEqual(other.ended, [], 'no change of plan told');
      const free = await run('t-retimed-free', [['Sarah', "We are going to grandma's on Saturday."], ['Tom', 'I am free on Sunday now.']]);
      assert.deepEqual(free.ended, [], 'a state on a day moves no plan');
    });
  });
});
