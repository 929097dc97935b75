import type { FastifyInstance } from 'fastify';
import type { GraphStore } from '../../graph/graph-store.js';
import type { PersonaNode } from '../../graph/memory-store.js';
import { NameResolver } from '../../graph/name-resolver.js';
import type { Participant, TenantId, Utterance } from '../../graph/types.js';
import type { Static } from '@sinclair/typebox';
import type { ParticipantView, PersonaNodeView, UtteranceView } from '../protocol/http-schemas.js';
import { shownAttributes } from '../../pipelines/interaction/participant-attributes.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's clock, ms since the epoch (`BuildOptions.now`; default `Date.now`): the time participant attributes are read at. */
    clock: () => number;
  }
}

/**
 * A participant as the API shows them (REST, MCP, the console), read at the app's clock: its attributes as they hold then
 * (`shownAttributes`: a temporary state that has ended reads as what follows it), bookkeeping hidden.
 */
export function participantView(app: Pick<FastifyInstance, 'clock'>, p: Participant): ParticipantView {
  return {
    id: p.id, name: p.name, external_id: p.externalId, aliases: p.aliases, attributes: shownAttributes(p.attributes, new Date(app.clock()).toISOString()),
    voiceprint_count: p.voiceprintCount, created_at: p.createdAt, updated_at: p.updatedAt,
  };
}

/** A persona node as the API shows it (`GET /v1/participants/{id}/persona`, MCP `get_participant`). */
export function personaNodeView(n: PersonaNode): Static<typeof PersonaNodeView> {
  return {
    id: n.id, kind: n.kind, target: n.target, valence: n.valence, label: n.label, strength: n.strength,
    evidence_count: n.evidenceCount, evidence_ids: n.evidenceIds, session_ids: n.sessionIds,
    first_seen: n.firstSeen, last_seen: n.lastSeen, stable: n.stable,
  };
}

/** Utterances as the HTTP API shows them, with participant names resolved. */
export async function utteranceViews(graph: GraphStore, tenant: TenantId, utterances: Utterance[]): Promise<UtteranceView[]> {
  const names = new NameResolver(graph, tenant);
  const ref = (id: string) => names.ref(id);
  const views: UtteranceView[] = [];
  for (const u of utterances) {
    views.push({
      id: u.id, session_id: u.sessionId, seq: u.seq, speaker: await ref(u.speakerId),
      addressees: await Promise.all(u.addresseeIds.map(ref)), text: u.text, start_ms: u.startMs,
      end_ms: u.endMs, time: u.time, confidence: u.confidence, audio_ref: u.audioRef,
    });
  }
  return views;
}
