/**
 * AudioWorklet processor `pcm16k`: takes the microphone at the context's rate (usually 48 kHz), low-passes it
 * below 8 kHz, resamples it to 16 kHz and posts 100 ms frames (1600 samples) of pcm_s16le to the page,
 * which sends each as one binary WebSocket frame to /v1/stream.
 * Runs in the AudioWorkletGlobalScope: no DOM, no imports.
 */

// The AudioWorkletGlobalScope is not in TypeScript's DOM library.
declare const sampleRate: number;
declare class AudioWorkletProcessor {
  readonly port: MessagePort;
}
declare function registerProcessor(name: string, ctor: new () => AudioWorkletProcessor): void;

const TARGET_RATE = 16_000;
const FRAME = 1600; // 100 ms at 16 kHz
const TAPS = 63;
const MIN_FRAME = 160; // 10 ms, the shortest frame /v1/stream accepts

/** A windowed-sinc (Blackman) low-pass, cut-off in cycles per input sample, unity gain at DC. */
function lowPass(cutoff: number, taps: number): Float32Array {
  const h = new Float32Array(taps);
  const m = (taps - 1) / 2;
  let sum = 0;
  for (let i = 0; i < taps; i++) {
    const x = i - m;
    const sinc = x === 0 ? 2 * cutoff : Math.sin(2 * Math.PI * cutoff * x) / (Math.PI * x);
    const w = 0.42 - 0.5 * Math.cos((2 * Math.PI * i) / (taps - 1)) + 0.08 * Math.cos((4 * Math.PI * i) / (taps - 1));
    h[i] = sinc * w;
    sum += h[i]!;
  }
  for (let i = 0; i < taps; i++) h[i]! /= sum;
  return h;
}

class Pcm16kProcessor extends AudioWorkletProcessor {
  private readonly step = sampleRate / TARGET_RATE;
  private readonly filter: Float32Array | null = sampleRate > TARGET_RATE ? lowPass((0.45 * TARGET_RATE) / sampleRate, TAPS) : null;
  /** The last TAPS input samples (a ring), for the FIR. */
  private readonly history = new Float32Array(TAPS);
  private head = 0;
  /** Filtered samples at input positions n-1 and n, and the input position of the next output sample. */
  private prev = 0;
  private curr = 0;
  private n = -1;
  private next = 0;
  private out = new Int16Array(FRAME);
  private filled = 0;

  constructor() {
    super();
    // 'flush': post what is held of the last frame (padded with silence to the 10 ms the server accepts
    // at least), then 'flushed', after which the page sends `session.end`.
    this.port.onmessage = (e: MessageEvent) => {
      if (e.data !== 'flush') return;
      if (this.filled > 0) {
        while (this.filled < MIN_FRAME) this.out[this.filled++] = 0;
        this.emit(this.filled);
      }
      this.port.postMessage('flushed');
    };
  }

  private filtered(x: number): number {
    if (!this.filter) return x;
    this.history[this.head] = x;
    this.head = (this.head + 1) % TAPS;
    let acc = 0;
    for (let i = 0, j = this.head; i < TAPS; i++, j = (j + 1) % TAPS) acc += this.filter[i]! * this.history[j]!;
    return acc;
  }

  private emit(length: number): void {
    const frame = this.out.slice(0, length);
    this.port.postMessage(frame.buffer, [frame.buffer]);
    this.filled = 0;
  }

  process(inputs: Float32Array[][]): boolean {
    const channel = inputs[0]?.[0];
    if (!channel) return true;
    for (let i = 0; i < channel.length; i++) {
      this.prev = this.curr;
      this.curr = this.filtered(channel[i]!);
      this.n++;
      // Output samples whose position falls between input samples n-1 and n: linear interpolation.
      while (this.next <= this.n) {
        const frac = this.next - (this.n - 1);
        const v = this.prev + (this.curr - this.prev) * frac;
        const s = Math.max(-1, Math.min(1, v));
        this.out[this.filled++] = s < 0 ? Math.round(s * 0x8000) : Math.round(s * 0x7fff);
        if (this.filled === FRAME) this.emit(FRAME);
        this.next += this.step;
      }
    }
    return true;
  }
}

registerProcessor('pcm16k', Pcm16kProcessor);
