import { ParleyError } from '../../graph/core/errors.js';
import { afterMerges, sessionEvidence, type SessionEvidence } from '../../pipelines/speaker/session-cannot-links.js';
import { clusterSessionIds, sessionIdsFrom, type SessionClusterOptions } from '../../pipelines/speaker/session-clustering.js';
import { pooledClaims } from '../../pipelines/speaker/stored-claim.js';
import { calibratedMerge } from '../../pipelines/speaker/session-rules.js';
import { absorptionFor } from '../../pipelines/speaker/small-id-absorption.js';
import { SHORT_TURN_MS } from '../../pipelines/speaker/speaker-thresholds.js';
import { SpeakerTracker, type NewcomerGuard, type RevisedTurn } from '../../pipelines/speaker/speaker-tracker.js';
import { NEWCOMER_MARGIN } from '../../pipelines/speaker/candidate-pick.js';
import { bandOffsetsFor, mergeBandOffset, type BandOffsets, type VoiceBand } from '../../pipelines/speaker/voice-bands.js';
import { MAX_HELD_TURNS, type FirstTurnRevision } from '../../pipelines/speaker/first-turn-revision.js';
import { moveUtterance } from '../../pipelines/interaction/move-utterance.js';
import { voiceprintsAllowed } from '../config.js';
import type { VoiceTurnsDeps, VoiceTurnsHost } from './voice-turns-host.js';
import { applyMerge } from '../../pipelines/interaction/merge-participants.js';
import { MAX_RECLUSTER_TURNS, planReclustering, type TurnEvidence } from './session-reclustering.js';
import { erasedIdKey } from '../../graph/retired-ids.js';

/** Who spoke a turn: the participant, how sure the match is (0 to 1), and whether the voice is new. */
export interface SpeakerAssignment {
  participantId: string;
  confidence: number;
  isNew: boolean;
  /** The tracker's index of the turn (absent when the audio could not be embedded). */
  turn?: number;
  /** With `PARLEY_SPEAKER_REVISE`, on a founding turn: earlier turns the revision moved to the new id. */
  revised?: RevisedTurn[];
}

/**
 * Who speaks in one live session's audio: each stored turn's voice re-identified against the tenant's
 * voiceprints (a speaker tracker opened on the first turn), and at the end of the session the merge of
 * fragmented voice ids.
 */
export class SessionSpeakers {
  private tracker: Promise<SpeakerTracker> | null = null;
  private lastVoice: string | null = null;
  /**
   * 'narrowband' once any turn of the session was heard through the phone band (a reconnect may change the stream's
   * format, so the merge charges the phone offset whenever phone turns are among those it joins); null before the first.
   */
  private band: VoiceBand | null = null;
  /** With the revision on: the tracker's turn index → the utterance stored for it (the newest turns). */
  private readonly utterances = new Map<number, string>();
  /** With `PARLEY_SPEAKER_RECLUSTER`: the tracker's turn index → its embedding, voiced seconds and stored utterance. */
  private readonly evidence = new Map<number, TurnEvidence>();

  constructor(
    private readonly session: Pick<VoiceTurnsHost, 'tenant' | 'id' | 'log' | 'send' | 'participantForNewVoice' | 'participantRetired' | 'idsRetired' | 'pendingExternalId' | 'agents'>,
    private readonly deps: VoiceTurnsDeps,
  ) {}

  /** The utterance of a turn `identify` attributed is stored: kept for the revision (while it is on). */
  stored(assigned: SpeakerAssignment, utteranceId: string): void {
    if (assigned.turn === undefined) return;
    const evidence = this.evidence.get(assigned.turn);
    if (evidence) evidence.utteranceId = utteranceId;
    if (!this.revision()) return;
    this.utterances.set(assigned.turn, utteranceId);
    for (const turn of this.utterances.keys()) if (turn <= assigned.turn - MAX_HELD_TURNS) this.utterances.delete(turn);
  }

