import type { TenantId } from '../../graph/types.js';
import type { VoiceprintStore } from '../../graph/voiceprint-store.js';
import { cosine, l2Normalise } from './speaker-embedder.js';
import { decideSpeaker, type Candidate, type SpeakerDecisionParams } from './speaker-decision.js';
import { pickCandidate, type AssignOptions, type NewcomerGuard } from './candidate-pick.js';
import { bandOffset, narrowbandModelId, type BandOffsets, type VoiceBand } from './voice-bands.js';
import { stayShift, validateStayPrior, type StayPrior } from './session-rules.js';
import type { SpeakerThresholds } from './speaker-thresholds.js';
import type { WeightedEmbedding } from './session-clustering.js';
import { updateWeight, validateCentroid, type CentroidUpdate } from './centroid-update.js';
import { gateStoredClaims, validateStoredClaim, type StoredClaim } from './stored-claim.js';
import { MAX_HELD_TURNS, stays, turnsToMove, undoneUpdates, validateRevision, type FirstTurnRevision, type Founding, type HeldTurn } from './first-turn-revision.js';

export type { AssignOptions, NewcomerGuard } from './candidate-pick.js';
export type { CentroidUpdate } from './centroid-update.js';
export type { StoredClaim } from './stored-claim.js';

/** Result of attributing one utterance. */
export interface SpeakerAssignment {
  participantId: string;
  /**
   * For a match, the cosine to the matched prototype. For a new id, how sure we are that the voice
   * is unknown: 1 − max(0, best cosine) / tauMatch, in [0, 1].
   */
  confidence: number;
  isNew: boolean;
  /** Whether the prototype was updated (score ≥ tauUpdate). */
  updated: boolean;
  /** Index of the turn in this session (0 first; every turn attributed counts). */
  turn: number;
  /**
   * With `revise`, on a founding turn: earlier turns of this session moved from the voice heard before
   * to the new id (newest first). Absent when none moved.
   */
  revised?: RevisedTurn[];
}

/** An earlier turn of the session re-attributed by the first-turn revision. */
export interface RevisedTurn {
  /** Its `turn` index. */
  turn: number;
  from: string;
  into: string;
}

/** Options of a per-session tracker. */
export interface SpeakerTrackerOptions {
  tenant: TenantId;
  /** Embedder of every vector passed in; only prototypes of this model are compared. */
  modelId: string;
  thresholds: Pick<SpeakerThresholds, 'tauMatch' | 'tauUpdate' | 'alpha'>;
  /**
   * Tenant consent to keep voiceprints. False: prototypes live only in this tracker (this session)
   * and nothing voice-derived is written anywhere.
   */
  storeVoiceprints: boolean;
  /** Required when `storeVoiceprints` is true. */
  store?: VoiceprintStore;
  /** Creates a participant in the graph and returns its id (the lead's graph store). */
  createParticipant: () => Promise<string>;
  /** Told after a prototype is first stored, merged or removed, so the profile's voiceprint count stays right. */
  onVoiceprintCount?: (participantId: string, count: number) => Promise<void>;
  /**
   * The calibrated open-set decision (`speaker-decision.ts`): when given, an utterance goes to the
   * hypothesis with the best log prior + calibrated LLR instead of the best cosine ≥ tauMatch;
   * tauUpdate and alpha still govern prototype updates. Null or absent: cosine thresholds alone.
   */
  decision?: SpeakerDecisionParams | null;
  /**
   * With `decision`: estimate the stay probability (the next turn by the voice just heard) from this
   * session's decided turns, moving the decision's log prior for the voice just heard (`session-rules.ts`).
   * Null or absent: the fixed log prior.
   */
  stay?: StayPrior | null;
  /**
   * With `decision`: when a turn founds an id, move the turns just before it that the new voice likely
   * spoke from the id heard before (`first-turn-revision.ts`). Null or absent: never.
   */
  revise?: FirstTurnRevision | null;
  /**
   * Prototype updates as a running centroid weighted by voiced seconds (`centroid-update.ts`): a match moves its
   * prototype by max(alpha, s / (S + s)), s the turn's voiced seconds and S those behind the prototype (capped at
   * `capSeconds`; a prototype stored before this session as `stored` says, by default as `capSeconds`), so an id founded
   * from a few seconds settles on its voice quickly. `onMatch`: every matched turn updates (else only at ≥ tauUpdate).
   * Null or absent: the EMA at alpha.
   */
  centroid?: CentroidUpdate | null;
  /**
   * With `decision`: the log-likelihood-ratio offsets a match pays across bands and on phone audio
   * (`voice-bands.ts`). Null or absent: none (every turn scored as wideband against wideband).
   */
  bandOffsets?: BandOffsets | null;
  /**
   * With `decision`: what a turn needs to claim an id stored before this session and not yet heard in it (an extra
   * cost, a margin over the next stored voice, a minimum of voiced seconds; `stored-claim.ts`). Null or absent: the
   * decision's log priors alone.
   */
  storedClaim?: StoredClaim | null;
}

