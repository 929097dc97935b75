import { ParleyError } from '../errors.js';
import { ENCODINGS, SAMPLE_RATES, type AudioEncoding } from '../protocol/ws-messages.js';

/** The audio format a stream declared in its query parameters. */
export interface AudioFormat {
  encoding: AudioEncoding;
  sampleRate: number;
  channels: 1;
}

const BYTES_PER_SAMPLE: Record<AudioEncoding, number> = { pcm_s16le: 2, f32le: 4, mulaw: 1 };

/** Shortest and longest accepted binary frame, in ms of audio. */
export const MIN_FRAME_MS = 10;
export const MAX_FRAME_MS = 1000;

/** Parse the stream's query parameters; throws a ParleyError naming the bad parameter. */
export function parseAudioFormat(query: Record<string, unknown>): AudioFormat {
  const encoding = (query.encoding ?? 'pcm_s16le') as string;
  if (!(ENCODINGS as readonly string[]).includes(encoding)) {
    throw new ParleyError('PARLEY_ERR_BAD_REQUEST', `encoding=${encoding} is not supported; use one of ${ENCODINGS.join(', ')}`);
  }
  const sampleRate = Number(query.sample_rate ?? 16000);
  if (!(SAMPLE_RATES as readonly number[]).includes(sampleRate)) {
    throw new ParleyError('PARLEY_ERR_BAD_REQUEST', `sample_rate=${String(query.sample_rate)} is not supported; use one of ${SAMPLE_RATES.join(', ')}`);
  }
  if (query.channels !== undefined && Number(query.channels) !== 1) {
    throw new ParleyError('PARLEY_ERR_BAD_REQUEST', `channels=${String(query.channels)} is not supported; send mono (channels=1)`);
  }
  return { encoding: encoding as AudioEncoding, sampleRate, channels: 1 };
}

/**
 * Check a binary frame against the declared format: a whole number of samples, 10 ms to 1 s long,
 * and (for f32le) only finite samples. Returns the frame's duration in ms.
 */
export function validateAudioFrame(frame: Buffer, format: AudioFormat): number {
  const bytes = BYTES_PER_SAMPLE[format.encoding];
  if (frame.length % bytes !== 0) {
    throw new ParleyError('PARLEY_ERR_BAD_AUDIO', `frame of ${frame.length} bytes is not a whole number of ${format.encoding} samples (${bytes} bytes each)`);
  }
  const samples = frame.length / bytes;
  const durationMs = (samples / format.sampleRate) * 1000;
  if (durationMs > MAX_FRAME_MS) {
    throw new ParleyError('PARLEY_ERR_FRAME_TOO_LARGE', `frame holds ${durationMs.toFixed(1)} ms of audio; send at most ${MAX_FRAME_MS} ms per frame`);
  }
  if (durationMs < MIN_FRAME_MS) {
    throw new ParleyError('PARLEY_ERR_BAD_AUDIO', `frame holds ${durationMs.toFixed(1)} ms of audio; send at least ${MIN_FRAME_MS} ms per frame`);
  }
  if (format.encoding === 'f32le') {
    for (let i = 0; i < samples; i++) {
      const x = frame.readFloatLE(i * 4);
      if (!Number.isFinite(x)) throw new ParleyError('PARLEY_ERR_BAD_AUDIO', `sample ${i} is ${x}; f32le samples must be finite`);
    }
  }
  return durationMs;
}