  /**
   * Store what the first-turn revision decided on a founding turn (`PARLEY_SPEAKER_REVISE`): each earlier
   * turn it moved is given to the new id (`moveUtterance`) and the client is sent `speaker.revised`. A move
   * the store refuses changes nothing stored and is logged; the others still happen. A stored move is always
   * told, even when its re-indexing could not be queued (logged).
   */
  async revise(assigned: SpeakerAssignment): Promise<void> {
    const { tenant } = this.session;
    for (const r of assigned.revised ?? []) {
      const utteranceId = this.utterances.get(r.turn);
      if (!utteranceId) {
        this.session.log.warn({ turn: r.turn }, 'a revised turn has no stored utterance: not moved');
        continue;
      }
      await this.moveTurn(tenant, utteranceId, r.into);
    }
  }

  /** Give a stored utterance to `into` and tell the client (`speaker.revised`); a refusal is logged and changes nothing. */
  private async moveTurn(tenant: string, utteranceId: string, into: string): Promise<void> {
    try {
      const moved = await moveUtterance(this.deps.stores, tenant, utteranceId, into);
      if (!moved) return;
      this.session.send('speaker.revised', { utterance_id: moved.utteranceId, from: moved.from, into: moved.into });
      if (moved.reindexError) {
        this.session.log.warn({ err: moved.reindexError.message, utteranceId }, 'a revised turn moved, but its re-indexing could not be queued');
      }
    } catch (err) {
      this.session.log.warn({ err: err instanceof Error ? err.message : String(err), utteranceId }, 'could not give a revised turn to its new speaker');
    }
  }

  /** The first-turn revision the tracker applies: with `PARLEY_SPEAKER_REVISE=true` and the calibrated decision, where the embedder has one. */
  private revision(): FirstTurnRevision | null {
    const { config, models } = this.deps;
    return config.speakerRevise && models.speakerDecision ? (models.speakerRevision ?? null) : null;
  }

  /**
   * End-of-session passes over the session's ids: the conservative merge of fragmented voice ids, the pooled claims of
   * stored voiceprints, then (when on) the utterance re-clustering; merges and claims emit `speaker.merged`. The
   * transcript and participants are read once; each pass sees the cannot-links of the session as the earlier ones left it.
   */
  async merge(): Promise<void> {
    if (!this.tracker) return;
    const tracker = await this.tracker;
    // Average-linkage clustering over every utterance embedding of the session (weighted by voiced seconds); never
    // joined: the session's cannot-links (`session-cannot-links.ts`).
    const ids = sessionIdsFrom(tracker.prototypes(), tracker.sessionStats());
    const read = await this.readEvidence();
    const { rule, logged } = this.mergeRule(tracker);
    const merges = clusterSessionIds(ids, { ...rule, minUtterances: this.deps.config.speakerMergeMinUtterances, cannotLink: read.cannotLink });
    this.session.log.info({ ids: ids.length, merges: merges.length, ...logged }, 'end-of-session speaker merge');
    await this.applyMerges(tracker, merges);
    const merged = afterMerges(read, merges);
    const claims = this.pooledClaims(tracker, merged.cannotLink);
    if (claims.length > 0) this.session.log.info({ claims: claims.length }, 'end-of-session claims of stored voiceprints');
    await this.applyMerges(tracker, claims);
    await this.recluster(tracker, afterMerges(merged, claims));
  }

  /** The session's transcript and the participants heard or addressed in it, read once, as `SessionEvidence`. */
  private async readEvidence(): Promise<SessionEvidence> {
    const { graph } = this.deps.stores;
    const { tenant, id } = this.session;
    const transcript = await graph.getTranscript(tenant, id);
    const heard = [...new Set(transcript.flatMap((u) => [u.speakerId, ...u.addresseeIds]))];
    const people = heard.length > 0 ? await graph.getParticipants(tenant, heard) : [];
    return sessionEvidence(transcript, people);
  }

