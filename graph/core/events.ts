/** Server → client events on `GET /v1/stream` (every frame also carries `type`, `session_id`, `seq`). */

export interface ParticipantRefJson {
  id: string;
  name: string | null;
}

/** Memory layers an item can come from (`relation`: a fact of kind relation, "Ana's sister is Eva"). */
export type MemoryLayer = 'interaction' | 'fact' | 'profile' | 'persona' | 'relation';

/**
 * A retrieved memory, as `memory.context`, `query.result` and `POST /v1/query` return it. Every layer
 * has the same shape: turns (`interaction`), facts, profiles, relations and persona nodes.
 */
export interface MemoryItem {
  id: string;
  layer: MemoryLayer;
  text: string;
  speaker: ParticipantRefJson;
  addressees: ParticipantRefJson[];
  /** Source utterance ids (a turn: its own id). */
  refer_ids: string[];
  session_id: string | null;
  time: string | null;
  /** ISO-8601 from when the memory holds (a turn: when it was said; a fact: when it was stated), or null. */
  valid_from: string | null;
  /**
   * ISO-8601 when a newer memory replaced or retracted it, or the end a fact carries by its own words
   * ("I can't lift heavy things for a month": `valid_from` + 1 month; may lie ahead); null while it
   * holds with no end.
   */
  valid_to: string | null;
  /**
   * True when a newer memory replaced or retracted this one (a closed fact, or a turn all of whose
   * facts are closed), or when its own end (`valid_to`) has passed. Superseded items are dropped when
   * the question asks about now and ranked first when it asks about the past.
   */
  superseded: boolean;
  /**
   * When what the item tells of happens or happened, as its own words date it: an ISO date (`YYYY-MM-DD`; a week, "last
   * week": its Monday), or `YYYY-MM` when only the month is known. A fact: the date it was stated with (its
   * `event_time`); a turn: the first date its words name, resolved against when it was said ("last Friday", "in May");
   * null when undated, and for a persona node. Not when it was said (`time`).
   */
  event_time: string | null;
  /**
   * A fact, profile or relation item: the words of the turns it was drawn from, as said (so what
   * the distilled text leaves out is still there); null for a turn (its text is the turn) and a persona node.
   */
  source_text: string | null;
  /** Orders the items of one answer only: a question memory cannot answer still has a best item. */
  score: number;
  /**
   * How likely the item answers the question, in [0, 1], comparable across questions (words of the question it holds,
   * dense similarity, named participant): set on query answers (`POST /v1/query`, `query.result`, `query_memory`).
   */
  relevance?: number;
}

export interface ServerEventPayloads {
  /**
   * `unstored_from_ms`: on a resume that starts a new audio stream (after a crash, a restart, the resume
   * window, on another server), where on the previous audio stream (ms into it) nothing is stored.
   */
  'session.started': { config: Record<string, unknown>; resumed: boolean; unstored_from_ms?: number };
  'session.updated': { session: Record<string, unknown> };
  'vad.speech_started': { turn_id: string; audio_start_ms: number };
  'vad.speech_stopped': {
    turn_id: string;
    /** Where the speech ended. */
    audio_end_ms: number;
    /** Session audio position at which the end of turn was decided (speech end + silence, or commit). */
    decided_at_ms: number;
    /** `overload`: audio after the turn was shed, so it ended where that audio begins (at `audio_end_ms`). */
    reason: 'silence' | 'commit' | 'max_turn' | 'overload';
  };
  /**
   * Audio of the stream shed under overload and never heard, sent when an overload episode ends (or the stream
   * closes during one): `spans` exactly, each `[from_ms, until_ms)` on the stream clock; `shed_from_ms` /
   * `shed_until_ms` where the first begins and the last ends.
   */
  'audio.shed': { shed_from_ms: number; shed_until_ms: number; spans: { from_ms: number; until_ms: number }[] };
  'transcript.partial': { turn_id: string; text: string };
  'transcript.final': {
    turn_id: string;
    utterance_id: string;
    text: string;
    start_ms: number | null;
    end_ms: number | null;
    confidence: number | null;
    speaker: { id: string; name: string | null; confidence: number; is_new: boolean };
    addressees: ParticipantRefJson[];
    /** A typed utterance whose speaker label is a role, not a person (`roleLabelWarnings`); absent when none. */
    warnings?: string[];
  };
  'memory.context': {
    turn_id: string;
    speculative: boolean;
    items: MemoryItem[];
    timings: { match_ms: number; expand_ms: number; search_ms: number; total_ms: number };
    ready_at_ms: number;
  };
  /**
   * `reason`: absent for an ordinary decision; `speaker_revised` for what a moved turn withdrew or made current again;
   * `forgotten` for what forgetting utterances removed (text empty) or made current again.
   */
  'memory.updated': { ops: { op: 'ADD' | 'UPDATE' | 'DELETE' | 'KEEP'; memory_id: string; text: string; reason?: 'speaker_revised' | 'forgotten' }[] };
  'speaker.merged': { from: string; into: string };
  /** One stored utterance of this session now belongs to `into` (the first-turn revision, `PARLEY_SPEAKER_REVISE`). */
  'speaker.revised': { utterance_id: string; from: string; into: string };
  /**
   * Answer to `participant.identify`: the participant now holding the external id, or null while it
   * waits for the session's first speaker.
   */
  'participant.identified': { external_id: string; participant: { id: string; name: string | null; external_id: string | null } | null };
  'query.result': { id: string; evidence: MemoryItem[]; answerable: boolean; rounds: number; timings: Record<string, number> };
  /**
   * `unstored_from_ms`: on `PARLEY_ERR_SHUTTING_DOWN`, where the audio the server did not store begins.
   * `dropped`: on `PARLEY_ERR_OVERLOADED` of a full message queue, the client message it dropped.
   * `id`: on any error that answers a `query` (refused, failed or dropped), that query's `id`: no `query.result` comes for it.
   */
  error: {
    code: string; message: string; fatal: boolean; unstored_from_ms?: number; shed_from_ms?: number;
    id?: string;
    dropped?: {
      /** The client message's `type`. */
      type: string;
      /** Its `utterance_id`, when it had one (`utterance`, `query`). */
      utterance_id?: string;
      /** A `query`'s `id`. */
      id?: string;
    };
  };
  'session.ended': Record<string, never>;
}

export type ServerEventType = keyof ServerEventPayloads;
