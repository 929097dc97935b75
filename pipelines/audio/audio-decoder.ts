import LibSampleRate from '@alexanderolsen/libsamplerate-js';
import type { SRC } from '@alexanderolsen/libsamplerate-js/dist/src.js';
import { PIPELINE_SAMPLE_RATE, validateFrame, type StreamFormat } from './audio-format.js';
import { decodePcm } from './pcm-codecs.js';

/**
 * Per-session decoder: validates binary frames in the session's declared format, decodes them to Float32
 * and resamples to 16 kHz with a streaming libsamplerate converter whose filter state carries across
 * frames (so frame boundaries add no clicks). Create with {@link AudioDecoder.create}; call
 * {@link AudioDecoder.close} when the session ends.
 */
export class AudioDecoder {
  /** Total 16 kHz samples produced so far; position of the next output sample on the session clock. */
  samplesOut = 0;

  private constructor(
    readonly format: StreamFormat,
    private readonly resampler: SRC | null,
  ) {}

  /** Build a decoder for a validated format (loads the resampler's WASM module when the rate is not 16 kHz). */
  static async create(format: StreamFormat): Promise<AudioDecoder> {
    if (format.sampleRate === PIPELINE_SAMPLE_RATE) return new AudioDecoder(format, null);
    const resampler = await LibSampleRate.create(1, format.sampleRate, PIPELINE_SAMPLE_RATE, {
      converterType: LibSampleRate.ConverterType.SRC_SINC_FASTEST,
    });
    return new AudioDecoder(format, resampler);
  }

  /**
   * Validate and decode one frame to 16 kHz Float32 in [-1, 1]. The result may be a few samples shorter
   * or longer than the exact ratio because the resampler keeps filter delay between calls.
   * @throws ParleyError `PARLEY_ERR_BAD_AUDIO` for a malformed frame; the decoder stays usable.
   */
  decode(frame: Uint8Array): Float32Array {
    validateFrame(this.format, frame);
    const pcm = decodePcm(this.format.encoding, frame);
    // libsamplerate-js returns a view over WASM memory that the next call overwrites: copy it out.
    const out = this.resampler ? Float32Array.from(this.resampler.full(pcm)) : pcm;
    this.samplesOut += out.length;
    return out;
  }

  /** Release the resampler's WASM state. */
  close(): void {
    this.resampler?.destroy();
  }
}
