import type { FastifyBaseLogger } from 'fastify';
import { ParleyError, toClientError, type ErrorCode } from '../../graph/core/errors.js';
import type { Stores } from '../../graph/stores.js';
import type { AudioSessionEvent } from '../../pipelines/audio/audio-events.js';
import { validateFrame, type StreamFormat } from '../../pipelines/audio/audio-format.js';
import { createAudioSession, type AudioSession } from '../../pipelines/audio/audio-session.js';
import { decodePcm } from '../../pipelines/audio/pcm-codecs.js';
import type { IngestedUtterance, InteractionIngest } from '../../pipelines/interaction/ingest.js';
import type { SessionVocabulary } from '../../pipelines/interaction/session-vocabulary.js';
import type { TurnListener, TurnSession } from '../../pipelines/retrieval/turn-listener.js';
import { CONSOLIDATION_JOB, type ConsolidationJob } from '../../pipelines/memory/consolidate.js';
import { cannotLinkFrom, externalIdCannotLinks } from '../../pipelines/speaker/merge.js';
import { clusterSessionIds, sessionIdsFrom } from '../../pipelines/speaker/session-clustering.js';
import { withNamedAddressees } from '../../pipelines/speaker/vocative-links.js';
import { SHORT_TURN_MS } from '../../pipelines/speaker/speaker-thresholds.js';
import { SpeakerTracker } from '../../pipelines/speaker/speaker-tracker.js';
import { voiceprintsAllowed, type Config } from '../config.js';
import type { Metrics } from '../plugins/metrics.js';
import { favoursNames, type Models } from '../plugins/models.js';

/** Least time between two readings of the tenant's names for the recogniser when the session's people did not change, ms. */
export const NAMES_REFRESH_MS = 10_000;

/** What the voice path needs of its live session (kept narrow so the two files do not import each other). */
export interface VoiceTurnsHost {
  readonly tenant: string;
  readonly id: string;
  readonly log: FastifyBaseLogger;
  send: TurnSession['send'];
  sendError(code: ErrorCode, message: string, fatal?: boolean): void;
  /** A new turn id for this session. */
  nextTurnId(): string;
  /** Run work in order with the session's other messages. */
  enqueue(task: () => Promise<void>): void;
  /** Call every turn listener of the session. */
  notify(hook: (listener: TurnListener) => void): void;
  /** The turn's utterance is stored: send `transcript.final` and tell the turn listeners. */
  finalised(turnId: string, stored: IngestedUtterance): void;
  /** The participant a new voice becomes (the holder of the session's pending external id, or a new one). */
  participantForNewVoice(): Promise<string>;
  /** Give the session's pending external id to its first speaker. */
  claimExternalId(speakerId: string): Promise<void>;
  /** The application's own id for the session's first speaker, until that speaker takes it. */
  readonly pendingExternalId: string | null;
  /** The names the session's recogniser listens for: its people first, then the tenant's recent ones. */
  readonly vocabulary: SessionVocabulary;
}

export interface VoiceTurnsDeps {
  config: Config;
  stores: Stores;
  models: Models;
  ingest: InteractionIngest;
  metrics: Metrics;
}

/** How much audio history {@link ArrivalClock} keeps at least, ms of session audio (it drops the older half in one go). */
const ARRIVAL_HISTORY_MS = 2 * 60_000;

/**
 * When each stretch of session audio arrived (wall clock), so latencies can be measured from the
 * moment the audio an event is about reached the server: `transcript.partial` lag, `transcript.final`
 * after the end of speech. Audio older than its history is unknown (no observation), never guessed.
 */
export class ArrivalClock {
  /** Session audio position (ms) after each frame, ascending, and the frame's arrival time. */
  private ends: number[] = [];
  private times: number[] = [];
  /** Audio up to here has been forgotten. */
  private forgottenUpToMs = -1;

  /** Audio up to `positionMs` had arrived at `at` (`performance.now()`). */
  record(positionMs: number, at: number): void {
    this.ends.push(positionMs);
    this.times.push(at);
    if ((this.ends[0] ?? positionMs) < positionMs - 2 * ARRIVAL_HISTORY_MS) {
      const keep = this.ends.findIndex((e) => e >= positionMs - ARRIVAL_HISTORY_MS);
      this.forgottenUpToMs = this.ends[keep - 1] ?? this.forgottenUpToMs;
      this.ends = this.ends.slice(keep);
      this.times = this.times.slice(keep);
    }
  }

