import { existsSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { ParleyError } from '../../graph/core/errors.js';
import type { EmbeddingSpace } from '../../graph/vector-store.js';
import { BGE_SMALL_EN_MODEL, BGE_SMALL_EN_Q_MODEL, installedPath } from '../models/manifest.js';
import type { Pooling } from './onnx-sentence-model.js';
import type { OnnxTextHandshake, OnnxTextRequest, OnnxTextResponse, OnnxTextWorkerData } from './onnx-text-protocol.js';
import type { TextEmbedder } from './text-embedder.js';

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

interface Queued { texts: string[]; resolve: (v: Float32Array[]) => void; reject: (err: Error) => void }

/**
 * A sentence encoder (e.g. bge-small-en-v1.5) on onnxruntime-node in a worker thread, loaded from
 * the files `npm run models -- fetch <name>` installs. Calls made in the same tick are batched.
 */
export class OnnxTextEmbedder implements TextEmbedder {
  readonly space: EmbeddingSpace;
  readonly #o: OnnxTextEmbedderOptions;
  #worker: Promise<Worker> | null = null;
  #nextId = 1;
  readonly #pending = new Map<number, (res: OnnxTextResponse | Error) => void>();
  #queue: Queued[] = [];
  #flushScheduled = false;
  #closed = false;

  constructor(o: OnnxTextEmbedderOptions) {
    this.#o = o;
    this.space = { model: o.spec.name, dimension: o.spec.dimension };
  }

  /** Start the worker and load the model now (a missing model fails here, naming the fetch command). */
  async start(): Promise<void> {
    await this.#ensureWorker();
  }

  embed(texts: string[]): Promise<Float32Array[]> {
    if (texts.length === 0) return Promise.resolve([]);
    return new Promise((resolve, reject) => {
      this.#queue.push({ texts, resolve, reject });
      if (!this.#flushScheduled) {
        this.#flushScheduled = true;
        setImmediate(() => void this.#flush());
      }
    });
  }

  /** Terminate the worker; later calls fail with `PARLEY_ERR_SHUTTING_DOWN`. */
  async close(): Promise<void> {
    this.#closed = true;
    const w = this.#worker;
    this.#worker = null;
    if (w) await (await w.catch(() => null))?.terminate();
  }

  async #flush(): Promise<void> {
    this.#flushScheduled = false;
    const queued = this.#queue;
    this.#queue = [];
    try {
      const texts = queued.flatMap((q) => q.texts);
      const vectors: Float32Array[] = [];
      const max = this.#o.maxBatch ?? 64;
      for (let i = 0; i < texts.length; i += max) vectors.push(...(await this.#request(texts.slice(i, i + max))));
      let at = 0;
      for (const q of queued) {
        q.resolve(vectors.slice(at, at + q.texts.length));
        at += q.texts.length;
      }
    } catch (err) {
      for (const q of queued) q.reject(err as Error);
    }
  }

  async #request(texts: string[]): Promise<Float32Array[]> {
    const worker = await this.#ensureWorker();
    const id = this.#nextId++;
    return new Promise<Float32Array[]>((resolve, reject) => {
      this.#pending.set(id, (res) => {
        if (res instanceof Error) reject(res);
        else if (res.ok) resolve(res.vectors);
        else reject(new ParleyError('PARLEY_ERR_INTERNAL', res.error));
      });
      worker.ref(); // keep the process alive while a reply is owed
      worker.postMessage({ id, texts } satisfies OnnxTextRequest);
    });
  }

  #ensureWorker(): Promise<Worker> {
    if (this.#closed) return Promise.reject(new ParleyError('PARLEY_ERR_SHUTTING_DOWN', 'text embedder is closed'));
    this.#worker ??= this.#spawn();
    return this.#worker;
  }

  #spawn(): Promise<Worker> {
    const { spec, modelsDir } = this.#o;
    const data: OnnxTextWorkerData = {
      modelPath: installedPath(modelsDir, spec.name, TEXT_MODEL_FILE),
      tokenizerPath: installedPath(modelsDir, spec.name, TEXT_TOKENIZER_FILE),
      pooling: spec.pooling,
      ...(this.#o.maxTokens !== undefined ? { maxTokens: this.#o.maxTokens } : {}),
    };
    const absent = [data.modelPath, data.tokenizerPath].filter((f) => !existsSync(f));
    if (absent.length > 0) {
      this.#worker = null;
      return Promise.reject(new ParleyError('PARLEY_ERR_MODEL_MISSING',
        `text model ${spec.name} not found (${absent.map((f) => path.basename(f)).join(', ')} missing in ${path.join(modelsDir, spec.name)}); run: npm run models -- fetch ${spec.name} (MODELS_DIR=${modelsDir})`));
    }
    const worker = new Worker(new URL('./onnx-text-worker.js', import.meta.url), { workerData: data });
    return new Promise<Worker>((resolve, reject) => {
      const timer = setTimeout(() => {
        void worker.terminate();
        fail(new ParleyError('PARLEY_ERR_MODEL_MISSING', `${spec.name} worker did not start in time`));
      }, this.#o.startTimeoutMs ?? 60_000);
      const fail = (err: Error): void => {
        clearTimeout(timer);
        this.#worker = null; // the next call starts a fresh worker
        for (const p of this.#pending.values()) p(new ParleyError('PARLEY_ERR_WORKER_CRASHED', `${spec.name} worker died`, { cause: err }));
        this.#pending.clear();
        reject(err);
      };
      worker.once('error', fail);
      worker.once('exit', (code) => {
        if (code !== 0) fail(new Error(`${spec.name} worker exited with code ${code}`));
      });
      worker.on('message', (msg: OnnxTextHandshake | OnnxTextResponse) => {
        if ('type' in msg) {
          clearTimeout(timer);
          if (msg.type === 'failed') fail(new ParleyError('PARLEY_ERR_MODEL_MISSING', `${spec.name} failed to load: ${msg.error}; check it with: npm run models -- verify ${spec.name}`));
          else if (msg.dimension !== spec.dimension) {
            void worker.terminate();
            fail(new ParleyError('PARLEY_ERR_MODEL_MISSING', `${spec.name} at ${data.modelPath} gives ${msg.dimension}-d vectors, expected ${spec.dimension}; check it with: npm run models -- verify ${spec.name}`));
          } else {
            if (this.#pending.size === 0) worker.unref();
            resolve(worker);
          }
          return;
        }
        const p = this.#pending.get(msg.id);
        this.#pending.delete(msg.id);
        p?.(msg);
        if (this.#pending.size === 0) worker.unref(); // an idle worker never holds the process open
      });
    });
  }
}
