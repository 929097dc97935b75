import type { PersonaEvidence, PersonaKind, PersonaNode } from '../memory-store.js';
import { int, toNum } from './neo4j-connection.js';
import { optString, stringList, type Props } from './neo4j-store-base.js';

/** Most evidence utterance ids kept per persona node (as in the SQLite store). */
export const MAX_EVIDENCE_IDS = 50;

/** A persona node's mutable state, read from and written back to a `(:PersonaNode)`. */
export interface PersonaState extends Pick<PersonaNode,
  'valence' | 'strength' | 'evidenceCount' | 'evidenceIds' | 'sessionIds' | 'firstSeen' | 'lastSeen' | 'stable'> {
  /** Per-label evidence counts (stored as a JSON string: properties cannot hold maps). */
  labels: Record<string, number>;
}

export function toPersona(p: Props): PersonaNode {
  return {
    id: String(p.id), participantId: String(p.participantId), kind: String(p.kind) as PersonaKind,
    target: String(p.target), valence: toNum(p.valence ?? 0), label: optString(p.label),
    strength: toNum(p.strength ?? 0), evidenceCount: toNum(p.evidenceCount ?? 0),
    evidenceIds: stringList(p.evidenceIds), sessionIds: stringList(p.sessionIds),
    firstSeen: String(p.firstSeen ?? ''), lastSeen: String(p.lastSeen ?? ''), stable: p.stable === true,
  };
}

export function personaState(p: Props): PersonaState {
  const node = toPersona(p);
  return {
    valence: node.valence, strength: node.strength, evidenceCount: node.evidenceCount,
    evidenceIds: node.evidenceIds, sessionIds: node.sessionIds, firstSeen: node.firstSeen, lastSeen: node.lastSeen,
    labels: JSON.parse(typeof p.labels === 'string' && p.labels ? p.labels : '{}') as Record<string, number>,
    stable: node.stable,
  };
}

/** The label seen most often, given per-label counts. */
function dominantLabel(counts: Record<string, number>): string | null {
  let best: string | null = null;
  for (const [label, n] of Object.entries(counts)) if (best === null || n > (counts[best] ?? 0)) best = label;
  return best;
}

/** Parameters for `SET n += $props`: the state as Neo4j properties. */
export function stateProps(s: PersonaState): Props {
  return {
    valence: s.valence, strength: s.strength, evidenceCount: int(s.evidenceCount),
    evidenceIds: s.evidenceIds.slice(-MAX_EVIDENCE_IDS), sessionIds: s.sessionIds, firstSeen: s.firstSeen,
    lastSeen: s.lastSeen, labels: JSON.stringify(s.labels), label: dominantLabel(s.labels), stable: s.stable,
  };
}

/** The state of a node whose first evidence is `e`. */
export function firstEvidence(e: PersonaEvidence): PersonaState {
  return {
    valence: e.valence, strength: e.strength, evidenceCount: 1, evidenceIds: [e.utteranceId], sessionIds: [e.sessionId],
    firstSeen: e.time, lastSeen: e.time, labels: e.label ? { [e.label]: 1 } : {}, stable: false,
  };
}

/** `s` with one more observation (running means, capped evidence ids, distinct sessions). */
export function addEvidence(s: PersonaState, e: PersonaEvidence): PersonaState {
  const n = s.evidenceCount + 1;
  const labels = { ...s.labels };
  if (e.label) labels[e.label] = (labels[e.label] ?? 0) + 1;
  return {
    valence: (s.valence * s.evidenceCount + e.valence) / n, strength: (s.strength * s.evidenceCount + e.strength) / n,
    evidenceCount: n, evidenceIds: [...s.evidenceIds, e.utteranceId].slice(-MAX_EVIDENCE_IDS),
    sessionIds: [...new Set([...s.sessionIds, e.sessionId])],
    firstSeen: e.time < s.firstSeen ? e.time : s.firstSeen, lastSeen: e.time > s.lastSeen ? e.time : s.lastSeen,
    labels, stable: s.stable,
  };
}

/** Two nodes of one (kind, target) merged when their participants are merged. */
export function mergeStates(into: PersonaState, from: PersonaState): PersonaState {
  const n = into.evidenceCount + from.evidenceCount;
  const labels = { ...into.labels };
  for (const [l, c] of Object.entries(from.labels)) labels[l] = (labels[l] ?? 0) + c;
  return {
    valence: n === 0 ? 0 : (into.valence * into.evidenceCount + from.valence * from.evidenceCount) / n,
    strength: n === 0 ? 0 : (into.strength * into.evidenceCount + from.strength * from.evidenceCount) / n,
    evidenceCount: n, evidenceIds: [...into.evidenceIds, ...from.evidenceIds].slice(-MAX_EVIDENCE_IDS),
    sessionIds: [...new Set([...into.sessionIds, ...from.sessionIds])],
    firstSeen: into.firstSeen < from.firstSeen ? into.firstSeen : from.firstSeen,
    lastSeen: into.lastSeen > from.lastSeen ? into.lastSeen : from.lastSeen,
    labels, stable: into.stable || from.stable,
  };
}