  /** When the audio at `positionMs` arrived: the first frame reaching it; null when unknown. */
  arrivalOf(positionMs: number): number | null {
    if (positionMs <= this.forgottenUpToMs) return null;
    let lo = 0;
    let hi = this.ends.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.ends[mid] ?? 0) < positionMs) lo = mid + 1;
      else hi = mid;
    }
    return lo < this.times.length ? this.times[lo] ?? null : null;
  }

  /** Seconds since the audio at `positionMs` arrived; null when unknown. */
  secondsSince(positionMs: number): number | null {
    const at = this.arrivalOf(positionMs);
    return at === null ? null : Math.max(0, performance.now() - at) / 1000;
  }
}

/**
 * The voice side of one live session: streamed audio → VAD / ASR events (worker pool) → speaker
 * re-identification → stored utterances, plus the end-of-session speaker merge. Created on the
 * session's first audio frame.
 */
export class VoiceTurns {
  /** Finals recognised but not yet stored, in order (each runs once, from the queue or from `close`). */
  private readonly unstored = new Set<() => Promise<void>>();
  private audio: AudioSession | null = null;
  private opening: Promise<AudioSession> | null = null;
  private reader: Promise<void> | null = null;
  private tracker: Promise<SpeakerTracker> | null = null;
  /**
   * True while `close(true)` (session.end) finishes the open turn: frames arriving then are dropped, since
   * opening a new audio stream under the closing one left `close` waiting on a reader that never ends.
   */
  private ending = false;
  private droppedWhileEnding = false;
  /** Set by `finishForShutdown`: frames are dropped silently (the closing error names where they start). */
  private shuttingDown = false;
  /** How much audio had been taken when shutdown began (ms into the stream); null before shutdown. */
  private cutAtMs: number | null = null;
  /** Audio turn number → where the turn starts (ms into the stream), until its utterance is stored. */
  private readonly turnStarts = new Map<number, number>();
  /** Audio turn number → the session's turn id. */
  private readonly turnIds = new Map<number, string>();
  private lastVoice: string | null = null;
  /** When the names were last sent to the recogniser (`performance.now()`); null before the first time. */
  private namesSentAt: number | null = null;
  /** Number of the latest names reading: an earlier one that resolves later is dropped. */
  private namesRead = 0;
  private readonly arrivals = new ArrivalClock();

  constructor(private readonly session: VoiceTurnsHost, private readonly deps: VoiceTurnsDeps, private format: StreamFormat) {}

  /** Take one binary frame; bad frames are reported to the client and the session goes on. */
  push(frame: Buffer): void {
    if (this.shuttingDown) return;
    if (this.ending) {
      if (!this.droppedWhileEnding) this.session.sendError('PARLEY_ERR_SESSION_ENDED', 'audio after session.end is dropped');
      this.droppedWhileEnding = true;
      return;
    }
    if (this.deps.config.asr === 'none') {
      // No recogniser: the frame is still checked, then dropped.
      try {
        validateFrame(this.format, frame);
        decodePcm(this.format.encoding, frame);
      } catch (err) {
        this.fail(err);
      }
      return;
    }
    const at = performance.now();
    if (this.audio) {
      this.pushTo(this.audio, frame, at);
      return;
    }
    void this.open().then((audio) => this.pushTo(audio, frame, at), (err: unknown) => this.fail(err));
  }

  private pushTo(audio: AudioSession, frame: Buffer, at: number): void {
    const shedBefore = audio.shedMs;
    this.report(audio.push(frame));
    this.arrivals.record(audio.positionMs, at);
    const shed = audio.shedMs - shedBefore;
    if (shed > 0) this.deps.metrics.audioShed.inc(shed / 1000);
  }

  /** `input.commit`: end the open turn now. */
  commit(): void {
    this.audio?.commit();
  }

  /** A reconnect may declare another format; the decoder is rebuilt on the next frame. */
  reformat(format: StreamFormat): void {
    if (format.encoding === this.format.encoding && format.sampleRate === this.format.sampleRate) return;
    this.format = format;
    void this.close(false);
  }

