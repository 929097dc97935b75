import { Worker } from 'node:worker_threads';
import { ParleyError } from '../../graph/core/errors.js';

/** `Omit` applied to each member of a union. */
export type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** A worker's first message: loaded (possibly with facts about the model), or why not. */
export type WorkerHandshake = { type: 'ready' } | { type: 'failed'; error: string };

/** Every reply of a worker names the request it answers; a failed one says why. */
export type WorkerReply = { id: number; ok: true } | { id: number; ok: false; error: string };

/** Options of {@link WorkerBatcher}. */
export interface WorkerBatcherOptions<Req extends { id: number }, Res extends WorkerReply, H extends WorkerHandshake> {
  /** Names the worker in errors ("<label> worker did not start in time", "… died", "… exited with code N"). */
  label: string;
  /** The worker's module. */
  url: URL;
  /** Passed to the worker as `workerData`. */
  workerData?: unknown;
  /** How long the worker may take to load its model (until its handshake), in milliseconds. */
  startTimeoutMs: number;
  /** Most texts in one embed request to the worker. */
  maxBatch: number;
  /**
   * Calls queued in the same tick are put, whole, into groups of at most this many texts (a larger call
   * is a group of its own); a group's requests go one after another, groups side by side, and a failure
   * fails only its own group's calls. Default `maxBatch`; `Infinity`: every queued call in one group.
   */
  groupTexts?: number;
  /** The request (without its id) that embeds `texts`. */
  embedRequest: (texts: string[]) => DistributiveOmit<Req, 'id'>;
  /** The vectors of a successful reply to an embed request, one per text; throws when it has none. */
  vectorsOf: (res: Extract<Res, { ok: true }>) => Float32Array[];
  /** Checked before each worker is started (e.g. that its files exist): an error is the start's failure. */
  preflight?: () => Error | undefined;
  /** The error of a worker that could not load its model (its `failed` handshake). */
  loadFailed: (error: string) => Error;
  /** Refuses a worker that loaded (e.g. a model of the wrong width) with this error; it is terminated. */
  refuseReady?: (ready: Extract<H, { type: 'ready' }>) => Error | undefined;
}

interface Pending<Res> {
  resolve: (res: Res) => void;
  reject: (err: Error) => void;
}

interface Queued {
  texts: string[];
  resolve: (v: Float32Array[]) => void;
  reject: (err: Error) => void;
}

/**
 * The plumbing of a model hosted in a worker thread: started on first use (or by `start`), with a
 * handshake (ready | failed) under a time-out; requests matched to replies by id; the worker is
 * unref'd while no reply is owed, so an idle worker never holds the process open; a crash fails the
 * requests in flight with `PARLEY_ERR_WORKER_CRASHED` and the next call starts a fresh worker; after
 * `close` every call fails with `PARLEY_ERR_SHUTTING_DOWN`. `embed` calls made in the same tick are
 * batched into as few requests as `maxBatch` and `groupTexts` allow.
 */
export class WorkerBatcher<Req extends { id: number }, Res extends WorkerReply, H extends WorkerHandshake> {
  readonly #o: WorkerBatcherOptions<Req, Res, H>;
  #worker: Promise<Worker> | null = null;
  #nextId = 1;
  readonly #pending = new Map<number, Pending<Extract<Res, { ok: true }>>>();
  #queue: Queued[] = [];
  #flushScheduled = false;
  #closed = false;
  /** Resolved when no reply is owed any more (what `close` waits for). */
  #drained: (() => void)[] = [];

  constructor(options: WorkerBatcherOptions<Req, Res, H>) {
    this.#o = options;
  }

  /** Start the worker and load the model now rather than on first use. */
  async start(): Promise<void> {
    await this.#ensureWorker();
  }

  /** One vector per text, in order; calls made in the same tick share requests. */
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

