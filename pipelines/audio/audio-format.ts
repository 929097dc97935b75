import { ParleyError } from '../../graph/core/errors.js';

/** Wire encodings a client may declare for binary audio frames. */
export const AUDIO_ENCODINGS = ['pcm_s16le', 'f32le', 'mulaw'] as const;
/** One of {@link AUDIO_ENCODINGS}. */
export type AudioEncoding = (typeof AUDIO_ENCODINGS)[number];

/** Sample rates (Hz) a client may declare. */
export const SAMPLE_RATES = [8000, 16000, 24000, 44100, 48000] as const;
/** One of {@link SAMPLE_RATES}. */
export type SampleRate = (typeof SAMPLE_RATES)[number];

/** The rate (Hz) every stage after the decoder works at. */
export const PIPELINE_SAMPLE_RATE = 16000;

/** Shortest accepted frame, in milliseconds of audio. */
export const MIN_FRAME_MS = 10;
/** Longest accepted frame, in milliseconds of audio. */
export const MAX_FRAME_MS = 1000;

/** A session's declared audio stream format. */
export interface StreamFormat {
  encoding: AudioEncoding;
  /** Samples per second of the incoming frames. */
  sampleRate: SampleRate;
  /** Always 1: only mono is accepted. */
  channels: 1;
}

/** Unvalidated stream parameters, as they arrive (e.g. from a WebSocket query string). */
export interface StreamFormatParams {
  encoding?: string | undefined;
  sampleRate?: number | string | undefined;
  channels?: number | string | undefined;
}

/** Bytes per sample of an encoding. */
export function bytesPerSample(encoding: AudioEncoding): number {
  return encoding === 'f32le' ? 4 : encoding === 'pcm_s16le' ? 2 : 1;
}

function badAudio(message: string): ParleyError {
  return new ParleyError('PARLEY_ERR_BAD_AUDIO', message);
}

/**
 * Validate declared stream parameters, applying the documented defaults (`pcm_s16le`, 16000 Hz, mono).
 * @throws ParleyError `PARLEY_ERR_BAD_AUDIO` for an unsupported encoding, rate or channel count.
 */
export function validateStreamFormat(params: StreamFormatParams): StreamFormat {
  const encoding = params.encoding ?? 'pcm_s16le';
  if (!(AUDIO_ENCODINGS as readonly string[]).includes(encoding)) {
    throw badAudio(`unsupported encoding "${encoding}"; use one of ${AUDIO_ENCODINGS.join(', ')}`);
  }
  const rate = params.sampleRate === undefined ? 16000 : Number(params.sampleRate);
  if (!(SAMPLE_RATES as readonly number[]).includes(rate)) {
    throw badAudio(`unsupported sample_rate "${String(params.sampleRate)}"; use one of ${SAMPLE_RATES.join(', ')}`);
  }
  const channels = params.channels === undefined ? 1 : Number(params.channels);
  if (channels !== 1) throw badAudio(`unsupported channels "${String(params.channels)}"; only mono (1) is accepted`);
  return { encoding: encoding as AudioEncoding, sampleRate: rate as SampleRate, channels: 1 };
}

/**
 * Check one binary frame against the stream format: a whole number of samples, 10 ms to 1 s long.
 * @returns the number of samples in the frame.
 * @throws ParleyError `PARLEY_ERR_BAD_AUDIO`, or `PARLEY_ERR_FRAME_TOO_LARGE` past 1 s (non-fatal for the session).
 */
export function validateFrame(format: StreamFormat, frame: Uint8Array): number {
  const width = bytesPerSample(format.encoding);
  if (frame.byteLength % width !== 0) {
    throw badAudio(`frame of ${frame.byteLength} bytes is not a whole number of ${width}-byte ${format.encoding} samples`);
  }
  const samples = frame.byteLength / width;
  const durationMs = (samples * 1000) / format.sampleRate;
  if (durationMs < MIN_FRAME_MS) throw badAudio(`frame of ${durationMs.toFixed(1)} ms is shorter than ${MIN_FRAME_MS} ms`);
  if (durationMs > MAX_FRAME_MS) {
    throw new ParleyError('PARLEY_ERR_FRAME_TOO_LARGE', `frame of ${durationMs.toFixed(1)} ms is longer than ${MAX_FRAME_MS} ms`);
  }
  return samples;
}