  /**
   * Stop the audio. With `flush`, finish the open turn and store every final first (session.end).
   * Then merge fragmented speaker ids of this session.
   */
  async close(flush: boolean): Promise<void> {
    if (flush) {
      this.ending = true;
      this.droppedWhileEnding = false;
    }
    try {
      const audio = this.audio ?? (this.opening ? await this.opening.catch(() => null) : null);
      this.audio = null;
      this.opening = null;
      if (audio) await audio.close({ flush });
      await this.reader;
      this.reader = null;
      if (flush) for (const store of [...this.unstored]) await store();
    } finally {
      if (flush) this.ending = false;
    }
  }

  /**
   * Server shutdown: take no more audio, end the open turn as if speech ended, and store every final
   * (each sends its `transcript.final`). Whatever it has not stored when the caller stops waiting is
   * named by {@link unstoredFromMs}.
   */
  async finishForShutdown(): Promise<void> {
    this.shuttingDown = true;
    const audio = this.audio ?? (this.opening ? await this.opening.catch(() => null) : null);
    if (audio) this.cutAtMs ??= audio.positionMs;
    await this.close(true);
  }

  /**
   * Where the audio this session did not store begins, in ms into the stream (the clock of
   * `audio_start_ms`): the start of the earliest turn not yet stored, else, after shutdown began, where
   * the audio was cut; null while every turn is stored and audio is still taken.
   */
  unstoredFromMs(): number | null {
    const starts = [...this.turnStarts.values()];
    return starts.length > 0 ? Math.min(...starts) : this.cutAtMs;
  }

