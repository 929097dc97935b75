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
  /** Cosine to the best prototype (−1 when there are none); the ranking and the low bar use it less its `cosineOffset`. */
  score: number;
  /** Best minus runner-up cosine, each less its offset (the best score itself when there is one prototype). */
  margin: number;
}

/** A read-only prototype to compare against. */
export interface AskerPrototype {
  participantId: string;
  vector: Float32Array;
  /**
   * Cosine taken off this prototype's score for ranking and for the low bar (the band rule: a match across bands);
   * default 0. The high bar reads the plain cosine: an offset on it would put `high` out of reach of every phone voice
   * (askerHigh plus an offset can pass 1).
   */
  cosineOffset?: number;
}

/**
 * Compare a query embedding with prototypes (docs/ARCHITECTURE.md, "Speaker identity"): prototypes rank by cosine less
 * their `cosineOffset`; the best is high at a plain cosine ≥ askerHigh with margin ≥ askerMargin, low when its cosine
 * less the offset is ≥ askerLow, unresolved below. Several prototypes of one participant count as one (its best).
 * Never modifies the prototypes.
 */
export function identifyAsker(
  embedding: Float32Array,
  prototypes: readonly AskerPrototype[],
  t: Pick<SpeakerThresholds, 'askerHigh' | 'askerMargin' | 'askerLow'>,
): AskerIdentity {
  const best = new Map<string, { adjusted: number; plain: number }>();
  for (const p of prototypes) {
    const plain = cosine(embedding, p.vector);
    const adjusted = plain - (p.cosineOffset ?? 0);
    const held = best.get(p.participantId);
    if (!held || adjusted > held.adjusted) best.set(p.participantId, { adjusted, plain });
  }
  const ranked = [...best.entries()].sort((a, b) => b[1].adjusted - a[1].adjusted);
  const top = ranked[0];
  if (!top) return { participantId: null, confidence: 'unresolved', score: -1, margin: 0 };
  const [id, { adjusted, plain }] = top;
  const margin = adjusted - (ranked[1]?.[1].adjusted ?? 0);
  if (adjusted >= t.askerLow && plain >= t.askerHigh && margin >= t.askerMargin) return { participantId: id, confidence: 'high', score: plain, margin };
  if (adjusted >= t.askerLow) return { participantId: id, confidence: 'low', score: plain, margin };
  return { participantId: null, confidence: 'unresolved', score: plain, margin };
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
