import { execFileSync } from 'node:child_process';
import { AudioDecoder } from '../../pipelines/audio/audio-decoder.js';

/**
 * A simulated phone call of a 16 kHz clip, as Parley receives it: sox band-passes it to 300–3400 Hz, resamples to
 * 8 kHz and writes G.711 μ-law (repeatable dither, `-R`); the bytes then go through the server's own stream decoder
 * (μ-law, 8 kHz → 16 kHz) in 20 ms frames, as a Twilio call's would. Needs sox on the PATH.
 */
export async function phoneCall(audio: Float32Array): Promise<Float32Array> {
  const raw = ['-t', 'raw', '-r', '16000', '-e', 'floating-point', '-b', '32', '-c', '1'];
  const input = Buffer.from(audio.buffer, audio.byteOffset, audio.byteLength);
  const mulaw = execFileSync('sox', ['-R', '-V1', ...raw, '-', '-t', 'raw', '-r', '8000', '-e', 'u-law', '-b', '8', '-c', '1', '-', 'sinc', '300-3400', 'rate', '8000'],
    { input, maxBuffer: 1 << 28 });
  const decoder = await AudioDecoder.create({ encoding: 'mulaw', sampleRate: 8000, channels: 1 });
  try {
    const parts: Float32Array[] = [];
    for (let at = 0; at + 160 <= mulaw.length; at += 160) parts.push(decoder.decode(new Uint8Array(mulaw.subarray(at, at + 160))));
    const out = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) { out.set(p, at); at += p.length; }
    return out;
  } finally {
    decoder.close();
  }
}
