import os from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Logger } from 'pino';
import { ParleyError, type ErrorCode } from '../../graph/core/errors.js';
import type { AudioSessionEvent } from '../audio/audio-events.js';
import type { SpeechPipelineOptions } from '../audio/speech-pipeline.js';
import type { FromWorker, InferenceWorkerConfig, ToWorker } from './protocol.js';

/** Pool settings. */
export interface WorkerPoolOptions extends InferenceWorkerConfig {
  /** Worker threads; default the machine's available parallelism, at least 1. */
  size?: number;
  /**
   * How long a worker may take to load its models, in milliseconds. Default 300000: on a machine busy with other work
   * (load 25 on 2 cores) loading took over a minute, and a server that gave up at 60 s could not start at all.
   */
  initTimeoutMs?: number;
  /** How long `close` waits for a worker to stop before terminating it, in milliseconds. Default 2000. */
  closeTimeoutMs?: number;
  /** pino logger for worker lifecycle events (crashes, replacements). */
  logger?: Logger;
}

/** Receives one stream's traffic from the pool. */
export interface StreamListener {
  /** A pipeline event for this stream. */
  onEvent(event: AudioSessionEvent): void;
  /** The worker finished `samples` 16 kHz samples of this stream's audio. */
  onAck(samples: number): void;
  /** The stream's worker died; audio in flight is lost and the stream continues on a replacement. */
  onWorkerCrashed(error: ParleyError): void;
  /** The worker has processed a `commit` (any `speech_stopped` it caused was delivered before). */
  onCommitted(): void;
}

interface Slot { index: number; worker: Worker; streams: Set<PoolStream>; stopping: boolean }

/**
 * Inference worker threads with sticky streams: each stream's recurrent VAD state and ASR decoder live
 * on one worker for the stream's life. A worker that dies is replaced and its streams are re-opened on
 * the replacement (turn numbering continues), after an `onWorkerCrashed` call.
 */
export class WorkerPool {
  private readonly slots: Slot[] = [];
  private nextStreamId = 1;
  private closed = false;
  /** Worker warnings already logged (by message). */
  private readonly logged = new Set<string>();

  private constructor(private readonly opts: WorkerPoolOptions) {}

