import { cosine, type TextEmbedder } from '../embeddings/text-embedder.js';
import { AFFECT_EXAMPLES, LABEL_VALENCE, type LabelledExample } from './affect-examples.js';

/** Emotion of one text. */
export interface TextAffectResult {
  /** `joy`, `anger`, `sadness`, `fear` or `neutral`. */
  label: string;
  /** Confidence of the label in [0, 1]. */
  confidence: number;
  /** Label valence in [-1, 1], scaled by confidence. */
  valence: number;
}

/** Options for {@link TextAffectClassifier}. */
export interface TextAffectOptions {
  /** The labelled texts it votes over; default the committed {@link AFFECT_EXAMPLES}. */
  examples?: readonly LabelledExample[];
  /** Nearest examples that vote; default 3. */
  k?: number;
}

interface Prepared {
  vectors: Float32Array[];
  labels: string[];
  /** Every label once, in the order it first appears in the examples (the order ties are broken in). */
  order: string[];
}

/**
 * Few-shot text emotion: the `k` labelled examples nearest (cosine) to a text vote, and a label's
 * confidence is its share of the votes (ties: the label first in the examples). Runs on whatever
 * embedder the deployment embeds text with (USE-lite, bge-small…), so no second text model is loaded
 * for it; the examples are embedded once, on first use. The rule is `@energetic-ai/classifiers`' KNN,
 * which this replaces.
 */
export class TextAffectClassifier {
  readonly #examples: readonly LabelledExample[];
  readonly #k: number;
  #prepared: Promise<Prepared> | null = null;

  constructor(private readonly embedder: TextEmbedder, options: TextAffectOptions = {}) {
    this.#examples = options.examples ?? AFFECT_EXAMPLES;
    this.#k = options.k ?? 3;
    if (this.#examples.length === 0) throw new Error('TextAffectClassifier needs at least one labelled example');
    if (!Number.isInteger(this.#k) || this.#k < 1) throw new Error(`TextAffectClassifier: k must be a positive integer, got ${this.#k}`);
  }

  async classify(texts: string[]): Promise<TextAffectResult[]> {
    if (texts.length === 0) return [];
    return this.classifyVectors(await this.embedder.embed(texts));
  }

  /** As `classify`, for texts the same embedder already embedded (their `embed` vectors). */
  async classifyVectors(vectors: Float32Array[]): Promise<TextAffectResult[]> {
    if (vectors.length === 0) return [];
    const prepared = await this.#prepare();
    return vectors.map((v) => vote(prepared, v, this.#k));
  }

  #prepare(): Promise<Prepared> {
    this.#prepared ??= this.embedder.embed(this.#examples.map(([text]) => text)).then((vectors) => {
      const labels = this.#examples.map(([, label]) => label);
      return { vectors, labels, order: [...new Set(labels)] };
    });
    // A failed embedding (the model still loading, a closed worker) is tried again on the next call.
    this.#prepared.catch(() => { this.#prepared = null; });
    return this.#prepared;
  }
}

function vote(p: Prepared, v: Float32Array, k: number): TextAffectResult {
  // Stable sort: among equal similarities the earlier example comes first.
  const nearest = p.vectors.map((e, i) => ({ i, s: cosine(v, e) })).sort((a, b) => b.s - a.s).slice(0, k);
  const votes = new Map(p.order.map((l) => [l, 0]));
  for (const { i } of nearest) votes.set(p.labels[i]!, (votes.get(p.labels[i]!) ?? 0) + 1);
  let label = p.order[0]!;
  for (const l of p.order) if ((votes.get(l) ?? 0) > (votes.get(label) ?? 0)) label = l;
  const confidence = (votes.get(label) ?? 0) / nearest.length;
  return { label, confidence, valence: (LABEL_VALENCE[label] ?? 0) * confidence };
}
