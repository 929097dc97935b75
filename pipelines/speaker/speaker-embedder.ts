/** Sample rate every speaker embedder expects, in Hz. */
export const SPEAKER_SAMPLE_RATE = 16_000;

/**
 * Turns one utterance of speech into a fixed-size voice vector. Vectors of the same `modelId` are
 * comparable by cosine (they are L2-normalised, so cosine is a dot product); vectors of different
 * models are not.
 */
export interface SpeakerEmbedder {
  /** Identifies the embedding space, stored with every voiceprint (e.g. `stats-lda-v1`). */
  readonly modelId: string;
  /** Length of every returned vector. */
  readonly dimension: number;
  /**
   * Embed mono 16 kHz audio with samples in [-1, 1]. Returns an L2-normalised vector.
   * Throws `PARLEY_ERR_BAD_AUDIO` when the audio is too short or silent to embed.
   */
  embed(audio: Float32Array): Promise<Float32Array>;
  /** Release native resources (ONNX sessions). */
  close?(): Promise<void>;
}

/** Scale `v` in place to unit length (a zero vector stays zero) and return it. */
export function l2Normalise(v: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += v[i]! * v[i]!;
  const norm = Math.sqrt(sum);
  if (norm > 0) for (let i = 0; i < v.length; i++) v[i] = v[i]! / norm;
  return v;
}

/** Cosine similarity of two vectors of equal length; 0 when either is zero. */
export function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na > 0 && nb > 0 ? dot / Math.sqrt(na * nb) : 0;
}
