import { existsSync } from 'node:fs';
import path from 'node:path';
import { ParleyError } from '../../graph/core/errors.js';
import type { EmbeddingSpace } from '../../graph/vector-store.js';
import { BGE_SMALL_EN_MODEL, BGE_SMALL_EN_Q_MODEL, installedPath } from '../models/manifest.js';
import type { Pooling } from './onnx-sentence-model.js';
import type { OnnxTextHandshake, OnnxTextRequest, OnnxTextResponse, OnnxTextWorkerData } from './onnx-text-protocol.js';
import type { TextEmbedder } from './text-embedder.js';
import { WorkerTextEmbedder } from './worker-batcher.js';

/** An ONNX sentence encoder the `models` command installs: what its folder holds and how to pool it. */
export interface OnnxTextModelSpec {
  /** Manifest name: the folder under `MODELS_DIR`, and the model name of its embedding space. */
  name: string;
  /** Width of its vectors. */
  dimension: number;
  pooling: Pooling;
}

/** The files every installed ONNX text model has in its folder (what `models fetch` saves them as). */
export const TEXT_MODEL_FILE = 'model.onnx';
export const TEXT_TOKENIZER_FILE = 'tokenizer.json';

/** BAAI bge-small-en-v1.5 (MIT): 384-d, [CLS] pooling; used without a query instruction (symmetric). */
export const BGE_SMALL_EN: OnnxTextModelSpec = { name: BGE_SMALL_EN_MODEL, dimension: 384, pooling: 'cls' };
/** Its int8-quantised export: its own embedding space (vectors differ slightly from the fp32 model's). */
export const BGE_SMALL_EN_Q: OnnxTextModelSpec = { name: BGE_SMALL_EN_Q_MODEL, dimension: 384, pooling: 'cls' };

/** The ONNX text models `PARLEY_TEXT_EMBEDDER` can name, by name. */
export const ONNX_TEXT_MODELS = { [BGE_SMALL_EN_MODEL]: BGE_SMALL_EN, [BGE_SMALL_EN_Q_MODEL]: BGE_SMALL_EN_Q } as const satisfies Record<string, OnnxTextModelSpec>;

/** Options for {@link OnnxTextEmbedder}. */
export interface OnnxTextEmbedderOptions {
  /** Which model. */
  spec: OnnxTextModelSpec;
  /** Root folder the model was fetched into (`MODELS_DIR`); its files are `<modelsDir>/<name>/model.onnx` and `tokenizer.json`. */
  modelsDir: string;
  /** Longest input in tokens; longer texts are cut. Default 256. */
  maxTokens?: number;
  /** Most texts sent to the worker in one request; default 64. */
  maxBatch?: number;
  /** How long the worker may take to load the model, in milliseconds; default 60000. */
  startTimeoutMs?: number;
}

/**
 * A sentence encoder (e.g. bge-small-en-v1.5) on onnxruntime-node in a worker thread, loaded from
 * the files `npm run models -- fetch <name>` installs. Calls made in the same tick are batched.
 */
export class OnnxTextEmbedder extends WorkerTextEmbedder<OnnxTextRequest, OnnxTextResponse, OnnxTextHandshake> implements TextEmbedder {
  readonly space: EmbeddingSpace;

  constructor(o: OnnxTextEmbedderOptions) {
    const { spec, modelsDir } = o;
    const data: OnnxTextWorkerData = {
      modelPath: installedPath(modelsDir, spec.name, TEXT_MODEL_FILE),
      tokenizerPath: installedPath(modelsDir, spec.name, TEXT_TOKENIZER_FILE),
      pooling: spec.pooling,
      ...(o.maxTokens !== undefined ? { maxTokens: o.maxTokens } : {}),
    };
    const verify = `check it with: npm run models -- verify ${spec.name}`;
    super({
      label: spec.name,
      url: new URL('./onnx-text-worker.js', import.meta.url),
      workerData: data,
      startTimeoutMs: o.startTimeoutMs ?? 60_000,
      maxBatch: o.maxBatch ?? 64,
      groupTexts: Infinity,
      embedRequest: (texts) => ({ texts }),
      vectorsOf: (res) => res.vectors,
      preflight: () => {
        const absent = [data.modelPath, data.tokenizerPath].filter((f) => !existsSync(f));
        return absent.length === 0 ? undefined : new ParleyError('PARLEY_ERR_MODEL_MISSING',
          `text model ${spec.name} not found (${absent.map((f) => path.basename(f)).join(', ')} missing in ${path.join(modelsDir, spec.name)}); run: npm run models -- fetch ${spec.name} (MODELS_DIR=${modelsDir})`);
      },
      loadFailed: (error) => new ParleyError('PARLEY_ERR_MODEL_MISSING', `${spec.name} failed to load: ${error}; ${verify}`),
      refuseReady: (ready) => ready.dimension === spec.dimension ? undefined : new ParleyError('PARLEY_ERR_MODEL_MISSING',
        `${spec.name} at ${data.modelPath} gives ${ready.dimension}-d vectors, expected ${spec.dimension}; ${verify}`),
    });
    this.space = { model: spec.name, dimension: spec.dimension };
  }
}