  /** Send one request and resolve with its successful reply; a failed reply is `PARLEY_ERR_INTERNAL`. */
  async request(body: DistributiveOmit<Req, 'id'>): Promise<Extract<Res, { ok: true }>> {
    const worker = await this.#ensureWorker();
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      worker.ref(); // keep the process alive while a reply is owed
      worker.postMessage({ ...body, id });
    });
  }

  /**
   * Terminate the worker once the replies it owes have come (at most `drainMs`, default 30 s); later calls fail with
   * `PARLEY_ERR_SHUTTING_DOWN` instead of starting a new one. Terminating a worker while a native model (onnxruntime)
   * runs in it aborts the whole process, so requests in flight finish first.
   */
  async close(drainMs = 30_000): Promise<void> {
    this.#closed = true;
    const w = this.#worker;
    this.#worker = null;
    const worker = w ? await w.catch(() => null) : null;
    if (!worker) return;
    if (this.#pending.size > 0) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        new Promise<void>((r) => this.#drained.push(r)),
        new Promise<void>((r) => { timer = setTimeout(r, drainMs); }),
      ]);
      clearTimeout(timer);
    }
    await worker.terminate();
  }

  async #flush(): Promise<void> {
    this.#flushScheduled = false;
    const queued = this.#queue;
    this.#queue = [];
    const limit = this.#o.groupTexts ?? this.#o.maxBatch;
    let group: Queued[] = [];
    let size = 0;
    const groups: Queued[][] = [];
    for (const q of queued) {
      if (size + q.texts.length > limit && group.length > 0) {
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

  async #runGroup(group: Queued[]): Promise<void> {
    try {
      const texts = group.flatMap((q) => q.texts);
      const vectors: Float32Array[] = [];
      const max = this.#o.maxBatch;
      for (let i = 0; i < texts.length; i += max) {
        vectors.push(...this.#o.vectorsOf(await this.request(this.#o.embedRequest(texts.slice(i, i + max)))));
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

  #ensureWorker(): Promise<Worker> {
    if (this.#closed) return Promise.reject(new ParleyError('PARLEY_ERR_SHUTTING_DOWN', 'text embedder is closed'));
    if (!this.#worker) {
      // Checked on every start until a worker runs: files fetched after a refusal are found.
      const refused = this.#o.preflight?.();
      if (refused) return Promise.reject(refused);
      this.#worker = this.#spawn();
    }
    return this.#worker;
  }

  #spawn(): Promise<Worker> {
    const o = this.#o;
    const worker = new Worker(o.url, o.workerData === undefined ? {} : { workerData: o.workerData });
    return new Promise<Worker>((resolve, reject) => {
      const timer = setTimeout(() => {
        void worker.terminate();
        fail(new ParleyError('PARLEY_ERR_MODEL_MISSING', `${o.label} worker did not start in time`));
      }, o.startTimeoutMs);
      let failed = false;
      const fail = (err: Error): void => {
        // A crash can report twice ('error', then 'exit'); by the second a fresh worker may be serving.
        if (failed) return;
        failed = true;
        clearTimeout(timer);
        this.#worker = null; // the next call starts a fresh worker
        for (const p of this.#pending.values()) p.reject(new ParleyError('PARLEY_ERR_WORKER_CRASHED', `${o.label} worker died`, { cause: err }));
        this.#pending.clear();
        for (const r of this.#drained.splice(0)) r();
        reject(err);
      };
      worker.once('error', fail);
      worker.once('exit', (code) => {
        if (code !== 0) fail(new Error(`${o.label} worker exited with code ${code}`));
      });
      worker.on('message', (msg: H | Res) => {
        if ('type' in msg) {
          clearTimeout(timer);
          if (msg.type === 'failed') {
            fail(o.loadFailed(msg.error));
            return;
          }
          const refusal = o.refuseReady?.(msg as Extract<H, { type: 'ready' }>);
          if (refusal) {
            void worker.terminate();
            fail(refusal);
          } else {
            if (this.#pending.size === 0) worker.unref();
            resolve(worker);
          }
          return;
        }
        const p = this.#pending.get(msg.id);
        this.#pending.delete(msg.id);
        if (msg.ok) p?.resolve(msg as Extract<Res, { ok: true }>);
        else p?.reject(new ParleyError('PARLEY_ERR_INTERNAL', msg.error));
        if (this.#pending.size === 0) {
          worker.unref(); // an idle worker never holds the process open
          for (const r of this.#drained.splice(0)) r();
        }
      });
    });
  }
}

/**
 * A text embedder whose model lives in a worker thread: `start`, `embed` and `close` are those of its
 * {@link WorkerBatcher} (`UseLiteEmbedder`, `OnnxTextEmbedder`).
 */
export class WorkerTextEmbedder<Req extends { id: number }, Res extends WorkerReply, H extends WorkerHandshake> {
  readonly #worker: WorkerBatcher<Req, Res, H>;

  constructor(options: WorkerBatcherOptions<Req, Res, H>) {
    this.#worker = new WorkerBatcher(options);
  }

  /** Start the worker and load the model now rather than on first use (a model that cannot load fails here). */
  async start(): Promise<void> {
    await this.#worker.start();
  }

  embed(texts: string[]): Promise<Float32Array[]> {
    return this.#worker.embed(texts);
  }

  /** Terminate the worker once the requests in flight are answered; later calls fail with `PARLEY_ERR_SHUTTING_DOWN`. */
  close(): Promise<void> {
    return this.#worker.close();
  }
}
