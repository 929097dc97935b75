import { cosine } from './speaker-embedder.js';
import type { SpeakerEmbedder } from './speaker-embedder.js';
import type { SpeakerThresholds } from './speaker-thresholds.js';

/** How sure the asker identification is. */
export type AskerConfidence = 'high' | 'low' | 'unresolved';

/** Result of identifying who asked a voice query. */
export interface AskerIdentity {
  /** Best-matching participant; null when unresolved. */
  participantId: string | null;
  confidence: AskerConfidence;
  /** Cosine to the best prototype, less its `cosineOffset` (−1 when there are none). */
  score: number;
  /** Best minus runner-up cosine (the best score itself when there is one prototype). */
  margin: number;
}

/** A read-only prototype to compare against. */
export interface AskerPrototype {
  participantId: string;
  vector: Float32Array;
  /** Cosine taken off this prototype's score before the thresholds (the band rule: a match across bands); default 0. */
  cosineOffset?: number;
}

/**
 * Compare a query embedding with prototypes (docs/ARCHITECTURE.md, "Speaker identity"): high at cosine ≥ askerHigh with margin ≥
 * askerMargin, low at ≥ askerLow, unresolved below, each prototype's cosine less its `cosineOffset`. Several
 * prototypes of one participant count as one (its best). Never modifies the prototypes.
 */
export function identifyAsker(
  embedding: Float32Array,
  prototypes: readonly AskerPrototype[],
  t: Pick<SpeakerThresholds, 'askerHigh' | 'askerMargin' | 'askerLow'>,
): AskerIdentity {
  const best = new Map<string, number>();
  for (const p of prototypes) {
    const score = cosine(embedding, p.vector) - (p.cosineOffset ?? 0);
    best.set(p.participantId, Math.max(best.get(p.participantId) ?? -Infinity, score));
  }
  const ranked = [...best.entries()].sort((a, b) => b[1] - a[1]);
  const top = ranked[0];
  if (!top) return { participantId: null, confidence: 'unresolved', score: -1, margin: 0 };
  const margin = top[1] - (ranked[1]?.[1] ?? 0);
  if (top[1] >= t.askerHigh && margin >= t.askerMargin) return { participantId: top[0], confidence: 'high', score: top[1], margin };
  if (top[1] >= t.askerLow) return { participantId: top[0], confidence: 'low', score: top[1], margin };
  return { participantId: null, confidence: 'unresolved', score: top[1], margin };
}

/** Embed query audio (16 kHz mono) and identify the asker; the audio never updates any prototype. */
export async function identifyAskerFromAudio(
  embedder: SpeakerEmbedder,
  audio: Float32Array,
  prototypes: readonly AskerPrototype[],
  t: Pick<SpeakerThresholds, 'askerHigh' | 'askerMargin' | 'askerLow'>,
): Promise<AskerIdentity> {
  return identifyAsker(await embedder.embed(audio), prototypes, t);
}