  /**
   * Apply end-of-session merges to the graph, the client, the tracker, and the ids the session holds of people (its last
   * speaker, agents: what `memory.context`, `participant.identify` and the external id go by).
   */
  private async applyMerges(tracker: SpeakerTracker, merges: { from: string; into: string }[]): Promise<void> {
    const { stores } = this.deps;
    for (const { from, into } of merges) {
      await applyMerge(stores, this.session.tenant, from, into);
      this.session.send('speaker.merged', { from, into });
    }
    if (merges.length > 0) await tracker.applyMerges(merges);
    for (const merge of merges) {
      if (this.lastVoice === merge.from) this.lastVoice = merge.into;
      this.session.idsRetired(merge);
    }
  }

  /**
   * `PARLEY_SPEAKER_RECLUSTER` (off by default, not adopted): after the merge, the session's stored turns clustered
   * afresh (`utterance-reclustering.ts`); each turn whose cluster belongs to another id is moved there (`speaker.revised`),
   * a cluster of a voice no id holds gets a new participant. The tracker's prototypes and stored voiceprints are left as
   * they are.
   */
  private async recluster(tracker: SpeakerTracker, evidence: SessionEvidence): Promise<void> {
    const rules = this.deps.models.speakerSessionRules;
    if (!this.deps.config.speakerRecluster || !rules || this.evidence.size === 0) return;
    const { tenant } = this.session;
    const known = new Set(tracker.prototypes().filter((p) => p.known).map((p) => p.participantId));
    const plan = planReclustering(this.evidence.values(), evidence, known, rules.merge);
    this.session.log.info({ turns: this.evidence.size, moves: plan.moves.length, splits: plan.splits.length }, 'end-of-session speaker re-clustering');
    const created = new Map<string, string>();
    for (const s of plan.splits) created.set(s.label, await this.session.participantForNewVoice());
    for (const m of plan.moves) await this.moveTurn(tenant, m.key, created.get(m.into) ?? m.into);
  }

  /**
   * With `PARLEY_SPEAKER_POOLED_CLAIM=true` and the calibrated decision: the session's new ids that claim a stored
   * voiceprint from their pooled speech (`stored-claim.ts`), as merges into it. The claim pays no band offset: paying a
   * phone turn's offset lost more re-identified callers than wrong ones (docs/BENCHMARKS.md, "speech22").
   */
  private pooledClaims(tracker: SpeakerTracker, cannotLink: Iterable<readonly [string, string]>): { from: string; into: string }[] {
    const { config, models } = this.deps;
    const rule = models.speakerPooledClaim;
    const d = models.speakerDecision;
    if (!config.speakerPooledClaim || !rule || !d) return [];
    return pooledClaims(rule, d.calibration, d.logPriorNew, sessionIdsFrom(tracker.prototypes(), tracker.sessionStats()), tracker.prototypes(), cannotLink);
  }

  /** The band offsets of the calibrated decision, when it is on and they apply; else null. */
  private bandOffsets(): BandOffsets | null {
    const { config, models } = this.deps;
    return models.speakerDecision && config.speakerBandOffsets === 'calibrated' ? bandOffsetsFor(models.speakerEmbedder.modelId) : null;
  }

