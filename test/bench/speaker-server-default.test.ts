import assert from 'node:assert/strict';
import { test } from 'node:test';
import { serverRunOptions, speakerSettingsOf } from '../../bench/lib/speaker-server-default.js';
import { chosenCentroid } from '../../pipelines/speaker/centroid-update.js';
import { decisionFor } from '../../pipelines/speaker/speaker-decision.js';
import { calibratedMerge, sessionRulesFor } from '../../pipelines/speaker/session-rules.js';
import { thresholdsFor } from '../../pipelines/speaker/speaker-thresholds.js';
import { chosenPooledClaim } from '../../pipelines/speaker/stored-claim.js';

const MODEL = 'stats-lda-v2';

test('no PARLEY_SPEAKER_* set: the calibrated decision, centroid prototypes, the pooled claim and the cosine merge at mergeTau', () => {
  const o = serverRunOptions(speakerSettingsOf({}), MODEL);
  assert.deepEqual(o.decision, decisionFor(MODEL));
  assert.ok(o.decision);
  assert.ok(o.centroid);
  assert.deepEqual(o.centroid, chosenCentroid(MODEL));
  assert.ok(o.pooledClaim);
  assert.deepEqual(o.pooledClaim, chosenPooledClaim(MODEL));
  assert.equal(o.mergeCalibrated, null);
  assert.equal(o.mergeTau, thresholdsFor(MODEL).mergeTau);
  assert.equal(o.stay, null);
  assert.equal(o.minUtterances, 1);
});

test('without the calibrated decision neither centroid prototypes nor pooled claims run, as in the server', () => {
  const o = serverRunOptions(speakerSettingsOf({ PARLEY_SPEAKER_DECISION: 'thresholds' }), MODEL);
  assert.equal(o.decision, null);
  assert.equal(o.centroid, null);
  assert.equal(o.pooledClaim, null);
});

test('the environment selects the options: centroid and claim off, calibrated merge, online stay prior, a merge threshold override', () => {
  const o = serverRunOptions(speakerSettingsOf({
    PARLEY_SPEAKER_CENTROID: 'false', PARLEY_SPEAKER_POOLED_CLAIM: 'false', PARLEY_SPEAKER_MERGE_RULE: 'calibrated',
    PARLEY_SPEAKER_STAY_PRIOR: 'online', PARLEY_SPEAKER_MERGE_TAU: '0.8', PARLEY_SPEAKER_MERGE_MIN_UTTERANCES: '2',
  }), MODEL);
  const rules = sessionRulesFor(MODEL)!;
  assert.equal(o.centroid, null);
  assert.equal(o.pooledClaim, null);
  assert.deepEqual(o.mergeCalibrated, calibratedMerge(rules.merge));
  assert.deepEqual(o.stay, rules.stay);
  assert.equal(o.mergeTau, 0.8);
  assert.equal(o.minUtterances, 2);
});

test('settings the bench does not model and invalid values are refused with the variable named', () => {
  assert.throws(() => serverRunOptions(speakerSettingsOf({ PARLEY_SPEAKER_ABSORB: 'true' }), MODEL), /does not model PARLEY_SPEAKER_ABSORB/);
  assert.throws(() => serverRunOptions(speakerSettingsOf({ PARLEY_SPEAKER_REVISE: 'true', PARLEY_SPEAKER_RECLUSTER: 'true' }), MODEL), /PARLEY_SPEAKER_REVISE, PARLEY_SPEAKER_RECLUSTER/);
  assert.throws(() => speakerSettingsOf({ PARLEY_SPEAKER_CENTROID: 'yes' }), /invalid speaker settings: PARLEY_SPEAKER_CENTROID/);
});