  /**
   * Start the workers and wait until each has loaded its models.
   * @throws ParleyError with the worker's code (e.g. `PARLEY_ERR_MODEL_MISSING`) when any fails to start.
   */
  static async create(options: WorkerPoolOptions): Promise<WorkerPool> {
    const pool = new WorkerPool(options);
    const size = Math.max(1, Math.floor(options.size ?? os.availableParallelism()));
    const started = Array.from({ length: size }, (_, index) => {
      const { worker, ready } = pool.startWorker();
      const slot: Slot = { index, worker, streams: new Set(), stopping: false };
      pool.slots.push(slot);
      pool.attach(slot);
      return ready;
    });
    const failure = (await Promise.allSettled(started)).find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failure) {
      await pool.close();
      throw failure.reason;
    }
    return pool;
  }

  /** Number of live worker threads. */
  get size(): number {
    return this.slots.length;
  }

  /** Streams currently assigned to each worker, by worker index. */
  get load(): number[] {
    return this.slots.map((s) => s.streams.size);
  }

  /**
   * Start one worker and send `init`. Messages may be posted at once (the worker handles them after its
   * models load); `ready` settles with the handshake and terminates the worker when it fails.
   */
  private startWorker(): { worker: Worker; ready: Promise<void> } {
    const worker = new Worker(new URL('./inference-worker.js', import.meta.url));
    const { size: _size, initTimeoutMs, closeTimeoutMs: _c, logger: _l, ...config } = this.opts;
    const ready = new Promise<void>((resolve, reject) => {
      const waitMs = initTimeoutMs ?? 300_000;
      const timer = setTimeout(() => fail('PARLEY_ERR_INTERNAL',
        `inference worker did not load its models within ${waitMs / 1000} s (is the machine overloaded, or a model file on a stalled disk?)`), waitMs);
      // Remove only our own listeners: Worker keeps internal ones that ref the message port.
      const detach = (): void => {
        clearTimeout(timer);
        worker.off('message', onMessage).off('error', onError).off('exit', onExit);
      };
      const fail = (code: string, message: string): void => {
        detach();
        void worker.terminate();
        reject(new ParleyError(code as ErrorCode, message));
      };
      const onMessage = (m: FromWorker): void => {
        if (m.type === 'failed') return fail(m.code, m.message);
        if (m.type !== 'ready') return;
        detach();
        resolve();
      };
      const onError = (err: Error): void => fail('PARLEY_ERR_INTERNAL', `inference worker failed to start: ${err.message}`);
      const onExit = (code: number): void => fail('PARLEY_ERR_INTERNAL', `inference worker exited during start-up (code ${code})`);
      worker.on('message', onMessage).on('error', onError).on('exit', onExit);
    });
    worker.postMessage({ type: 'init', config } satisfies ToWorker);
    return { worker, ready };
  }

  private attach(slot: Slot): void {
    slot.worker.on('message', (m: FromWorker) => {
      if (m.type === 'log') {
        // Every worker thread meets the same condition (festival missing): one line per pool.
        if (!this.logged.has(m.msg)) this.opts.logger?.[m.level]({ workerIndex: slot.index, ...m.fields }, m.msg);
        this.logged.add(m.msg);
        return;
      }
      if (m.type !== 'event' && m.type !== 'ack' && m.type !== 'committed') return;
      for (const s of slot.streams) {
        if (s.id !== m.streamId) continue;
        if (m.type === 'ack') s.listener.onAck(m.samples);
        else if (m.type === 'committed') s.listener.onCommitted();
        else s.deliver(m.event);
      }
    });
    slot.worker.on('error', () => { /* the exit handler replaces the worker */ });
    slot.worker.once('exit', (exitCode) => {
      if (slot.stopping || this.closed) return;
      this.opts.logger?.error({ workerIndex: slot.index, exitCode, streams: slot.streams.size }, 'inference worker exited; replacing it');
      void this.replace(slot);
    });
  }

  private async replace(dead: Slot): Promise<void> {
    dead.stopping = true;
    const orphans = [...dead.streams];
    const crash = new ParleyError('PARLEY_ERR_WORKER_CRASHED', 'the inference worker for this session crashed; audio in flight was lost and processing continues on a new worker');
    for (const s of orphans) s.listener.onWorkerCrashed(crash);
    // Re-home the streams at once: audio sent while the replacement loads waits in its queue.
    const { worker, ready } = this.startWorker();
    const slot: Slot = { index: dead.index, worker, streams: new Set(), stopping: false };
    this.slots[this.slots.indexOf(dead)] = slot;
    this.attach(slot);
    for (const s of orphans) s.moveTo(slot);
    try {
      await ready;
    } catch (err) {
      this.opts.logger?.error({ workerIndex: slot.index, err }, 'replacement inference worker failed to start');
      // The replacement cannot start either: give its streams to the surviving workers, if any.
      slot.stopping = true;
      this.slots.splice(this.slots.indexOf(slot), 1);
      for (const s of [...slot.streams]) this.slots.length > 0 ? s.moveTo(this.leastLoaded()) : s.fail();
    }
  }

  private leastLoaded(): Slot {
    let best = this.slots[0];
    if (!best) throw new ParleyError('PARLEY_ERR_SHUTTING_DOWN', 'worker pool has no workers');
    for (const s of this.slots) if (s.streams.size < best.streams.size) best = s;
    return best;
  }

  /** Open a stream on the least-loaded worker; it stays there until closed or its worker dies. */
  openStream(options: SpeechPipelineOptions, listener: StreamListener): PoolStream {
    if (this.closed) throw new ParleyError('PARLEY_ERR_SHUTTING_DOWN', 'worker pool is closed');
    const stream = new PoolStream(this.nextStreamId++, options, listener);
    stream.moveTo(this.leastLoaded());
    return stream;
  }

  /** Test hook: make worker `index` exit as if it crashed (needs `testHooks: true`). */
  crashWorkerForTest(index: number): void {
    this.slots[index]?.worker.postMessage({ type: 'test_crash' } satisfies ToWorker);
  }

  /** Stop every worker: ask politely, then terminate after `closeTimeoutMs`. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.slots.map(async (slot) => {
      slot.stopping = true;
      const exited = new Promise<void>((r) => slot.worker.once('exit', () => r()));
      slot.worker.postMessage({ type: 'shutdown' } satisfies ToWorker);
      let timer: NodeJS.Timeout | undefined;
      // terminate() also settles for a worker that has already exited (its 'exit' may be long gone).
      const escalate = new Promise<void>((r) => {
        timer = setTimeout(() => void slot.worker.terminate().then(() => r(), () => r()), this.opts.closeTimeoutMs ?? 2000);
      });
      await Promise.race([exited, escalate]);
      clearTimeout(timer);
    }));
    this.slots.length = 0;
  }
}

/** One stream's handle on its worker. */
export class PoolStream {
  private slot: Slot | undefined;
  /** Next turn id, so a stream re-opened on a new worker continues the numbering. */
  private nextTurnId = 1;
  private closed = false;

  constructor(readonly id: number, private options: SpeechPipelineOptions, readonly listener: StreamListener) {}

  /** @internal */
  deliver(event: AudioSessionEvent): void {
    if (event.type === 'speech_started') this.nextTurnId = Math.max(this.nextTurnId, event.turnId + 1);
    this.listener.onEvent(event);
  }

  /** @internal (Re)open this stream on `slot`. */
  moveTo(slot: Slot): void {
    this.slot?.streams.delete(this);
    this.slot = slot;
    if (this.closed) return;
    slot.streams.add(this);
    this.post({ type: 'open', streamId: this.id, options: { ...this.options, firstTurnId: this.nextTurnId } });
  }

  /** @internal No worker is left to run this stream. */
  fail(): void {
    this.slot = undefined;
    this.listener.onEvent({ type: 'error', code: 'PARLEY_ERR_WORKER_CRASHED', fatal: true, message: 'no inference worker is available' });
  }

  private post(msg: ToWorker, transfer?: ArrayBuffer[]): void {
    this.slot?.worker.postMessage(msg, transfer);
  }

  /** Names for the recogniser to favour from the next turn on; kept if the stream moves to another worker. */
  setNames(names: string[]): void {
    if (this.closed) return;
    this.options = { ...this.options, names };
    this.post({ type: 'names', streamId: this.id, names });
  }

  /** Send 16 kHz audio starting at session sample `startSample`; the buffer is transferred (unusable after). */
  push(samples: Float32Array, startSample: number): void {
    if (this.closed) return;
    const owned = samples.byteOffset === 0 && samples.byteLength === samples.buffer.byteLength ? samples : samples.slice();
    this.post({ type: 'audio', streamId: this.id, samples: owned, startSample }, [owned.buffer as ArrayBuffer]);
  }

  /** End the current turn now. */
  commit(): void {
    this.post({ type: 'commit', streamId: this.id });
  }

  /** Release the stream's state on its worker. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.post({ type: 'close', streamId: this.id });
    this.slot?.streams.delete(this);
  }
}
