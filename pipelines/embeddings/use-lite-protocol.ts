/** Messages between `UseLiteClient` and its worker thread. */

/** A labelled example for few-shot classification: [text, label]. */
export type LabelledExample = [string, string];

export type UseLiteRequest =
  | { id: number; op: 'embed'; texts: string[] }
  | { id: number; op: 'classifier'; examples: LabelledExample[] }
  | { id: number; op: 'classify'; classifierId: number; texts: string[] }
  /** Classify texts already embedded by this model (`embed`), without embedding them again. */
  | { id: number; op: 'classifyVectors'; classifierId: number; vectors: Float32Array[] };

/** Result of one few-shot classification. */
export interface ClassifyResult {
  label: string;
  /** Per-label confidence in [0, 1]. */
  confidences: Record<string, number>;
}

export type UseLiteResponse =
  | { id: number; ok: true; vectors: Float32Array[] }
  | { id: number; ok: true; classifierId: number }
  | { id: number; ok: true; results: ClassifyResult[] }
  | { id: number; ok: false; error: string };

/** First message from the worker: loaded, or why not. */
export type UseLiteHandshake = { type: 'ready' } | { type: 'failed'; error: string };
