/** Speaker settings: the embedder, voiceprint consent, identity thresholds and decisions, audio retention. */
import type { SpeakerThresholds } from '../../pipelines/speaker/speaker-thresholds.js';
import type { EnvReader } from './env-reader.js';

/** The values of `PARLEY_SPEAKER_EMBEDDER`. */
export const SPEAKER_EMBEDDERS = ['stats-lda', 'wespeaker', 'moonshine-l1'] as const;

/** How voices are told apart and remembered, and how long their audio is kept. */
export interface SpeakerSettings {
  /**
   * `PARLEY_SPEAKER_EMBEDDER`: `stats-lda` (weight-free, default), `wespeaker` (ONNX, `npm run models`) or
   * `moonshine-l1` (Moonshine tiny's encoder cut after its first layer, with a shipped projection; needs
   * `npm run models -- fetch moonshine-tiny`).
   */
  speakerEmbedder: (typeof SPEAKER_EMBEDDERS)[number];
  /**
   * `PARLEY_VOICEPRINTS`: which tenants consent to stored voiceprints: `all`, `none`, or a comma list.
   * Without consent, speaker identity stays within the session.
   */
  voiceprintConsent: 'all' | 'none' | string[];
  /**
   * Speaker-identity thresholds overriding the embedder's calibrated ones: `PARLEY_SPEAKER_TAU_MATCH`,
   * `PARLEY_SPEAKER_TAU_UPDATE`, `PARLEY_SPEAKER_ALPHA`, `PARLEY_SPEAKER_MERGE_TAU`,
   * `PARLEY_SPEAKER_ASKER_HIGH`, `PARLEY_SPEAKER_ASKER_LOW`, `PARLEY_SPEAKER_ASKER_MARGIN` (cosines).
   */
  speakerThresholds: Partial<SpeakerThresholds>;
  /** `PARLEY_SPEAKER_MERGE_MIN_UTTERANCES`: utterances each id needs before an end-of-session merge (default 1: every id). */
  speakerMergeMinUtterances: number;
  /**
   * `PARLEY_SPEAKER_DECISION`: how the tracker attributes a turn: `calibrated` (default; calibrated LLR with
   * priors for the voice just heard and this session's ids, where the embedder has a calibrated decision,
   * else thresholds) or `thresholds` (best cosine ≥ tauMatch, else a new id).
   */
  speakerDecision: 'calibrated' | 'thresholds';
  /**
   * `PARLEY_SPEAKER_MERGE_RULE`: when the end-of-session merge joins two groups of a session's ids:
   * `calibrated` (calibrated same-speaker LLR of their average linkage above a threshold derived from
   * stated priors, where the embedder has session rules) or `cosine` (average linkage ≥ mergeTau).
   */
  speakerMergeRule: 'calibrated' | 'cosine';
  /**
   * `PARLEY_SPEAKER_STAY_PRIOR`: the calibrated decision's prior for the voice just heard: `online`
   * (estimated per session from its decided turns, where the embedder's session rules carry a stay
   * prior) or `fixed` (the decision's constant).
   */
  speakerStayPrior: 'online' | 'fixed';
  /**
   * `PARLEY_SPEAKER_REVISE`: when a turn founds a new voice id, move the turns just before it that the new
   * voice likely spoke from the voice heard before (the first-turn revision chosen for the embedder,
   * `pipelines/speaker/params/<model>-revision.json`, with the calibrated decision); default false.
   */
  speakerRevise: boolean;
  /**
   * `PARLEY_SPEAKER_ABSORB`: with the cosine end-of-session merge, small ids new in a session that mostly stayed with
   * the voice just heard join another id at a lower linkage (the setting chosen for the embedder,
   * `pipelines/speaker/params/<model>-absorb.json`, `small-id-absorption.ts`); default false (a wrong join cannot be undone).
   */
  speakerAbsorb: boolean;
  /**
   * `PARLEY_SPEAKER_RECLUSTER`: after the end-of-session merge, re-cluster the session's utterances with the calibrated
   * merge rule and move each to the id of its cluster, splitting an id that held two voices (`utterance-reclustering.ts`,
   * the setting chosen on training speakers); needs the embedder's session rules. Default false (not adopted: held out
   * it raised the share of turns under another speaker's id; docs/BENCHMARKS.md, "speech20").
   */
  speakerRecluster: boolean;
  /**
   * `PARLEY_SPEAKER_CENTROID`: with the calibrated decision, every matched turn moves its id's prototype as a centroid
   * weighted by voiced seconds (the setting chosen for the embedder, `pipelines/speaker/params/<model>-centroid.json`,
   * `centroid-update.ts`); false: the EMA at alpha, only at ≥ tauUpdate. Default true.
   */
  speakerCentroid: boolean;
  /**
   * `PARLEY_SPEAKER_POOLED_CLAIM`: with the calibrated decision, at the end of a session, after the merge, an id new in it
   * with enough voiced speech takes over a voiceprint stored before it (an id not heard in the session) when its pooled
   * speech clearly is that voice (the setting chosen for the embedder, `pipelines/speaker/params/<model>-pooled-claim.json`,
   * `stored-claim.ts`). Default true (docs/BENCHMARKS.md, "speech21"); false: only turns claim stored voiceprints.
   */
  speakerPooledClaim: boolean;
  /**
   * `PARLEY_SPEAKER_BAND_OFFSETS`: with the calibrated decision, the higher bar for phone turns and matches across
   * bands (`pipelines/speaker/voice-bands.ts`): `calibrated` (default, where measured for the embedder) or `none`.
   */
  speakerBandOffsets: 'calibrated' | 'none';
  /** `PARLEY_AUDIO_RETENTION_DAYS`: how long utterance audio spans are kept; 0 keeps none. */
  audioRetentionDays: number;
}

