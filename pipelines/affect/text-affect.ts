import type { UseLiteEmbedder } from '../embeddings/use-lite-embedder.js';
import type { ClassifyResult } from '../embeddings/use-lite-protocol.js';
import { AFFECT_EXAMPLES, LABEL_VALENCE } from './affect-examples.js';

/** Emotion of one text. */
export interface TextAffectResult {
  /** `joy`, `anger`, `sadness`, `fear` or `neutral`. */
  label: string;
  /** Confidence of the label in [0, 1]. */
  confidence: number;
  /** Label valence in [-1, 1], scaled by confidence. */
  valence: number;
}

/** Few-shot text emotion (`@energetic-ai/classifiers` on USE-lite) over the committed example set. */
export class TextAffectClassifier {
  #id: Promise<number> | null = null;

  constructor(private readonly embedder: UseLiteEmbedder) {}

  async classify(texts: string[]): Promise<TextAffectResult[]> {
    this.#id ??= this.embedder.createClassifier(AFFECT_EXAMPLES);
    return (await this.embedder.classify(await this.#id, texts)).map(toAffect);
  }

  /** As `classify`, for texts the same embedder already embedded (their `embed` vectors). */
  async classifyVectors(vectors: Float32Array[]): Promise<TextAffectResult[]> {
    this.#id ??= this.embedder.createClassifier(AFFECT_EXAMPLES);
    return (await this.embedder.classifyVectors(await this.#id, vectors)).map(toAffect);
  }
}

function toAffect(r: ClassifyResult): TextAffectResult {
  const confidence = r.confidences[r.label] ?? 0;
  return { label: r.label, confidence, valence: (LABEL_VALENCE[r.label] ?? 0) * confidence };
}
