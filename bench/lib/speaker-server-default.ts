/**
 * The tracker options the server runs a session with, as the session benches model them (`RunOptions`), built from the
 * server's speaker settings (`server/config/speaker.ts`) the way `server/ws/session-speakers.ts` and
 * `server/plugins/models.ts` build the tracker and the end-of-session passes: bench/speaker-meeting.ts `--server-default`
 * measures what ships (or what the environment's `PARLEY_SPEAKER_*` selects) instead of a hand-written list.
 *
 * Not modelled, so refused: first-turn revision, small-id absorption and utterance re-clustering (each off by default).
 * Band offsets are not applied: the benches' phone band is simulated on 16 kHz audio, which the server hears as a
 * wideband stream (offsets apply to 8 kHz phone turns).
 */
import { EnvReader, type Env } from '../../server/config/env-reader.js';
import { readSpeakerSettings, type SpeakerSettings } from '../../server/config/speaker.js';
import { chosenCentroid } from '../../pipelines/speaker/centroid-update.js';
import { decisionFor } from '../../pipelines/speaker/speaker-decision.js';
import { calibratedMerge, sessionRulesFor } from '../../pipelines/speaker/session-rules.js';
import { SHORT_TURN_MS, thresholdsFor } from '../../pipelines/speaker/speaker-thresholds.js';
import { chosenPooledClaim } from '../../pipelines/speaker/stored-claim.js';
import type { RunOptions } from './speaker-sessions.js';

/** The settings of the session passes that `serverRunOptions` reads. */
export type SessionSpeakerSettings = Pick<SpeakerSettings,
  'speakerThresholds' | 'speakerMergeMinUtterances' | 'speakerDecision' | 'speakerMergeRule' | 'speakerStayPrior' | 'speakerRevise'
  | 'speakerAbsorb' | 'speakerRecluster' | 'speakerCentroid' | 'speakerPooledClaim'>;

/** The speaker settings of `env` (the server's defaults for an empty one); throws on an invalid value. */
export function speakerSettingsOf(env: Env): SpeakerSettings {
  const r = new EnvReader(env);
  const settings = readSpeakerSettings(r);
  if (r.problems.length > 0) throw new Error(`invalid speaker settings: ${r.problems.join('; ')}`);
  return settings;
}

/**
 * The options of a session run by the server with `settings` on embedder `modelId`: thresholds with their overrides,
 * the calibrated decision (when chosen and present), the stay prior, centroid prototypes and the pooled end-of-session
 * claim (each only with the decision, as the server), the end-of-session merge by the calibrated rule or average linkage
 * ≥ mergeTau, every id with `speakerMergeMinUtterances` utterances taking part. Throws on a setting it does not model.
 */
export function serverRunOptions(settings: SessionSpeakerSettings, modelId: string): RunOptions {
  const off: string[] = [];
  if (settings.speakerRevise) off.push('PARLEY_SPEAKER_REVISE');
  if (settings.speakerAbsorb) off.push('PARLEY_SPEAKER_ABSORB');
  if (settings.speakerRecluster) off.push('PARLEY_SPEAKER_RECLUSTER');
  if (off.length > 0) throw new Error(`serverRunOptions does not model ${off.join(', ')}: set it to false`);
  const t = { ...thresholdsFor(modelId), ...settings.speakerThresholds };
  const decision = settings.speakerDecision === 'calibrated' ? decisionFor(modelId) : null;
  const rules = sessionRulesFor(modelId);
  const calibrated = settings.speakerMergeRule === 'calibrated' && rules ? calibratedMerge(rules.merge) : null;
  return {
    thresholds: t,
    mergeTau: t.mergeTau,
    minUtterances: settings.speakerMergeMinUtterances,
    shortSeconds: SHORT_TURN_MS / 1000,
    decision,
    mergeCalibrated: calibrated,
    stay: decision && settings.speakerStayPrior === 'online' ? (rules?.stay ?? null) : null,
    centroid: decision && settings.speakerCentroid ? chosenCentroid(modelId) : null,
    pooledClaim: decision && settings.speakerPooledClaim ? chosenPooledClaim(modelId) : null,
  };
}