/** One prototype held by the tracker. */
export interface Prototype {
  participantId: string;
  /** Store id when persisted; null in session-only mode. */
  voiceprintId: string | null;
  vector: Float32Array;
  updateCount: number;
  /** True when the prototype was known before this session began. */
  known: boolean;
  /** The band of the audio it was made from (stored under `narrowbandModelId` when narrowband). */
  band: VoiceBand;
  /** Voiced seconds behind it in this tracker (with `centroid`); absent: full (stored before this session). */
  seconds?: number;
}

/** What this session saw of one id (the evidence the end-of-session merge uses). */
export interface SessionSpeakerStats {
  participantId: string;
  utterances: number;
  /** Sum of this session's embeddings assigned to the id (not normalised). */
  embeddingSum: Float32Array;
  /**
   * This session's embeddings assigned to the id with their voiced seconds, for the end-of-session
   * clustering; the most recent {@link MAX_KEPT_PER_ID} only.
   */
  embeddings: WeightedEmbedding[];
}

/** Embeddings kept per id and session for the end-of-session clustering (13 floats each for stats-lda). */
export const MAX_KEPT_PER_ID = 500;

/**
 * Online speaker re-identification for one session (docs/ARCHITECTURE.md, "Speaker identity"): cosine against
 * the tenant's prototypes, match at ≥ tauMatch else a new id (or, with `decision`, the hypothesis with the best log
 * prior + calibrated LLR, `speaker-decision.ts`), EMA update (weight alpha) only at
 * ≥ tauUpdate. Calls are serialised internally, so concurrent `assign` calls cannot both create an id
 * for the same new voice.
 */
export class SpeakerTracker {
  private readonly o: SpeakerTrackerOptions;
  private readonly protos: Prototype[];
  private readonly stats = new Map<string, SessionSpeakerStats>();
  private queue: Promise<unknown> = Promise.resolve();
  /** The id of the last turn attributed (the "voice just heard" of the decision's prior). */
  private lastId: string | null = null;
  /** Decided turns that followed another decided turn, and how many of them went to the same id. */
  private transitions = 0;
  private stays = 0;
  /** Every turn's id in order (the stay count is recounted after a revision). */
  private readonly sequence: string[] = [];
  /** The newest decided turns, for the revision (empty without `revise`). */
  private held: HeldTurn[] = [];

  private constructor(o: SpeakerTrackerOptions, protos: Prototype[]) {
    this.o = o;
    this.protos = protos;
  }

  /** Open a tracker, loading the tenant's stored prototypes when consent allows. */
  static async open(o: SpeakerTrackerOptions): Promise<SpeakerTracker> {
    if (o.thresholds.tauUpdate < o.thresholds.tauMatch) throw new Error('tauUpdate must be >= tauMatch');
    if (o.storeVoiceprints && !o.store) throw new Error('storeVoiceprints needs a VoiceprintStore');
    if (o.stay) validateStayPrior(o.stay);
    if (o.revise) {
      validateRevision(o.revise);
      if (!o.decision) throw new Error('first-turn revision needs the calibrated decision');
    }
    if (o.centroid) validateCentroid(o.centroid);
    if (o.storedClaim) {
      validateStoredClaim(o.storedClaim);
      if (!o.decision) throw new Error('storedClaim needs the calibrated decision');
    }
    const load = async (band: VoiceBand): Promise<Prototype[]> => {
      const stored = o.storeVoiceprints ? await o.store!.list(o.tenant, band === 'wideband' ? o.modelId : narrowbandModelId(o.modelId)) : [];
      return stored.map((p) => ({ participantId: p.participantId, voiceprintId: p.id, vector: p.vector, updateCount: p.updateCount, known: true, band }));
    };
    return new SpeakerTracker(o, [...(await load('wideband')), ...(await load('narrowband'))]);
  }