  /** End-of-session conservative merge of fragmented voice ids; emits `speaker.merged`. */
  async mergeSpeakers(): Promise<void> {
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
      await stores.graph.mergeParticipants(tenant, from, into);
      await stores.memory.relabelParticipant(tenant, from, into);
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

  private open(): Promise<AudioSession> {
    this.opening ??= (async () => {
      const { config, models } = this.deps;
      const audio = await createAudioSession({
        format: this.format,
        pool: await models.inference(),
        vad: { positiveThreshold: config.vadThreshold, endSilenceMs: config.endOfTurnMs,
          minSpeechMs: config.vadMinSpeechMs, prePaddingMs: config.vadPaddingMs },
        maxQueuedMs: config.audioMaxQueuedMs,
      });
      this.audio = audio;
      this.reader = this.read(audio);
      this.sendNames();
      return audio;
    })();
    return this.opening;
  }

  private async read(audio: AudioSession): Promise<void> {
    for await (const event of audio) {
      try {
        this.onEvent(event);
      } catch (err) {
        this.session.log.error({ err }, 'audio event failed');
      }
    }
  }

  private onEvent(e: AudioSessionEvent): void {
    const s = this.session;
    switch (e.type) {
      case 'speech_started': {
        const turnId = s.nextTurnId();
        this.turnIds.set(e.turnId, turnId);
        this.turnStarts.set(e.turnId, e.audioStartMs);
        s.send('vad.speech_started', { turn_id: turnId, audio_start_ms: e.audioStartMs });
        s.notify((l) => l.onSpeechStarted?.(turnId, e.audioStartMs));
        return;
      }
      case 'partial': {
        const turnId = this.turnIds.get(e.turnId);
        if (!turnId || e.text.trim() === '') return;
        s.send('transcript.partial', { turn_id: turnId, text: e.text });
        const lag = this.arrivals.secondsSince(e.atMs);
        if (lag !== null) this.deps.metrics.partialLag.observe(lag);
        s.notify((l) => l.onPartial?.(turnId, e.text));
        return;
      }
      case 'speech_stopped': {
        const turnId = this.turnIds.get(e.turnId);
        if (!turnId) return;
        s.send('vad.speech_stopped', { turn_id: turnId, audio_end_ms: e.audioEndMs, decided_at_ms: e.decidedAtMs, reason: e.reason });
        s.notify((l) => l.onSpeechStopped?.(turnId));
        return;
      }
      case 'final': {
        const turnId = this.turnIds.get(e.turnId);
        this.turnIds.delete(e.turnId);
        if (!turnId || e.text.trim() === '') {
          this.turnStarts.delete(e.turnId);
          return;
        }
        // Stored in arrival order with the session's other messages; `close(true)` stores any still
        // waiting itself, since `session.end` runs in that same queue ahead of them.
        const store = async (): Promise<void> => {
          if (this.unstored.delete(store)) {
            await this.storeFinal(turnId, e);
            this.turnStarts.delete(e.turnId);
          }
          if (this.namesSentAt !== null && performance.now() - this.namesSentAt >= NAMES_REFRESH_MS) this.sendNames();
        };
        this.unstored.add(store);
        s.enqueue(store);
        return;
      }
      case 'error':
        s.sendError(e.code, e.message, e.fatal);
    }
  }

  /**
   * The session's people changed (someone new spoke or was addressed, or was named): give the recogniser
   * its names again now, not at the next periodic refresh. Nothing before the audio opens (it reads them then).
   */
  namesChanged(): void {
    if (this.namesSentAt !== null) this.sendNames();
  }

  /**
   * Give the recogniser the names this session is likely to hear (`PARLEY_ASR_NAME_SPOTTING`, or
   * `PARLEY_MOONSHINE_NAMES` for streams on Moonshine): the first
   * names and aliases of the session's expected caller (pending external id) and of its speakers and
   * addressees so far, then the tenant's recently named participants (`SessionVocabulary`). Sent when the
   * audio opens, when the session's people change, and after a stored turn at most every
   * {@link NAMES_REFRESH_MS}, so aliases and the tenant's new names count too.
   */
  private sendNames(): void {
    const { config, stores } = this.deps;
    if (!favoursNames(config, this.format.sampleRate)) return;
    this.namesSentAt = performance.now();
    const reading = ++this.namesRead;
    const { tenant, pendingExternalId, vocabulary } = this.session;
    void (async () => {
      const expected = pendingExternalId ? await stores.graph.getParticipantByExternalId(tenant, pendingExternalId) : null;
      return vocabulary.names(expected ? [expected.id] : []);
    })().then((names) => {
      if (reading === this.namesRead) this.audio?.setNames(names);
    }, (err: unknown) => this.session.log.warn({ err: err instanceof Error ? err.message : String(err) }, 'could not read the session\'s names for the recogniser'));
  }

  private async storeFinal(turnId: string, e: Extract<AudioSessionEvent, { type: 'final' }>): Promise<void> {
    const { tenant, id: sessionId } = this.session;
    const speaker = await this.identify(e.audio, e.endMs - e.startMs);
    const utteranceId = `u_${crypto.randomUUID().replaceAll('-', '')}`;
    // Without the tenant's consent nothing voice-derived is kept: no audio span (and so no prosody).
    const audioRef = !voiceprintsAllowed(this.deps.config, tenant) ? null : await this.deps.models.audioSpans
      .write(tenant, sessionId, utteranceId, e.audio)
      .catch((err: Error) => {
        this.session.log.warn({ err: err.message }, 'could not keep the audio span');
        return null;
      });
    const [stored] = await this.deps.ingest.ingest(tenant, sessionId, [{
      id: utteranceId, speaker: speaker.participantId, text: e.text, startMs: e.startMs, endMs: e.endMs, turnId,
      confidence: e.confidence, audioRef, speakerConfidence: speaker.confidence, speakerIsNew: speaker.isNew,
    }]);
    if (!stored) return;
    this.deps.metrics.utterancesStored.inc({ source: 'voice' });
    await this.session.claimExternalId(stored.speaker.id);
    this.session.finalised(turnId, stored);
    const latency = this.arrivals.secondsSince(e.endMs);
    if (latency !== null) this.deps.metrics.finalLatency.observe(latency);
  }

  /**
   * Who spoke this audio: voice re-identification; a turn under SHORT_TURN_MS of speech only joins a
   * known voice or the previous one; the previous voice when the audio cannot be embedded.
   */
  private async identify(audio: Float32Array, speechMs: number): Promise<{ participantId: string; confidence: number; isNew: boolean }> {
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

  private report(err: ParleyError | undefined): void {
    if (err) this.session.sendError(err.code, err.message);
  }

  private fail(err: unknown): void {
    const { code, message } = toClientError(err);
    if (code === 'PARLEY_ERR_INTERNAL') this.session.log.error({ err }, 'audio pipeline failed to start');
    this.session.sendError(code, message);
  }
}
