import type { MemoryStore, PersonaNode } from '../../graph/memory-store.js';
import type { TenantId, Utterance } from '../../graph/types.js';
import { affectTarget } from './attribution.js';
import { arousal, computeProsody, type Prosody } from './prosody.js';
import type { TextAffectClassifier, TextAffectResult } from './text-affect.js';

/** What one turn expressed and about what. */
export interface TurnAffect {
  text: TextAffectResult;
  /** Present when audio was given. */
  prosody: Prosody | null;
  /** In [0, 1]; null without audio. */
  arousal: number | null;
  /** Noun phrase the emotion is about, or null. */
  target: string | null;
  /** The persona node the evidence went to, when recorded. */
  node: PersonaNode | null;
}

/** Lowest label confidence that counts as evidence (below it the turn is treated as neutral). */
const MIN_CONFIDENCE = 0.5;

/**
 * Short-horizon attribution of one turn: text emotion, prosody when the 16 kHz audio span is given,
 * and the target it is about. Non-neutral, confident emotions with a target become persona evidence.
 * `textVector`, the classifier's embedder's vector of `u.text` when the caller already has it
 * (consolidation embedded the turn), spares embedding the text again.
 */
export async function analyseTurnAffect(
  deps: { classifier: TextAffectClassifier; memory: MemoryStore },
  tenant: TenantId,
  u: Utterance,
  audio16k?: Float32Array,
  textVector?: Float32Array,
): Promise<TurnAffect> {
  const [text] = textVector ? await deps.classifier.classifyVectors([textVector]) : await deps.classifier.classify([u.text]);
  const t = text ?? { label: 'neutral', confidence: 0, valence: 0 };
  const prosody = audio16k ? computeProsody(audio16k, u.text.split(/\s+/).filter(Boolean).length) : null;
  const a = prosody ? arousal(prosody) : null;
  const target = affectTarget(u.text);
  let node: PersonaNode | null = null;
  if (t.label !== 'neutral' && t.confidence >= MIN_CONFIDENCE && target) {
    node = await deps.memory.addPersonaEvidence(tenant, {
      participantId: u.speakerId, kind: 'affect', target, valence: t.valence, label: t.label,
      strength: a === null ? t.confidence : (t.confidence + a) / 2, utteranceId: u.id, sessionId: u.sessionId, time: u.time,
    });
  }
  return { text: t, prosody, arousal: a, target, node };
}
