/** Messages between `OnnxTextEmbedder` and its worker thread (`onnx-text-worker.ts`). */
import type { OnnxSentenceModelOptions } from './onnx-sentence-model.js';

/** What the worker loads: passed as `workerData`. */
export type OnnxTextWorkerData = OnnxSentenceModelOptions;

export interface OnnxTextRequest { id: number; texts: string[] }

export type OnnxTextResponse =
  | { id: number; ok: true; vectors: Float32Array[] }
  | { id: number; ok: false; error: string };

/** First message from the worker: loaded (with the vector width), or why not. */
export type OnnxTextHandshake = { type: 'ready'; dimension: number } | { type: 'failed'; error: string };
