/**
 * Core records of Parley's memory model. Every record belongs to exactly one tenant; stores scope
 * every read and write by the tenant id they are given.
 */

/** A tenant id: `default` without API keys, else the tenant bound to the caller's key. */
export type TenantId = string;

/** A person Parley has heard or been told about. Ids are opaque (`p_…`). */
export interface Participant {
  id: string;
  /** Display name, once known (self-introduction, repeated address, or PATCH). */
  name: string | null;
  /**
   * The application's own id for this person (phone number, CRM id), unique per tenant; null when
   * none was given (session start, `participant.identify`, or PATCH).
   */
  externalId: string | null;
  aliases: string[];
  /** Background and preference attributes (free-form, JSON-serialisable). */
  attributes: Record<string, unknown>;
  /** Number of stored voiceprints linked to this participant. */
  voiceprintCount: number;
  /** ISO-8601 times. */
  createdAt: string;
  updatedAt: string;
}

/** A stored utterance: the raw evidence of the interaction memory. */
export interface Utterance {
  id: string;
  sessionId: string;
  /** `participant -SPEAKS-> utterance`. */
  speakerId: string;
  /** `utterance -ADDRESSES-> participant`, a set. */
  addresseeIds: string[];
  text: string;
  /** Span relative to the start of the session's audio, in milliseconds; null for text-only input. */
  startMs: number | null;
  endMs: number | null;
  /** Wall-clock time (ISO-8601) the utterance was spoken. */
  time: string;
  /** ASR confidence in [0, 1]; null when the text came from the client. */
  confidence: number | null;
  /** Where the utterance's audio span is kept, if it is (e.g. `audio/<session>/<utterance>.wav`). */
  audioRef: string | null;
  /** Position within the session, 1-based, assigned by the store. */
  seq: number;
  /**
   * The `/v1/stream` turn that stored it (`transcript.final`'s `turn_id`), so a resend of its
   * `utterance_id` is acknowledged with the same turn after a restart too; absent for utterances
   * stored over HTTP or before this was kept.
   */
  turnId?: string;
  /**
   * The recogniser that heard it and the rate its audio came at, for decisions that depend on both (the doubtful-speech
   * gate, `minAsrConfidenceFor`); absent for text from a client and for utterances stored before this was kept.
   */
  heardBy?: HeardBy;
}

/** Which recogniser heard a turn, from audio at which rate. */
export interface HeardBy {
  /** The recogniser (`StreamingAsr.name`): `pocketsphinx`, `moonshine`, `sherpa-onnx`, `openai`. */
  asr: string;
  /** The stream's sample rate as declared, Hz (8000: a phone line). */
  sampleRate: number;
}

/** A live or finished conversation. */
export interface SessionRecord {
  id: string;
  startedAt: string;
  endedAt: string | null;
  /** Free-form settings from `session.update`. */
  metadata: Record<string, unknown>;
  /** Last `seq` sent to the client, so a resumed session continues the numbering. */
  lastEventSeq: number;
  /**
   * Where the session's latest `/v1/stream` audio stream begins on its transcript clock (the `startMs` /
   * `endMs` of its stored utterances), ms, recorded before that stream stores anything; null before the
   * first stream (or when written by an older version). With the stored turns it tells a resume after a
   * crash where on that stream nothing is stored.
   */
  audioStreamMs: number | null;
  /**
   * When a `/v1/stream` client was last seen on the session (ISO-8601): its connect and its disconnect, and,
   * while one is connected, every idle sweep of the server holding it. Null for a session never streamed.
   */
  activeAt: string | null;
  /**
   * The live session (an id it made) that holds the session's audio stream: the last to take it over
   * (`GraphStore.takeAudioStream`: a connection to a server the session was not live on). Only its turns are
   * stored (`addUtterances` with `streamOwner`), so two servers each holding a socket of the session never both
   * store a turn. Null before the first stream (or when written by an older version).
   */
  streamOwner: string | null;
  /**
   * The conversation clock of the latest audio stream, recorded with its start (`GraphStore.startAudioStream`): null
   * when that stream's connection gave no `start_time` (or when written by an older version). A session resumed on
   * another live session (a restart, another server) with the same `start_time` goes on with it.
   */
  streamClock: StreamClock | null;
}

/**
 * A `/v1/stream` connection's `start_time` as the transcript clock holds it: a turn starting at `startMs` on the
 * session's transcript clock happened at `startTime + startMs - baseMs` (ms since the epoch).
 */
export interface StreamClock {
  /** The connection's `start_time`, ms since the epoch. */
  startTime: number;
  /** Where on the transcript clock (ms) that `start_time` counts from: where its connection's audio began. */
  baseMs: number;
}
