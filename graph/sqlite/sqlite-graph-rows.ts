import type { Participant, SessionRecord, StreamClock, Utterance } from '../types.js';
import { fromJson } from './database.js';

// Rows of the graph's tables as SQLite returns them, and the records they become (SqliteGraphStore's).

export interface ParticipantRow {
  id: string; name: string | null; external_id: string | null; aliases: string; attributes: string; voiceprint_count: number;
  created_at: string; updated_at: string;
}
export interface UtteranceRow {
  id: string; session_id: string; seq: number; speaker_id: string; text: string;
  start_ms: number | null; end_ms: number | null; time: string; confidence: number | null;
  audio_ref: string | null; turn_id: string | null; heard_asr: string | null; heard_sample_rate: number | null;
  addressees: string | null;
}
export interface SessionRow {
  id: string; started_at: string; ended_at: string | null; metadata: string; last_event_seq: number; audio_stream_ms: number | null; active_at: string | null; stream_owner?: string | null; stream_clock?: string | null;
}

export const UTTERANCE_COLUMNS = `u.id, u.session_id, u.seq, u.speaker_id, u.text, u.start_ms, u.end_ms, u.time,
  u.confidence, u.audio_ref, u.turn_id, u.heard_asr, u.heard_sample_rate,
  (SELECT json_group_array(a.participant_id) FROM addresses a
     WHERE a.tenant = u.tenant AND a.utterance_id = u.id) AS addressees`;

export function toParticipant(row: ParticipantRow): Participant {
  return {
    id: row.id,
    name: row.name,
    externalId: row.external_id ?? null,
    aliases: fromJson<string[]>(row.aliases, []),
    attributes: fromJson<Record<string, unknown>>(row.attributes, {}),
    voiceprintCount: row.voiceprint_count,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** GLOB pattern of a string holding a character outside printable ASCII. */
export const NON_ASCII = '*[^ -~]*';

export function namesOf(p: Participant): string[] {
  return p.name ? [p.name, ...p.aliases] : p.aliases;
}

export function toUtterance(row: UtteranceRow): Utterance {
  return {
    id: row.id,
    sessionId: row.session_id,
    seq: row.seq,
    speakerId: row.speaker_id,
    addresseeIds: fromJson<string[]>(row.addressees, []).sort(),
    text: row.text,
    startMs: row.start_ms,
    endMs: row.end_ms,
    time: row.time,
    confidence: row.confidence,
    audioRef: row.audio_ref,
    ...(row.turn_id ? { turnId: row.turn_id } : {}),
    ...(row.heard_asr !== null && row.heard_sample_rate !== null ? { heardBy: { asr: row.heard_asr, sampleRate: row.heard_sample_rate } } : {}),
  };
}

export function toSession(row: SessionRow): SessionRecord {
  return {
    id: row.id,
    startedAt: row.started_at,
    endedAt: row.ended_at,
    metadata: fromJson<Record<string, unknown>>(row.metadata, {}),
    lastEventSeq: row.last_event_seq,
    audioStreamMs: row.audio_stream_ms ?? null,
    streamOwner: row.stream_owner ?? null,
    activeAt: row.active_at ?? null,
    streamClock: row.stream_clock ? fromJson<StreamClock | null>(row.stream_clock, null) : null,
  };
}