  /**
   * The merge rule: the calibrated LLR threshold (`PARLEY_SPEAKER_MERGE_RULE=calibrated`, where the embedder
   * has session rules), else average linkage ≥ mergeTau, with small new ids absorbed (`PARLEY_SPEAKER_ABSORB`).
   */
  private mergeRule(tracker: SpeakerTracker): { rule: Pick<SessionClusterOptions, 'linkageTau' | 'calibrated' | 'bandOffset' | 'absorb'>; logged: Record<string, number> } {
    const rules = this.deps.models.speakerSessionRules;
    if (this.deps.config.speakerMergeRule === 'calibrated' && rules) {
      const calibrated = calibratedMerge(rules.merge);
      // The band rule: in a phone session each join pays the narrowband offset (mergeBandOffset).
      const bandOffset = mergeBandOffset(this.band, this.bandOffsets());
      return { rule: { calibrated, bandOffset }, logged: { llrThreshold: calibrated.threshold, bandOffset } };
    }
    const mergeTau = this.deps.models.speakerThresholds.mergeTau;
    // Small new ids of a session that mostly stayed with the voice just heard join at a lower linkage (far-field splits).
    const { stays, transitions } = tracker.stayCount();
    const absorb = this.deps.config.speakerAbsorb ? absorptionFor(this.deps.models.speakerAbsorption, stays, transitions) : null;
    if (!absorb) return { rule: { linkageTau: mergeTau }, logged: { mergeTau } };
    return { rule: { linkageTau: mergeTau, absorb }, logged: { mergeTau, absorbSeconds: absorb.maxSeconds, absorbLinkage: absorb.minLinkage } };
  }

  /**
   * `from` was merged into `into` elsewhere (by hand, perhaps on another server: `speaker.merged` on the
   * bus): later turns of that voice are attributed to `into`.
   */
  async participantMerged(from: string, into: string): Promise<void> {
    if (this.lastVoice === from) this.lastVoice = into;
    const tracker = await this.openedTracker();
    await tracker?.relabel(from, into);
  }

  /**
   * A participant was erased (named by `erasedIdKey` of its id, perhaps on another server): the session
   * forgets it, so that voice, heard again, becomes a new unnamed participant rather than the erased id.
   */
  async participantErased(erasedKey: string): Promise<void> {
    const gone = (id: string): boolean => erasedIdKey(id) === erasedKey;
    if (this.lastVoice && gone(this.lastVoice)) this.lastVoice = null;
    const tracker = await this.openedTracker();
    const dropped = (await tracker?.forget(gone)) ?? [];
    if (dropped.length > 0) this.session.log.info({ dropped: dropped.length }, 'erased participant forgotten by the live speaker tracker');
  }

  /**
   * The store refused a turn attributed to `assigned` with `err`. When that is because `assigned` names an
   * erased participant (the erasure landed while the turn was being identified, or the session missed the
   * bus notice): the session forgets that voice as on the notice, drops any voiceprint the tracker saved
   * under the erased id since, and identifies the turn's audio again, so it becomes a new unnamed speaker
   * (or another voice the session knows). Null for any other refusal (the caller keeps it as it was).
   */
  async afterErasedSpeaker(err: unknown, assigned: SpeakerAssignment, audio: Float32Array, speechMs: number, band: VoiceBand): Promise<SpeakerAssignment | null> {
    if (!(err instanceof ParleyError) || err.code !== 'PARLEY_ERR_CONFLICT') return null;
    const { tenant, id: sessionId } = this.session;
    const { graph, voiceprints } = this.deps.stores;
    const retired = await graph.retiredParticipant(tenant, assigned.participantId).catch((lookup: unknown) => {
      this.session.log.warn({ err: lookup instanceof Error ? lookup.message : String(lookup) }, 'could not read whether a refused turn\'s speaker was erased');
      return null;
    });
    if (!retired || !('erased' in retired)) return null;
    await this.session.participantRetired({ erasedKey: erasedIdKey(assigned.participantId) });
    // The tracker's last update of that voice may have been saved after the erasure deleted its voiceprints.
    const stale = await voiceprints.deleteByParticipant(tenant, assigned.participantId);
    this.session.log.info({ sessionId, staleVoiceprints: stale }, 'a voice turn named an erased participant: identified again');
    return this.identify(audio, speechMs, band);
  }

  /** The tracker, once opened (null before the first turn, or when it failed to open). */
  private async openedTracker(): Promise<SpeakerTracker | null> {
    return this.tracker ? this.tracker.catch(() => null) : null;
  }

