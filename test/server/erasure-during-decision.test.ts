import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { drainConsolidation } from '../../pipelines/memory/after-consolidation.js';
import { RuleDecider, type DecisionInput } from '../../pipelines/memory/decide.js';
import { ParleyClient } from '../../clients/typescript/src/index.js';
import { sqliteRows } from '../helpers/erasure-scan.js';
import { clientFor, startTestApp, type TestApp } from '../helpers/app.js';
import { deployments } from '../helpers/deployments.js';

/*
 * A consolidation job's decision may be an LLM call that takes long. `DELETE /v1/participants/{id}` of the speaker must
 * not wait for it (it waited for the speaker's lock, up to 60 s, then failed OVERLOADED): the job holds that lock only
 * around its writes. The decider here is a TEST DOUBLE standing for a slow LLM: the rule decider, held on the moved
 * home until the test lets it go.
 */

/** A promise with its resolver. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open = (): void => undefined;
  const promise = new Promise<void>((resolve) => { open = resolve; });
  return { promise, open };
}

for (const deployment of deployments('erasure-during-decision')) describe(`an erasure while a job decides, ${deployment.name}`, { skip: deployment.skip }, () => {
  let t: TestApp;
  let api: ParleyClient;
  before(async () => {
    t = await startTestApp(deployment.env);
    api = clientFor(t, deployment.headers);
  });
  after(async () => {
    await t?.close();
    await deployment.cleanup();
  });

  test('the erasure finishes while the decision is held, and the job, let go, writes nothing of the erased person', async () => {
    await api.postUtterances('erase-decide-1', [{ speaker: 'Nora Quill', text: 'I live in Richmond.' }]);
    await drainConsolidation(t.app.stores.queue, 120_000);
    const [home] = (await api.memories({})).filter((m) => /Richmond/.test(m.text));
    assert.ok(home, 'consolidation made a memory of the home');
    const nora = home.subject_id;

    const decide = RuleDecider.prototype.decide;
    const deciding = gate();
    const letGo = gate();
    let held = false;
    RuleDecider.prototype.decide = async function (this: RuleDecider, input: DecisionInput) {
      if (!held && /Zanzibar/.test(input.fact.content)) {
        held = true;
        deciding.open();
        await letGo.promise;
      }
      return decide.call(this, input);
    };
    try {
      await api.postUtterances('erase-decide-2', [{ speaker: 'Nora Quill', text: 'I moved to Zanzibar.' }]);
      await deciding.promise;
      // Answered while the job's decision is still held.
      const erased = await api.eraseParticipant(nora);
      assert.equal(erased.erased_utterances, 2, JSON.stringify(erased));
      letGo.open();
      await drainConsolidation(t.app.stores.queue, 120_000);
    } finally {
      letGo.open();
      RuleDecider.prototype.decide = decide;
    }
    assert.deepEqual((await api.memories({ include_history: true })).filter((m) => /Richmond|Zanzibar/.test(m.text)), []);
    const rows = deployment.networked ? [] : sqliteRows(t.app.stores.sqlite);
    const left = rows.filter((r) => r.cells.some((c) => /Zanzibar|Richmond|Nora Quill/.test(c)));
    assert.deepEqual(left.map((r) => r.where), [], 'nothing of the erased person is stored');
  });
});
