/** The rows of the SQLite memory store's tables, and the facts and persona nodes they hold. */
import type { Fact, FactKind, FactLayer, PersonaKind, PersonaNode, PlanObject } from '../memory-store.js';
import { fromJson } from './database.js';

/** A `memory_facts` row as SQLite returns it. */
export interface FactRow {
  id: string; content: string; speaker_id: string; addressee_ids: string; subject_id: string;
  kind: string; layer: string; slot: string | null; value: string | null; time: string;
  refer_ids: string; valid_from: string; valid_to: string | null; supersedes: string | null;
  superseded_by: string | null; confidence: number; session_id: string; source: string;
  created_at: string; event_time: string | null; valid_until: string | null; plan_object: string | null;
}

/** A `memory_persona` row as SQLite returns it. */
export interface PersonaRow {
  id: string; participant_id: string; kind: string; target: string; valence: number;
  label: string | null; strength: number; evidence_count: number; evidence_ids: string;
  session_ids: string; first_seen: string; last_seen: string; stable: number; labels: string;
}

/** The fact a `memory_facts` row holds. */
export function toFact(r: FactRow): Fact {
  return {
    id: r.id, content: r.content, speakerId: r.speaker_id,
    addresseeIds: fromJson<string[]>(r.addressee_ids, []), subjectId: r.subject_id,
    kind: r.kind as FactKind, layer: r.layer as FactLayer, slot: r.slot, value: r.value,
    time: r.time, eventTime: r.event_time ?? null, referIds: fromJson<string[]>(r.refer_ids, []), validFrom: r.valid_from,
    validTo: r.valid_to, validUntil: r.valid_until ?? null,
    planObject: r.plan_object ? fromJson<PlanObject | null>(r.plan_object, null) : null, supersedes: r.supersedes, supersededBy: r.superseded_by,
    confidence: r.confidence, sessionId: r.session_id, source: r.source, createdAt: r.created_at,
  };
}

/** The persona node a `memory_persona` row holds. */
export function toPersona(r: PersonaRow): PersonaNode {
  return {
    id: r.id, participantId: r.participant_id, kind: r.kind as PersonaKind, target: r.target,
    valence: r.valence, label: r.label, strength: r.strength, evidenceCount: r.evidence_count,
    evidenceIds: fromJson<string[]>(r.evidence_ids, []),
    sessionIds: fromJson<string[]>(r.session_ids, []), firstSeen: r.first_seen,
    lastSeen: r.last_seen, stable: r.stable === 1,
  };
}
