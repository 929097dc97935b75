import { ParleyError } from './errors.js';
import type { ClientMessage } from './generated/api.js';

/** Audio encodings /v1/stream accepts, and their bytes per sample. */
export const BYTES_PER_SAMPLE = { pcm_s16le: 2, f32le: 4, mulaw: 1 } as const;
export type AudioEncoding = keyof typeof BYTES_PER_SAMPLE;

/** The byte of silence in each encoding (μ-law silence is 0xFF). */
const SILENCE = { pcm_s16le: 0, f32le: 0, mulaw: 0xff } as const;

/** Shortest frame the server accepts, ms. */
export const MIN_FRAME_MS = 10;

/**
 * Outgoing audio cut into frames of `frameMs`, and JSON messages kept in order with it (a message
 * sent after some audio goes out after that audio).
 */
export type Outgoing = { kind: 'audio'; data: Uint8Array; ms: number } | { kind: 'json'; message: ClientMessage; text: string };

export class AudioQueue {
  private readonly items: Outgoing[] = [];
  private pending = new Uint8Array(0);
  readonly frameBytes: number;
  private readonly sampleBytes: number;

  constructor(private readonly encoding: AudioEncoding, private readonly sampleRate: number, readonly frameMs: number) {
    if (!Number.isFinite(frameMs) || frameMs < MIN_FRAME_MS || frameMs > 1000) {
      throw new ParleyError('PARLEY_CLIENT_BAD_OPTIONS', `frameMs must be ${MIN_FRAME_MS} to 1000, not ${frameMs}`);
    }
    this.sampleBytes = BYTES_PER_SAMPLE[encoding];
    this.frameBytes = Math.round((sampleRate * frameMs) / 1000) * this.sampleBytes;
  }

  get length(): number {
    return this.items.length;
  }

  /** Add audio bytes; whole frames become ready, the rest waits for more (or `flush`). */
  pushAudio(bytes: Uint8Array): void {
    const joined = new Uint8Array(this.pending.byteLength + bytes.byteLength);
    joined.set(this.pending);
    joined.set(bytes, this.pending.byteLength);
    let offset = 0;
    while (joined.byteLength - offset >= this.frameBytes) {
      this.items.push({ kind: 'audio', data: joined.slice(offset, offset + this.frameBytes), ms: this.frameMs });
      offset += this.frameBytes;
    }
    this.pending = joined.slice(offset);
  }

  /**
   * Send the whole samples of the partial frame still held, padded with silence to at least `MIN_FRAME_MS`. Bytes of a
   * sample not yet complete are kept for the next `pushAudio` (so later audio stays aligned), unless `final`.
   * @throws ParleyError `PARLEY_ERR_BAD_AUDIO` when `final` and the audio ends in the middle of a sample: those bytes
   * are dropped (the server would drop a frame that is not whole samples), the samples before them went out, and the
   * queue goes on.
   */
  flush(final: boolean): void {
    const partial = this.pending.byteLength % this.sampleBytes;
    const whole = this.pending.byteLength - partial;
    if (whole > 0) {
      const minBytes = Math.round((this.sampleRate * MIN_FRAME_MS) / 1000) * this.sampleBytes;
      const data = new Uint8Array(Math.max(minBytes, whole)).fill(SILENCE[this.encoding]);
      data.set(this.pending.subarray(0, whole));
      this.items.push({ kind: 'audio', data, ms: (data.byteLength / this.sampleBytes / this.sampleRate) * 1000 });
    }
    this.pending = this.pending.slice(whole);
    if (final && partial > 0) {
      this.pending = new Uint8Array(0);
      throw new ParleyError('PARLEY_ERR_BAD_AUDIO', `audio ends in the middle of a sample (${partial} stray byte${partial === 1 ? '' : 's'} of ${this.encoding} after the last whole sample): ${partial === 1 ? 'it was' : 'they were'} dropped, as the server drops a frame that is not whole samples; the session goes on`);
    }
  }

  /**
   * A JSON message, after the audio queued so far (the whole samples of its partial frame included; a sample not yet
   * complete waits for the next audio); kept as given, serialised once.
   */
  pushJson(message: ClientMessage): void {
    this.flush(message.type === 'session.end');
    this.items.push({ kind: 'json', message, text: JSON.stringify(message) });
  }

  /** Put items back in front of everything queued (audio to send again first). */
  unshift(items: Outgoing[]): void {
    this.items.unshift(...items);
  }

  peek(): Outgoing | undefined {
    return this.items[0];
  }

  shift(): Outgoing | undefined {
    return this.items.shift();
  }
}