/** The speaker settings. */
export function readSpeakerSettings(r: EnvReader): SpeakerSettings {
  return {
    speakerEmbedder: r.oneOf('PARLEY_SPEAKER_EMBEDDER', SPEAKER_EMBEDDERS, 'stats-lda'),
    voiceprintConsent: parseConsent(r.string('PARLEY_VOICEPRINTS', 'all')),
    speakerThresholds: speakerThresholdOverrides(r),
    speakerMergeMinUtterances: r.int('PARLEY_SPEAKER_MERGE_MIN_UTTERANCES', 1, 1, 1000),
    speakerDecision: r.oneOf('PARLEY_SPEAKER_DECISION', ['calibrated', 'thresholds'] as const, 'calibrated'),
    speakerMergeRule: r.oneOf('PARLEY_SPEAKER_MERGE_RULE', ['calibrated', 'cosine'] as const, 'cosine'),
    speakerStayPrior: r.oneOf('PARLEY_SPEAKER_STAY_PRIOR', ['online', 'fixed'] as const, 'fixed'),
    speakerRevise: r.oneOf('PARLEY_SPEAKER_REVISE', ['true', 'false'] as const, 'false') === 'true',
    speakerAbsorb: r.oneOf('PARLEY_SPEAKER_ABSORB', ['true', 'false'] as const, 'false') === 'true',
    speakerRecluster: r.oneOf('PARLEY_SPEAKER_RECLUSTER', ['true', 'false'] as const, 'false') === 'true',
    speakerCentroid: r.oneOf('PARLEY_SPEAKER_CENTROID', ['true', 'false'] as const, 'true') === 'true',
    speakerPooledClaim: r.oneOf('PARLEY_SPEAKER_POOLED_CLAIM', ['true', 'false'] as const, 'true') === 'true',
    speakerBandOffsets: r.oneOf('PARLEY_SPEAKER_BAND_OFFSETS', ['calibrated', 'none'] as const, 'calibrated'),
    audioRetentionDays: r.int('PARLEY_AUDIO_RETENTION_DAYS', 30, 0, 36500),
  };
}

const THRESHOLD_ENV: Record<keyof SpeakerThresholds, string> = {
  tauMatch: 'PARLEY_SPEAKER_TAU_MATCH',
  tauUpdate: 'PARLEY_SPEAKER_TAU_UPDATE',
  alpha: 'PARLEY_SPEAKER_ALPHA',
  mergeTau: 'PARLEY_SPEAKER_MERGE_TAU',
  askerHigh: 'PARLEY_SPEAKER_ASKER_HIGH',
  askerLow: 'PARLEY_SPEAKER_ASKER_LOW',
  askerMargin: 'PARLEY_SPEAKER_ASKER_MARGIN',
};

function speakerThresholdOverrides(r: EnvReader): Partial<SpeakerThresholds> {
  const out: Partial<SpeakerThresholds> = {};
  for (const [key, name] of Object.entries(THRESHOLD_ENV) as [keyof SpeakerThresholds, string][]) {
    const value = r.number(name, Number.NaN, -1, 1);
    if (!Number.isNaN(value)) out[key] = value;
  }
  return out;
}

function parseConsent(raw: string): SpeakerSettings['voiceprintConsent'] {
  if (raw === 'all' || raw === 'none') return raw;
  return raw.split(',').map((t) => t.trim()).filter(Boolean);
}

/** True when `tenant` consents to stored voiceprints. */
export function voiceprintsAllowed(config: Pick<SpeakerSettings, 'voiceprintConsent'>, tenant: string): boolean {
  const c = config.voiceprintConsent;
  return c === 'all' || (Array.isArray(c) && c.includes(tenant));
}
