import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { drainConsolidation } from '../../pipelines/memory/after-consolidation.js';
import { RuleDecider, type DecisionInput } from '../../pipelines/memory/decide.js';
import { sqliteRows } from '../helpers/erasure-scan.js';
import { deploymentAppForSuite } from '../helpers/app.js';
import { gate } from '../helpers/held-open.js';
import { deployments } from '../helpers/deployments.js';

/*
 * A consolidation job's decision may be an LLM call that takes long. `DELETE /v1/participants/{id}` of the speaker must
 * not wait for it (it waited for the speaker's lock, up to 60 s, then failed OVERLOADED): the job holds that lock only
 * around its writes. The decider here is a TEST DOUBLE standing for a slow LLM: the rule decider, held on the moved
 * home until the test lets it go.
 */

for (const deployment of deployments('erasure-during-decision')) describe(`an erasure while a job decides, ${deployment.name}`, { skip: deployment.skip }, () => {
  const suite = deploymentAppForSuite(deployment);
  const { t } = suite;

  test('the erasure finishes while the decision is held, and the job, let go, writes nothing of the erased person', async () => {
    await suite.api.postUtterances('erase-decide-1', [{ speaker: 'Nora Quill', text: 'I live in Richmond.' }]);
    await drainConsolidation(t.app.stores.queue, 120_000);
    const [home] = (await suite.api.memories({})).filter((m) => /Richmond/.test(m.text));
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
      await suite.api.postUtterances('erase-decide-2', [{ speaker: 'Nora Quill', text: 'I moved to Zanzibar.' }]);
      await deciding.promise;
      // Answered while the job's decision is still held.
      const erased = await suite.api.eraseParticipant(nora);
      assert.equal(erased.erased_utterances, 2, JSON.stringify(erased));
      letGo.open();
      await drainConsolidation(t.app.stores.queue, 120_000);
    } finally {
      letGo.open();
      RuleDecider.prototype.decide = decide;
    }
    assert.deepEqual((await suite.api.memories({ include_history: true })).filter((m) => /Richmond|Zanzibar/.test(m.text)), []);
    const rows = deployment.networked ? [] : sqliteRows(t.app.stores.sqlite);
    const left = rows.filter((r) => r.cells.some((c) => /Zanzibar|Richmond|Nora Quill/.test(c)));
    assert.deepEqual(left.map((r) => r.where), [], 'nothing of the erased person is stored');
  });
});
