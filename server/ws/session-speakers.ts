import { ParleyError } from '../../graph/core/errors.js';
import { CONSOLIDATION_JOB, type ConsolidationJob } from '../../pipelines/memory/consolidate.js';
import { cannotLinkFrom, externalIdCannotLinks } from '../../pipelines/speaker/merge.js';
import { clusterSessionIds, sessionIdsFrom } from '../../pipelines/speaker/session-clustering.js';
import { withNamedAddressees } from '../../pipelines/speaker/vocative-links.js';
import { SHORT_TURN_MS } from '../../pipelines/speaker/speaker-thresholds.js';
import { SpeakerTracker } from '../../pipelines/speaker/speaker-tracker.js';
import { voiceprintsAllowed } from '../config.js';
import type { VoiceTurnsDeps, VoiceTurnsHost } from './voice-turns-host.js';
import { relabelFacts } from '../../pipelines/interaction/merge-participants.js';
import { keepClientKeysAfterMerge } from '../../pipelines/interaction/derived-attributes.js';

/** Who spoke a turn: the participant, how sure the match is (0 to 1), and whether the voice is new. */
export interface SpeakerAssignment {
  participantId: string;
  confidence: number;
  isNew: boolean;
}

/**
 * Who speaks in one live session's audio: each stored turn's voice re-identified against the tenant's
 * voiceprints (a speaker tracker opened on the first turn), and at the end of the session the merge of
 * fragmented voice ids.
 */
export class SessionSpeakers {
  private tracker: Promise<SpeakerTracker> | null = null;
  private lastVoice: string | null = null;

  constructor(
    private readonly session: Pick<VoiceTurnsHost, 'tenant' | 'id' | 'log' | 'send' | 'participantForNewVoice'>,
    private readonly deps: VoiceTurnsDeps,
  ) {}

  /** End-of-session conservative merge of fragmented voice ids; emits `speaker.merged`. */
  async merge(): Promise<void> {
    if (!this.tracker) return;
    const tracker = await this.tracker;
    const { stores } = this.deps;
    const { tenant, id } = this.session;
    // Average-linkage clustering over every utterance embedding of the session (weighted by voiced
    // seconds); never joined: ids that overlapped in time, where one named the other (so a merge never
    // leaves a person addressing themself), or that hold different external ids.
    const ids = sessionIdsFrom(tracker.prototypes(), tracker.sessionStats());
    const transcript = await stores.graph.getTranscript(tenant, id);
    const heard = [...new Set(transcript.flatMap((u) => [u.speakerId, ...u.addresseeIds]))];
    const people = (await Promise.all(heard.map((p) => stores.graph.getParticipant(tenant, p)))).filter((p) => p !== null);
    const mergeTau = this.deps.models.speakerThresholds.mergeTau;
    const merges = clusterSessionIds(ids, {
      linkageTau: mergeTau,
      minUtterances: this.deps.config.speakerMergeMinUtterances,
      cannotLink: [...cannotLinkFrom(withNamedAddressees(transcript, people)), ...externalIdCannotLinks(people)],
    });
    this.session.log.info({ ids: ids.length, merges: merges.length, mergeTau }, 'end-of-session speaker merge');
    for (const { from, into } of merges) {
      const [fromP, intoP] = [await stores.graph.getParticipant(tenant, from), await stores.graph.getParticipant(tenant, into)];
      await stores.graph.mergeParticipants(tenant, from, into);
      if (fromP && intoP) await keepClientKeysAfterMerge(stores.graph, tenant, fromP, intoP);
      await relabelFacts(stores, tenant, from, into, fromP?.name ?? null, intoP?.name ?? null);
      this.session.send('speaker.merged', { from, into });
    }
    if (merges.length === 0) return;
    await tracker.applyMerges(merges);
    // The search indexes carry speaker and addressee ids: refresh what the merged ids touched.
    const merged = new Set(merges.map((m) => m.from));
    for (const u of transcript.filter((x) => merged.has(x.speakerId) || x.addresseeIds.some((a) => merged.has(a)))) {
      const data: ConsolidationJob = { tenant, sessionId: id, utteranceId: u.id };
      await stores.queue.enqueue(CONSOLIDATION_JOB, data, { jobId: `reindex-${tenant}-${u.id}-${Date.now()}` });
    }
  }

  /**
   * Who spoke this audio: voice re-identification; a turn under SHORT_TURN_MS of speech only joins a
   * known voice or the previous one; the previous voice when the audio cannot be embedded.
   */
  async identify(audio: Float32Array, speechMs: number): Promise<SpeakerAssignment> {
    const tracker = await this.openTracker();
    try {
      const embedding = await this.deps.models.speakerEmbedder.embed(audio);
      const short = speechMs < SHORT_TURN_MS ? await tracker.assignShort(embedding, this.lastVoice) : null;
      const assigned = short ?? (await tracker.assign(embedding, speechMs / 1000));
      this.lastVoice = assigned.participantId;
      return assigned;
    } catch (err) {
      if (!(err instanceof ParleyError) || err.code !== 'PARLEY_ERR_BAD_AUDIO') throw err;
      if (this.lastVoice) return { participantId: this.lastVoice, confidence: 0, isNew: false };
      const created = await this.session.participantForNewVoice();
      this.lastVoice = created;
      return { participantId: created, confidence: 0, isNew: true };
    }
  }

  private openTracker(): Promise<SpeakerTracker> {
    const { config, stores, models } = this.deps;
    const tenant = this.session.tenant;
    this.tracker ??= SpeakerTracker.open({
      tenant,
      modelId: models.speakerEmbedder.modelId,
      thresholds: models.speakerThresholds,
      storeVoiceprints: voiceprintsAllowed(config, tenant),
      store: stores.voiceprints,
      createParticipant: () => this.session.participantForNewVoice(),
      onVoiceprintCount: (participantId, count) => stores.graph.setVoiceprintCount(tenant, participantId, count),
    });
    return this.tracker;
  }
}
