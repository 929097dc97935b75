import { ParleyError, toClientError } from '../../graph/core/errors.js';
import type { AudioSessionEvent } from '../../pipelines/audio/audio-events.js';
import { validateFrame, type StreamFormat } from '../../pipelines/audio/audio-format.js';
import { createAudioSession, MAX_CATCH_UP_MS, type AudioSession } from '../../pipelines/audio/audio-session.js';
import { decodePcm } from '../../pipelines/audio/pcm-codecs.js';
import { voiceprintsAllowed } from '../config.js';
import { favoursNames } from '../plugins/models.js';
import { ArrivalClock } from './arrival-clock.js';
import { storedTranscriptEndMs } from './stream-frontier.js';
import { UnstoredAudio } from './unstored-audio.js';
import { SessionSpeakers, type SpeakerAssignment } from './session-speakers.js';
import { bandOf } from '../../pipelines/speaker/voice-bands.js';
import { isStreamTakenOver } from '../../graph/stream-owner.js';
import { retryTransient } from '../../graph/transient-retry.js';
import type { RetiredChange, VoiceTurnsDeps, VoiceTurnsHost } from './voice-turns-host.js';


/** Least time between two readings of the tenant's names for the recogniser when the session's people did not change, ms. */
export const NAMES_REFRESH_MS = 10_000;

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
  /**
   * True while `close(true)` (session.end) finishes the open turn: frames arriving then are dropped, since
   * opening a new audio stream under the closing one left `close` waiting on a reader that never ends.
   */
  private ending = false;
  private droppedWhileEnding = false;
  /** Set by `finishForShutdown`: frames are dropped silently (the closing error names where they start). */
  private shuttingDown = false;
  /** Set by `seal` when the shutdown grace is over: no further turn is stored. */
  private sealed = false;
  /** The turn being stored (ingest and `transcript.final`; one at a time, in order), until it settles. */
  private storing: Promise<void> | null = null;
  /** What of the current stream is not stored: where a resend after shutdown must begin. */
  private readonly unstoredAudio = new UnstoredAudio();
  /** Audio turn number → the session's turn id. */
  private readonly turnIds = new Map<number, string>();
  /** When the names were last sent to the recogniser (`performance.now()`); null before the first time. */
  private namesSentAt: number | null = null;
  /** Number of the latest names reading: an earlier one that resolves later is dropped. */
  private namesRead = 0;
  /** When the current audio stream's audio arrived (one clock per stream: its positions start at 0 again). */
  private arrivals: ArrivalClock;
  /** Connections the session has had since this object was made, and the one its audio stream last took frames from. */
  private connections = 0;
  private audioConnection = 0;
  /** Where the current audio stream begins on the transcript clock (the stored transcript's end when it opened). */
  private streamOffsetMs = 0;
  /** Whether the current connection resumed the session: a new audio stream then allows for audio held during the outage. */
  private resumedConnection = false;
  /**
   * The latest `end_ms` of a turn this object stored or is storing, on the transcript clock (see
   * {@link transcriptOffset}); 0 before the first.
   */
  private lastEndMs = 0;
  /** The last refusal of a stream's start reported to the client (one report for all the frames that waited). */
  private refusedStart: StreamStartRefused | null = null;
  /** Who speaks: voice re-identification, and the end-of-session merge of fragmented voice ids. */
  private readonly speakers: SessionSpeakers;

  constructor(private readonly session: VoiceTurnsHost, private readonly deps: VoiceTurnsDeps, private format: StreamFormat) {
    this.speakers = new SessionSpeakers(session, deps);
    this.arrivals = new ArrivalClock(deps.audioNow);
  }

  /**
   * Take one binary frame; bad frames are reported to the client and the session goes on. `arrivedAt`
   * (`VoiceTurnsDeps.audioNow`): when a frame held before it reached here came in; default now. Held frames, and
   * those waiting here for the audio stream to open, are taken later than they arrived: the overload guard counts
   * them as held audio, not as the workers falling behind.
   */
  push(frame: Buffer, arrivedAt?: number): void {
    // Shutting down, or this connection's stream was refused at its start (a reconnect tries again).
    if (this.shuttingDown || this.refusedStart !== null) return;
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
    const now = this.deps.audioNow();
    const at = arrivedAt ?? now;
    if (this.audio) {
      this.pushTo(this.audio, frame, at, now);
      return;
    }
    void this.open().then((audio) => this.pushTo(audio, frame, at, this.deps.audioNow()), (err: unknown) => this.fail(err));
  }

  private pushTo(audio: AudioSession, frame: Buffer, at: number, takenAt: number): void {
    if (this.audioConnection !== this.connections) {
      // The first frame of a new connection to this same stream: it may catch up on what its client held meanwhile.
      this.audioConnection = this.connections;
      this.session.connectionAudioStarts(this.streamOffsetMs + audio.positionMs);
      audio.resumed();
    }
    const shedBefore = audio.shedMs;
    this.report(audio.push(frame, at, takenAt));
    this.arrivals.record(audio.positionMs, at);
    const shed = audio.shedMs - shedBefore;
    if (shed > 0) this.deps.metrics.audioShed.inc(shed / 1000);
  }

  /** `input.commit`: end the open turn now. */
  commit(): void {
    this.audio?.commit();
  }

  /** A socket (re)connected to the session; `resumed` as in its `session.started`. */
  connected(resumed: boolean): void {
    this.connections += 1;
    this.refusedStart = null;
    this.resumedConnection = resumed;
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
    if (audio) this.unstoredAudio.cut(audio.positionMs);
    await this.close(true);
  }

  /**
   * Shutdown grace over: store no further turn, and wait (at most `timeoutMs`) for the turn being
   * stored to settle, stored and acknowledged or failed, so that {@link unstoredFromMs} names exactly
   * the turns not stored: a resend from there stores nothing twice. Returns false when that turn had
   * not settled in time (it is then named, though its store may still land).
   */
  async seal(timeoutMs: number): Promise<boolean> {
    this.sealed = true;
    const storing = this.storing;
    if (!storing) return true;
    let timer: NodeJS.Timeout | undefined;
    const settled = await Promise.race([
      storing.then(() => true, () => true),
      new Promise<boolean>((resolve) => {
        if (Number.isFinite(timeoutMs)) timer = setTimeout(() => resolve(false), timeoutMs);
      }),
    ]);
    clearTimeout(timer);
    return settled;
  }

  /**
   * Where the audio this session did not store begins, in ms into the stream (the clock of
   * `audio_start_ms`): see {@link UnstoredAudio.fromMs} (turns not stored, audio shed since the last stored turn,
   * the shutdown's cut); null while there is none and audio is still taken.
   */
  unstoredFromMs(): number | null {
    return this.unstoredAudio.fromMs();
  }

  /** End-of-session conservative merge of fragmented voice ids; emits `speaker.merged`. */
  mergeSpeakers(): Promise<void> {
    return this.speakers.merge();
  }

  /** Who speaks learns of a merge or an erasure made elsewhere (see `LiveSession.participantRetired`). */
  participantRetired(change: RetiredChange): Promise<void> {
    return 'erasedKey' in change ? this.speakers.participantErased(change.erasedKey) : this.speakers.participantMerged(change.from, change.into);
  }

  private open(): Promise<AudioSession> {
    if (this.opening) return this.opening;
    const opening = (async () => {
      const { config, models } = this.deps;
      const offsetMs = await this.transcriptOffset();
      await this.recordStreamStart(offsetMs);
      const audio = await createAudioSession({
        format: this.format,
        pool: await models.inference(),
        vad: { positiveThreshold: config.vadThreshold, endSilenceMs: config.endOfTurnMs,
          minSpeechMs: config.vadMinSpeechMs, prePaddingMs: config.vadPaddingMs, gainControl: config.vadAgc },
        maxQueuedMs: config.audioMaxQueuedMs,
        // A session resumed on a new stream: its client may resend and catch up on audio from an outage not seen here.
        catchUpMs: this.resumedConnection ? MAX_CATCH_UP_MS : 0,
      });
      this.audioConnection = this.connections;
      this.streamOffsetMs = offsetMs;
      this.session.connectionAudioStarts(offsetMs);
      const arrivals = new ArrivalClock(this.deps.audioNow);
      this.arrivals = arrivals;
      this.audio = audio;
      this.unstoredAudio.newStream(audio.shed);
      this.reader = this.read(audio, offsetMs, arrivals);
      this.sendNames();
      return audio;
    })();
    this.opening = opening;
    // A stream refused at its start is opened afresh by the next frame (after a reconnect).
    opening.catch(() => {
      if (this.opening === opening) this.opening = null;
    });
    return opening;
  }

  /**
   * Where a new audio stream's turns begin on the session's transcript clock (`start_ms` / `end_ms` of its
   * stored utterances), ms: after the latest `end_ms` the session stored, so a session resumed with a new
   * stream (after its resume window, a restart, on another server, or in another format) goes on from where
   * its transcript ended instead of at 0 again. The time no audio came is not counted. 0 for a new session.
   */
  private async transcriptOffset(): Promise<number> {
    try {
      return Math.max(this.lastEndMs, await storedTranscriptEndMs(this.deps.stores.graph, this.session.tenant, this.session.id));
    } catch (err) {
      this.session.log.warn({ err: err instanceof Error ? err.message : String(err) }, 'could not read where the stored transcript ends');
      return this.lastEndMs;
    }
  }

  /**
   * Record durably where the new audio stream begins on the transcript clock, before it can store a turn:
   * with the turns it stores, that tells a session resumed after a crash from where on this stream nothing
   * is stored (`unstoredStreamFromMs`). A transient store failure (a busy file, a Neo4j leader change) is tried
   * again a few times (`retryTransient`); a stream whose start still cannot be recorded does not open (a later
   * crash would name the audio to resend from too late): `PARLEY_ERR_STORE_UNAVAILABLE`, fatal to the connection,
   * which may reconnect to try again. When another live session took the stream over meanwhile, nothing is
   * recorded and this one stops (`takenOver`).
   */
  private async recordStreamStart(offsetMs: number): Promise<void> {
    const { tenant, id, streamOwner } = this.session;
    let started: boolean;
    try {
      started = await retryTransient(() => this.deps.stores.graph.startAudioStream(tenant, id, streamOwner, offsetMs, this.session.streamClock(offsetMs)), {
        onRetry: (err, tried) => this.session.log.warn({ err: err instanceof Error ? err.message : String(err), tried },
          'could not record where the audio stream begins; trying again'),
      });
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      this.session.log.warn({ err: why }, 'could not record where the audio stream begins');
      throw new StreamStartRefused('PARLEY_ERR_STORE_UNAVAILABLE',
        `could not record where this audio stream begins, so it was not opened (a crash could not name the audio to resend); reconnect to try again: ${why}`);
    }
    if (!started) {
      this.session.takenOver();
      throw new StreamStartRefused('PARLEY_ERR_SESSION_BUSY', 'the session\'s audio stream was taken over by another connection');
    }
  }

  private async read(audio: AudioSession, offsetMs: number, arrivals: ArrivalClock): Promise<void> {
    for await (const event of audio) {
      try {
        this.onEvent(event, offsetMs, arrivals);
      } catch (err) {
        this.session.log.error({ err }, 'audio event failed');
      }
    }
  }

  /** One event of an audio stream whose turns begin at `offsetMs` on the transcript clock and whose audio arrived as `arrivals` says. */
  private onEvent(e: AudioSessionEvent, offsetMs: number, arrivals: ArrivalClock): void {
    const s = this.session;
    switch (e.type) {
      case 'speech_started': {
        const turnId = s.nextTurnId();
        this.turnIds.set(e.turnId, turnId);
        this.unstoredAudio.turnStarted(e.turnId, e.audioStartMs);
        s.send('vad.speech_started', { turn_id: turnId, audio_start_ms: e.audioStartMs });
        s.notify((l) => l.onSpeechStarted?.(turnId, e.audioStartMs));
        return;
      }
      case 'partial': {
        const turnId = this.turnIds.get(e.turnId);
        if (!turnId || e.text.trim() === '') return;
        s.send('transcript.partial', { turn_id: turnId, text: e.text });
        const lag = arrivals.secondsSince(e.atMs);
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
          // No transcript.final for a turn recognised as no words (docs/PROTOCOL.md): the log says which turn it was.
          if (turnId) s.log.info({ turnId, startMs: offsetMs + e.startMs, endMs: offsetMs + e.endMs }, 'turn recognised as no words: not stored, no transcript.final');
          this.unstoredAudio.turnDropped(e.turnId);
          return;
        }
        if (e.fromPartial) s.log.info({ turnId }, 'the recogniser\'s final had no words: the turn is stored with its latest partial text');
        // Stored in arrival order with the session's other messages; `close(true)` stores any still
        // waiting itself, since `session.end` runs in that same queue ahead of them.
        this.lastEndMs = Math.max(this.lastEndMs, offsetMs + e.endMs);
        const store = async (): Promise<void> => {
          if (this.unstored.delete(store)) await this.storeFinal(turnId, e, offsetMs, arrivals);
          if (this.namesSentAt !== null && performance.now() - this.namesSentAt >= NAMES_REFRESH_MS) this.sendNames();
        };
        this.unstored.add(store);
        s.enqueue(store);
        return;
      }
      case 'audio_shed':
        s.send('audio.shed', { shed_from_ms: e.fromMs, shed_until_ms: e.untilMs, spans: e.spans.map((x) => ({ from_ms: x.fromMs, until_ms: x.untilMs })) });
        return;
      case 'error':
        s.sendError(e.code, e.message, e.fatal, e.shedFromMs === undefined ? {} : { shed_from_ms: e.shedFromMs });
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

  private async storeFinal(turnId: string, e: Extract<AudioSessionEvent, { type: 'final' }>, offsetMs: number, arrivals: ArrivalClock): Promise<void> {
    if (this.sealed) return;
    if (this.session.ended) {
      // The end stores every turn recognised before it; one recognised after it is refused, not stored into the ended session.
      this.session.sendError('PARLEY_ERR_SESSION_ENDED', `a turn recognised after session ${this.session.id} ended was not stored`);
      return;
    }
    const speaker = await this.speakers.identify(e.audio, e.endMs - e.startMs, bandOf(this.format.sampleRate));
    // From here the turn is stored (and acknowledged) or it is not, and `seal` waits to know which.
    if (this.sealed) return;
    const storing = this.commitFinal(turnId, e, speaker, offsetMs, arrivals);
    this.storing = storing;
    try {
      await storing;
    } catch (err) {
      // Another live session (perhaps on another server) holds the stream now: it names this turn for a resend.
      if (!isStreamTakenOver(err)) throw err;
      this.session.takenOver();
    } finally {
      if (this.storing === storing) this.storing = null;
    }
  }

  private async commitFinal(
    turnId: string, e: Extract<AudioSessionEvent, { type: 'final' }>, speaker: SpeakerAssignment, offsetMs: number, arrivals: ArrivalClock,
  ): Promise<void> {
    const { tenant, id: sessionId } = this.session;
    const utteranceId = `u_${crypto.randomUUID().replaceAll('-', '')}`;
    // Without the tenant's consent nothing voice-derived is kept: no audio span (and so no prosody).
    const audioRef = !voiceprintsAllowed(this.deps.config, tenant) ? null : await this.deps.models.audioSpans
      .write(tenant, sessionId, utteranceId, e.audio)
      .catch((err: Error) => {
        this.session.log.warn({ err: err.message }, 'could not keep the audio span');
        return null;
      });
    // A connection with a `start_time` (a replayed conversation): the turn happened as far after it as it starts into that connection's audio.
    // Else when its first audio arrived, not when it is stored (after the end of speech and ASR): a text utterance
    // sent while the turn was spoken is stored at a later time than the turn, as it was said.
    const at = this.session.turnTime(offsetMs + e.startMs) ?? heardAt(arrivals, e.startMs, this.deps.audioNow(), this.deps.clock());
    const time = at !== undefined ? { time: at } : {};
    // What heard it decides how doubtful its confidence is (`minAsrConfidenceFor`): the recogniser the worker decoded it
    // with, as its final says (the one chosen when the pool started, whatever the models folder holds now).
    const heardBy = { asr: e.asr, sampleRate: this.format.sampleRate };
    const ingest = (said: SpeakerAssignment) => this.deps.ingest.ingest(tenant, sessionId, [{
      id: utteranceId, speaker: said.participantId, text: e.text, startMs: offsetMs + e.startMs, endMs: offsetMs + e.endMs, turnId, ...time,
      confidence: e.confidence, heardBy, audioRef, speakerConfidence: said.confidence, speakerIsNew: said.isNew,
    }], { streamOwner: this.session.streamOwner });
    // Refused because its speaker was erased meanwhile: stored once more, as said by the voice identified again.
    let said = speaker;
    const [stored] = await ingest(speaker).catch(async (err: unknown) => {
      const again = await this.speakers.afterErasedSpeaker(err, speaker, e.audio, e.endMs - e.startMs, bandOf(this.format.sampleRate));
      if (!again) throw err;
      said = again;
      return ingest(again);
    });
    this.unstoredAudio.turnStored(e.turnId, e.endMs);
    if (!stored) return;
    this.deps.metrics.utterancesStored.inc({ source: 'voice' });
    this.speakers.stored(said, stored.utterance.id);
    await this.session.claimExternalId(stored.speaker.id);
    this.session.finalised(turnId, stored);
    await this.speakers.revise(said);
    const latency = arrivals.secondsSince(e.endMs);
    if (latency !== null) this.deps.metrics.finalLatency.observe(latency);
  }

  private report(err: ParleyError | undefined): void {
    if (err) this.session.sendError(err.code, err.message);
  }

  private fail(err: unknown): void {
    if (err instanceof StreamStartRefused) {
      // Every frame that waited for the stream to open fails with it: the connection is told once.
      if (this.refusedStart === err) return;
      this.refusedStart = err;
      if (err.code !== 'PARLEY_ERR_SESSION_BUSY') this.session.sendError(err.code, err.message, true);
      return;
    }
    const { code, message } = toClientError(err);
    if (code === 'PARLEY_ERR_INTERNAL') this.session.log.error({ err }, 'audio pipeline failed to start');
    this.session.sendError(code, message);
  }
}

/**
 * When the audio at `positionMs` of a stream arrived, as wall-clock ISO-8601: `wallNow` (the app's clock) less how long
 * ago it arrived on the audio clock (`audioNow` now, the arrival on it); undefined when the clock no longer knows (the
 * turn is then stored at the time it is stored).
 */
function heardAt(arrivals: ArrivalClock, positionMs: number, audioNow: number, wallNow: number): string | undefined {
  const arrived = arrivals.arrivalOf(positionMs);
  return arrived === null ? undefined : new Date(wallNow - Math.max(0, audioNow - arrived)).toISOString();
}

/** A new audio stream that did not open because its start could not be recorded as its own (see `recordStreamStart`). */
class StreamStartRefused extends ParleyError {}