  /**
   * Who spoke this audio, heard through `band`: voice re-identification; a turn under SHORT_TURN_MS of speech only
   * joins a known voice or the previous one; the previous voice when the audio cannot be embedded. While the session's
   * external id is pending (its first voice), the newcomer rule of `NewcomerGuard` applies, to short turns too.
   */
  async identify(audio: Float32Array, speechMs: number, band: VoiceBand): Promise<SpeakerAssignment> {
    if (this.band !== 'narrowband') this.band = band;
    const tracker = await this.openTracker();
    try {
      const embedding = await this.deps.models.speakerEmbedder.embed(audio);
      const newcomer = await this.newcomer();
      const short = speechMs < SHORT_TURN_MS && !newcomer ? await tracker.assignShort(embedding, this.lastVoice, speechMs / 1000, band) : null;
      const assigned = short ?? (await tracker.assign(embedding, speechMs / 1000, { band, newcomer }));
      this.lastVoice = assigned.participantId;
      if (this.deps.config.speakerRecluster && assigned.turn !== undefined) this.keepEvidence(assigned.turn, embedding, speechMs / 1000);
      return assigned;
    } catch (err) {
      if (!(err instanceof ParleyError) || err.code !== 'PARLEY_ERR_BAD_AUDIO') throw err;
      if (this.lastVoice) return { participantId: this.lastVoice, confidence: 0, isNew: false };
      const created = await this.session.participantForNewVoice();
      this.lastVoice = created;
      return { participantId: created, confidence: 0, isNew: true };
    }
  }

  /** Keep a turn's evidence for the re-clustering, the newest MAX_RECLUSTER_TURNS only. */
  private keepEvidence(turn: number, vector: Float32Array, seconds: number): void {
    this.evidence.set(turn, { vector, seconds });
    if (this.evidence.size > MAX_RECLUSTER_TURNS) this.evidence.delete(this.evidence.keys().next().value!);
  }

  /**
   * With an external id pending: its holder and the session's agents may be matched as usual; anyone else only if
   * they hold no external id and clear the stricter bar (an app's new id means a person not yet known by it).
   */
  private async newcomer(): Promise<NewcomerGuard | null> {
    const externalId = this.session.pendingExternalId;
    if (!externalId) return null;
    const { graph } = this.deps.stores;
    const { tenant } = this.session;
    const holder = await graph.getParticipantByExternalId(tenant, externalId);
    return {
      holder: holder?.id ?? null,
      agents: this.session.agents,
      margin: NEWCOMER_MARGIN,
      eligible: async (participantId) => {
        const p = await graph.getParticipant(tenant, participantId);
        return p !== null && !p.externalId;
      },
    };
  }

  private openTracker(): Promise<SpeakerTracker> {
    const { config, stores, models } = this.deps;
    const tenant = this.session.tenant;
    this.tracker ??= SpeakerTracker.open({
      tenant,
      modelId: models.speakerEmbedder.modelId,
      thresholds: models.speakerThresholds,
      decision: models.speakerDecision ?? null,
      stay: config.speakerStayPrior === 'online' ? (models.speakerSessionRules?.stay ?? null) : null,
      revise: this.revision(),
      // Prototypes as seconds-weighted centroids (PARLEY_SPEAKER_CENTROID, chosen with the calibrated decision).
      centroid: config.speakerCentroid && models.speakerDecision ? (models.speakerCentroid ?? null) : null,
      bandOffsets: this.bandOffsets(),
      storeVoiceprints: voiceprintsAllowed(config, tenant),
      store: stores.voiceprints,
      createParticipant: () => this.session.participantForNewVoice(),
      onVoiceprintCount: (participantId, count) => stores.graph.setVoiceprintCount(tenant, participantId, count),
    });
    return this.tracker;
  }
}
