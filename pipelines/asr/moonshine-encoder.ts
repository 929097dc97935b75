import ort from 'onnxruntime-node';
import { ParleyError } from '../../graph/core/errors.js';
import { openOnnxSession } from '../models/onnx-session.js';

/** Fewest samples the encoder accepts (its three strided convolutions leave at least one frame): 100 ms. */
export const MOONSHINE_MIN_SAMPLES = 1600;

/** Encoder states of one piece of audio: `frames` rows of `dim` values, row-major. */
export interface EncoderStates {
  data: Float32Array;
  frames: number;
  dim: number;
}

/**
 * The encoder half of a Moonshine ONNX export: raw 16 kHz audio in, one hidden state per frame out.
 * The recogniser feeds its output to the decoder; the speaker features pool it (pipelines/speaker/).
 * One intra-op thread, sequential execution; `run` may be called concurrently.
 */
export class MoonshineEncoder {
  private constructor(private readonly session: ort.InferenceSession, private readonly output: string) {}

  /**
   * Open `file` and check it is a Moonshine encoder (input `input_values`, output `last_hidden_state`). With `cut`,
   * the session runs `cut.bytes` instead, a model derived from `file` (`moonshine-encoder-graph.ts`), whose states
   * are its output `cut.output`.
   * @throws ParleyError `PARLEY_ERR_MODEL_MISSING` when it cannot be loaded or has other inputs/outputs.
   */
  static async load(file: string, hint?: string, cut?: { bytes: Uint8Array; output: string }): Promise<MoonshineEncoder> {
    const session = await openOnnxSession(file, { what: 'Moonshine model', ...(hint ? { hint } : {}), ...(cut ? { bytes: cut.bytes } : {}), session: { executionMode: 'sequential' } });
    const output = cut?.output ?? 'last_hidden_state';
    if (session.inputNames.join() !== 'input_values' || !session.outputNames.includes(output)) {
      const got = `encoder inputs ${session.inputNames.join(', ')}, outputs ${session.outputNames.join(', ')}`;
      await session.release();
      throw new ParleyError('PARLEY_ERR_MODEL_MISSING', `${file} is not a Moonshine ONNX encoder: ${got}`);
    }
    return new MoonshineEncoder(session, output);
  }

  /**
   * The encoder's last hidden states (or a cut encoder's output) as a tensor [1, frames, dim]. Audio shorter than
   * {@link MOONSHINE_MIN_SAMPLES} is padded with silence to that length.
   */
  async run(audio: Float32Array): Promise<ort.Tensor> {
    const input = audio.length >= MOONSHINE_MIN_SAMPLES ? audio : padded(audio, MOONSHINE_MIN_SAMPLES);
    const { [this.output]: hidden } = await this.session.run({ input_values: new ort.Tensor('float32', input, [1, input.length]) });
    if (!hidden) throw new Error(`Moonshine encoder returned no ${this.output}`);
    return hidden;
  }

  /**
   * Per-frame states as plain rows: the last hidden states (a cut encoder's output), or the named `outputs` of the
   * model (of one run; an export with intermediate layers added as outputs gives them, for probes).
   */
  async states(audio: Float32Array, outputs: string[] = [this.output]): Promise<EncoderStates[]> {
    const input = audio.length >= MOONSHINE_MIN_SAMPLES ? audio : padded(audio, MOONSHINE_MIN_SAMPLES);
    const out = await this.session.run({ input_values: new ort.Tensor('float32', input, [1, input.length]) }, outputs);
    return outputs.map((name) => {
      const t = out[name];
      if (!t || t.dims.length !== 3) throw new Error(`Moonshine encoder returned no [1, frames, dim] ${name}`);
      const [, frames, dim] = t.dims as [number, number, number];
      return { data: t.data as Float32Array, frames, dim };
    });
  }

  async release(): Promise<void> {
    await this.session.release();
  }
}

function padded(audio: Float32Array, length: number): Float32Array {
  const out = new Float32Array(length);
  out.set(audio);
  return out;
}