  /**
   * Attribute one utterance's embedding (L2-normalised by the embedder). `voicedSeconds` (default 1)
   * is the utterance's speech duration: its weight in the end-of-session clustering.
   */
  assign(embedding: Float32Array, voicedSeconds = 1, opts: AssignOptions = {}): Promise<SpeakerAssignment> {
    if (!(voicedSeconds > 0)) return Promise.reject(new RangeError('voicedSeconds must be > 0'));
    const run = this.queue.then(async () => {
      const previous = this.lastId;
      const { transitions, stays } = this;
      const out = await this.assignNow(embedding, voicedSeconds, opts.band ?? 'wideband', opts.newcomer ?? null);
      this.heard(out.participantId);
      if (out.isNew && previous !== null && this.o.revise) {
        const revised = await this.revise({ into: out.participantId, vector: embedding, seconds: voicedSeconds, previous, transitions, stays }, opts.band ?? 'wideband');
        if (revised.length > 0) out.revised = revised;
      }
      return out;
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  /**
   * Attribute a SHORT utterance, whose embedding is too noisy to found an id or move a prototype: the
   * best prototype when it scores ≥ tauMatch, else `previous` (the last voice heard, a pause inside one
   * turn being likelier than a new person) with confidence 0. Changes no prototype and no session
   * statistics. Null when neither exists (the caller then uses `assign`).
   */
  assignShort(embedding: Float32Array, previous: string | null, voicedSeconds = 0, band: VoiceBand = 'wideband'): Promise<SpeakerAssignment | null> {
    const run = this.queue.then(() => {
      const out = this.shortNow(embedding, previous, voicedSeconds, band);
      if (out) this.heard(out.participantId);
      return out;
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Count the turn for the stay estimate and make it the voice just heard. */
  private heard(participantId: string): void {
    if (this.lastId !== null) {
      this.transitions++;
      if (participantId === this.lastId) this.stays++;
    }
    this.lastId = participantId;
    this.sequence.push(participantId);
  }

  /** Keep a decided turn for the revision. */
  private hold(t: Omit<HeldTurn, 'turn'>): void {
    if (!this.o.revise) return;
    this.held.push({ ...t, turn: this.sequence.length });
    if (this.held.length > MAX_HELD_TURNS) this.held.shift();
  }

  /**
   * Move the turns `turnsToMove` picks from `f.previous` to `f.into`: their session evidence goes to the new
   * id, the previous id's prototype goes back to before their updates, a prototype one of them made for it (a match
   * across bands) is removed, in memory and in the store, and the stays are counted again.
   */
  private async revise(f: Founding, band: VoiceBand): Promise<RevisedTurn[]> {
    const before = this.held.slice(0, -1);
    const picked = turnsToMove(this.o.revise!, this.decisionNow()!, before, f).map((i) => before[i]!);
    if (picked.length === 0) return [];
    const from = this.stats.get(f.previous);
    const into = this.stats.get(f.into)!;
    const undo = undoneUpdates(picked);
    const made = new Set(picked.flatMap((t) => (t.created ? [t.created] : [])));
    for (const t of picked) {
      t.participantId = f.into;
      this.sequence[t.turn] = f.into;
      if (t.kept && from) {
        const k = from.embeddings.indexOf(t.kept);
        if (k >= 0) from.embeddings.splice(k, 1);
        from.utterances--;
        for (let i = 0; i < t.vector.length; i++) from.embeddingSum[i] = from.embeddingSum[i]! - t.vector[i]!;
        this.note(f.into, t.vector, t.kept.seconds);
        t.kept = into.embeddings.at(-1)!;
      }
      t.before = null;
      t.created = null;
    }
    if (from && from.utterances <= 0) this.stats.delete(f.previous);
    // Every later turn of the previous id in that band was moved too (the walk stops at the first it keeps): what the
    // prototype holds is the moved voice's, so it goes; undoing updates finds none of that band then.
    for (const b of made) await this.removePrototype(f.previous, b);
    // Updates only ever move a prototype of the turn's own band: the one the undone turns updated.
    const p = this.protos.find((x) => x.participantId === f.previous && x.band === band);
    if (p && undo) {
      p.vector = undo.vector;
      p.updateCount = Math.max(1, p.updateCount - undo.count);
      await this.persist(p);
    }
    this.transitions = Math.max(0, this.sequence.length - 1);
    this.stays = stays(this.sequence);
    return picked.map((t) => ({ turn: t.turn, from: f.previous, into: f.into }));
  }

  /** The decision with the log prior of the voice just heard moved by this session's stay estimate. */
  private decisionNow(): SpeakerDecisionParams | null {
    const d = this.o.decision ?? null;
    if (!d || !this.o.stay) return d;
    return { ...d, logPriorPrevious: d.logPriorPrevious + stayShift(this.o.stay, this.stays, this.transitions) };
  }

  private shortNow(embedding: Float32Array, previous: string | null, voicedSeconds: number, band: VoiceBand): SpeakerAssignment | null {
    const turn = this.sequence.length;
    const d = this.decisionNow();
    if (d) {
      const candidates = this.claimable(d, this.candidates(embedding, band), voicedSeconds, 0);
      const pick = decideSpeaker(d, candidates, 0, previous ?? this.lastId, false);
      const chosen = candidates.find((c) => c.participantId === pick.participantId);
      if (!chosen) return null;
      this.hold({ participantId: chosen.participantId, vector: Float32Array.from(embedding), seconds: 0, voicedSeconds, score: pick.score, founding: false, kept: null, before: null, created: null });
      return { participantId: chosen.participantId, confidence: Math.max(0, chosen.cosine), isNew: false, updated: false, turn };
    }
    let best: Prototype | null = null;
    let bestScore = -Infinity;
    for (const p of this.protos) {
      const s = cosine(embedding, p.vector);
      if (s > bestScore) { bestScore = s; best = p; }
    }
    if (best && bestScore >= this.o.thresholds.tauMatch) return { participantId: best.participantId, confidence: bestScore, isNew: false, updated: false, turn };
    if (previous && this.protos.some((p) => p.participantId === previous)) return { participantId: previous, confidence: 0, isNew: false, updated: false, turn };
    return null;
  }

  /** Every prototype with its cosine to `embedding`, whether its id was heard in this session, and its band offset. */
  private candidates(embedding: Float32Array, band: VoiceBand): Candidate[] {
    const offsets = this.o.bandOffsets;
    return this.protos.map((p) => ({
      participantId: p.participantId, cosine: cosine(embedding, p.vector), inSession: this.stats.has(p.participantId),
      ...(offsets ? { llrOffset: bandOffset(offsets, band, p.band) } : {}),
    }));
  }

  /** With `storedClaim`, the candidates as `gateStoredClaims` leaves them for a turn of `voicedSeconds` scored at `llrSeconds`. */
  private claimable(d: SpeakerDecisionParams | null, candidates: Candidate[], voicedSeconds: number, llrSeconds: number): Candidate[] {
    const claim = this.o.storedClaim;
    return claim && d ? gateStoredClaims(claim, d.calibration, candidates, voicedSeconds, llrSeconds) : candidates;
  }

  private async assignNow(embedding: Float32Array, voicedSeconds: number, band: VoiceBand, newcomer: NewcomerGuard | null): Promise<SpeakerAssignment> {
    const { tauMatch, tauUpdate, alpha } = this.o.thresholds;
    const decision = this.decisionNow();
    // One cosine per prototype, shared by the threshold rule and the decision (aligned with this.protos).
    const candidates = this.claimable(decision, this.candidates(embedding, band), voicedSeconds, voicedSeconds);
    const turn = this.sequence.length;
    const { at: picked, score } = await pickCandidate({ decision, thresholds: this.o.thresholds, previous: this.lastId }, candidates, voicedSeconds, newcomer);
    const matched = picked >= 0;
    let at = picked;
    for (let i = 0; !matched && i < candidates.length; i++) if (at < 0 || candidates[i]!.cosine > candidates[at]!.cosine) at = i;
    const best = at >= 0 ? this.protos[at]! : null;
    const bestScore = at >= 0 ? candidates[at]!.cosine : -Infinity;
    if (best && matched && best.band !== band) return this.crossBandMatch(best, embedding, voicedSeconds, band, score, turn, bestScore);
    if (best && matched) {
      const w = updateWeight(this.o.centroid ?? null, best, bestScore, voicedSeconds, { tauUpdate, alpha });
      const updated = w > 0;
      const prior = best.vector;
      if (updated) {
        if (best.seconds !== undefined) best.seconds += voicedSeconds;
        const v = Float32Array.from(best.vector, (x, i) => (1 - w) * x + w * embedding[i]!);
        best.vector = l2Normalise(v);
        best.updateCount++;
        await this.persist(best);
      }
      const kept = this.note(best.participantId, embedding, voicedSeconds);
      this.hold({ participantId: best.participantId, vector: kept.vector, seconds: voicedSeconds, voicedSeconds, score, founding: false, kept, before: updated ? prior : null, created: null });
      return { participantId: best.participantId, confidence: bestScore, isNew: false, updated, turn };
    }
    const participantId = await this.o.createParticipant();
    const proto: Prototype = { participantId, voiceprintId: null, vector: Float32Array.from(embedding), updateCount: 1, known: false, band, seconds: voicedSeconds };
    this.protos.push(proto);
    await this.persist(proto);
    if (this.o.storeVoiceprints) await this.o.onVoiceprintCount?.(participantId, await this.o.store!.countByParticipant(this.o.tenant, participantId));
    const kept = this.note(participantId, embedding, voicedSeconds);
    this.hold({ participantId, vector: kept.vector, seconds: voicedSeconds, voicedSeconds, score, founding: true, kept, before: null, created: null });
    const confidence = best ? 1 - Math.max(0, bestScore) / tauMatch : 1;
    return { participantId, confidence: Math.min(1, Math.max(0, confidence)), isNew: true, updated: false, turn };
  }

  /**
   * A turn matched a prototype of the other band: that prototype is left as it is (a phone turn would pull a
   * wideband voiceprint towards the phone channel); the participant gets a prototype of the turn's band from it when
   * they have none, so their next turns in this band are compared within it.
   */
  private async crossBandMatch(
    best: Prototype, embedding: Float32Array, voicedSeconds: number, band: VoiceBand, score: number, turn: number, cos: number,
  ): Promise<SpeakerAssignment> {
    const { participantId } = best;
    const founded = !this.protos.some((p) => p.participantId === participantId && p.band === band);
    if (founded) {
      const proto: Prototype = { participantId, voiceprintId: null, vector: Float32Array.from(embedding), updateCount: 1, known: best.known, band };
      this.protos.push(proto);
      await this.persist(proto);
      if (this.o.storeVoiceprints) await this.o.onVoiceprintCount?.(participantId, await this.o.store!.countByParticipant(this.o.tenant, participantId));
    }
    const kept = this.note(participantId, embedding, voicedSeconds);
    this.hold({ participantId, vector: kept.vector, seconds: voicedSeconds, voicedSeconds, score, founding: false, kept, before: null, created: founded ? band : null });
    return { participantId, confidence: cos, isNew: false, updated: founded, turn };
  }

  /** Remove `participantId`'s prototype of `band`, from the store too, and report the id's voiceprint count. */
  private async removePrototype(participantId: string, band: VoiceBand): Promise<void> {
    const at = this.protos.findIndex((x) => x.participantId === participantId && x.band === band);
    if (at < 0) return;
    const [p] = this.protos.splice(at, 1);
    if (!this.o.storeVoiceprints || !p?.voiceprintId) return;
    await this.o.store!.delete(this.o.tenant, p.voiceprintId);
    await this.o.onVoiceprintCount?.(participantId, await this.o.store!.countByParticipant(this.o.tenant, participantId));
  }

  private note(participantId: string, embedding: Float32Array, seconds: number): WeightedEmbedding {
    let s = this.stats.get(participantId);
    if (!s) {
      s = { participantId, utterances: 0, embeddingSum: new Float32Array(embedding.length), embeddings: [] };
      this.stats.set(participantId, s);
    }
    s.utterances++;
    const kept = { vector: Float32Array.from(embedding), seconds };
    s.embeddings.push(kept);
    if (s.embeddings.length > MAX_KEPT_PER_ID) s.embeddings.shift();
    for (let i = 0; i < embedding.length; i++) s.embeddingSum[i] = s.embeddingSum[i]! + embedding[i]!;
    return kept;
  }

  private async persist(p: Prototype): Promise<void> {
    if (!this.o.storeVoiceprints) return;
    const saved = await this.o.store!.upsert(this.o.tenant, {
      ...(p.voiceprintId ? { id: p.voiceprintId } : {}),
      participantId: p.participantId,
      modelId: p.band === 'wideband' ? this.o.modelId : narrowbandModelId(this.o.modelId),
      vector: p.vector,
      updateCount: p.updateCount,
    });
    p.voiceprintId = saved.id;
  }

  /** Copies of the current prototypes (for asker identification and the merge). */
  prototypes(): Prototype[] {
    return this.protos.map((p) => ({ ...p, vector: Float32Array.from(p.vector) }));
  }

  /** Turn-to-turn transitions of this session so far, and how many stayed with the same id (after any revision). */
  stayCount(): { stays: number; transitions: number } {
    return { stays: this.stays, transitions: this.transitions };
  }

  /** Per-id evidence gathered in this session. */
  sessionStats(): SessionSpeakerStats[] {
    return [...this.stats.values()].map((s) => ({ ...s, embeddingSum: Float32Array.from(s.embeddingSum), embeddings: s.embeddings.map((e) => ({ ...e })) }));
  }

  /**
   * Apply end-of-session merges to the prototypes: each of `from`'s prototypes is folded into `into`'s of the same
   * band (weighted by update counts) and removed, or becomes `into`'s where `into` has none of that band; in memory
   * and, with consent, in the store.
   */
  async applyMerges(merges: { from: string; into: string }[]): Promise<void> {
    await this.queue;
    for (const { from, into } of merges) {
      const moved = this.protos.filter((p) => p.participantId === from);
      if (moved.length === 0 || !this.protos.some((p) => p.participantId === into)) continue;
      const changed: Prototype[] = [];
      for (const a of moved) {
        const b = this.protos.find((p) => p.participantId === into && p.band === a.band);
        if (!b) {
          a.participantId = into;
          continue;
        }
        const total = a.updateCount + b.updateCount;
        b.vector = l2Normalise(Float32Array.from(b.vector, (x, i) => (x * b.updateCount + a.vector[i]! * a.updateCount) / total));
        b.updateCount = total;
        this.protos.splice(this.protos.indexOf(a), 1);
        changed.push(b);
        if (this.o.storeVoiceprints && a.voiceprintId) await this.o.store!.delete(this.o.tenant, a.voiceprintId);
      }
      if (this.lastId === from) this.lastId = into;
      this.joinStats(from, into);
      this.renamed(from, into);
      if (this.o.storeVoiceprints) {
        await this.o.store!.reassign(this.o.tenant, from, into);
        for (const b of changed) await this.persist(b);
        await this.o.onVoiceprintCount?.(into, await this.o.store!.countByParticipant(this.o.tenant, into));
      }
    }
  }

  /**
   * `from` was merged into `into` elsewhere (a manual merge, which already moved the stored voiceprints):
   * this session's prototypes and evidence of `from` now name `into`, so later turns of that voice are
   * `into`'s. In memory only; runs in order with assignments.
   */
  relabel(from: string, into: string): Promise<void> {
    const run = this.queue.then(() => {
      for (const p of this.protos) if (p.participantId === from) p.participantId = into;
      if (this.lastId === from) this.lastId = into;
      this.joinStats(from, into);
      this.renamed(from, into);
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  /**
   * Drop every prototype and all evidence of the participants `gone` picks (erased elsewhere, with their
   * stored voiceprints): their voice, heard again, becomes a new participant. Returns the ids dropped.
   * Runs in order with assignments.
   */
  forget(gone: (participantId: string) => boolean): Promise<string[]> {
    const run = this.queue.then(() => {
      const dropped = new Set(this.protos.filter((p) => gone(p.participantId)).map((p) => p.participantId));
      for (const id of this.stats.keys()) if (gone(id)) dropped.add(id);
      for (let i = this.protos.length - 1; i >= 0; i--) if (dropped.has(this.protos[i]!.participantId)) this.protos.splice(i, 1);
      for (const id of dropped) this.stats.delete(id);
      if (this.lastId && dropped.has(this.lastId)) this.lastId = null;
      this.held = [];
      return [...dropped];
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** `from` is now `into` in the turn order; the revision forgets its turns (their scores named `from`). */
  private renamed(from: string, into: string): void {
    for (let i = 0; i < this.sequence.length; i++) if (this.sequence[i] === from) this.sequence[i] = into;
    this.held = [];
  }

  /** Move the session evidence of `from` to `into`. */
  private joinStats(from: string, into: string): void {
    const sa = this.stats.get(from);
    if (!sa) return;
    const sb = this.stats.get(into);
    if (sb) {
      sb.utterances += sa.utterances;
      for (let i = 0; i < sb.embeddingSum.length; i++) sb.embeddingSum[i] = sb.embeddingSum[i]! + sa.embeddingSum[i]!;
      sb.embeddings.push(...sa.embeddings);
      sb.embeddings.splice(0, Math.max(0, sb.embeddings.length - MAX_KEPT_PER_ID));
    } else this.stats.set(into, { ...sa, participantId: into });
    this.stats.delete(from);
  }
}
