import type { Participant, SessionRecord, StreamClock, Utterance } from '../types.js';
import { toNum } from './neo4j-connection.js';
import type { Props } from './neo4j-store-base.js';

// The records the Neo4j graph store returns, from the properties of its nodes (`RETURN n {.*}`).

export function toParticipant(p: Props): Participant {
  return {
    id: String(p.id), name: (p.name as string | undefined) ?? null,
    externalId: (p.externalId as string | undefined) ?? null, aliases: (p.aliases as string[] | undefined) ?? [],
    attributes: JSON.parse((p.attributes as string | undefined) ?? '{}') as Record<string, unknown>,
    voiceprintCount: toNum(p.voiceprintCount ?? 0), createdAt: String(p.createdAt), updatedAt: String(p.updatedAt),
  };
}

export function toUtterance(u: Props): Utterance {
  const num = (v: unknown) => (v === undefined || v === null ? null : toNum(v));
  return {
    id: String(u.id), sessionId: String(u.sessionId), seq: toNum(u.seq), speakerId: String(u.speakerId),
    addresseeIds: [...((u.addresseeIds as string[] | undefined) ?? [])].sort(), text: String(u.text),
    startMs: num(u.startMs), endMs: num(u.endMs), time: String(u.time), confidence: num(u.confidence),
    audioRef: (u.audioRef as string | undefined) ?? null,
    ...(typeof u.turnId === 'string' ? { turnId: u.turnId } : {}),
    ...(typeof u.heardAsr === 'string' && u.heardSampleRate !== undefined && u.heardSampleRate !== null
      ? { heardBy: { asr: u.heardAsr, sampleRate: toNum(u.heardSampleRate) } } : {}),
  };
}

export function toSession(s: Props): SessionRecord {
  return {
    id: String(s.id), startedAt: String(s.startedAt), endedAt: (s.endedAt as string | undefined) ?? null,
    metadata: JSON.parse((s.metadata as string | undefined) ?? '{}') as Record<string, unknown>,
    lastEventSeq: toNum(s.lastEventSeq ?? 0),
    audioStreamMs: s.audioStreamMs === undefined || s.audioStreamMs === null ? null : toNum(s.audioStreamMs),
    activeAt: (s.activeAt as string | undefined) ?? null,
    streamOwner: (s.streamOwner as string | undefined) ?? null,
    streamClock: typeof s.streamClock === 'string' ? JSON.parse(s.streamClock) as StreamClock : null,
  };
}
