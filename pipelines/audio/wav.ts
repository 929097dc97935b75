import { readFileSync } from 'node:fs';

/** Decoded WAV contents. */
export interface WavAudio {
  /** Samples per second. */
  sampleRate: number;
  /** First channel, Float32 in [-1, 1]. */
  samples: Float32Array;
}

/** Parse a 16-bit PCM (format 1) or 32-bit float (format 3) RIFF/WAVE buffer; returns the first channel. */
export function parseWav(buf: Buffer): WavAudio {
  if (buf.toString('ascii', 0, 4) !== 'RIFF' || buf.toString('ascii', 8, 12) !== 'WAVE') throw new Error('not a RIFF/WAVE file');
  let offset = 12;
  let format = 0, channels = 1, sampleRate = 0, bits = 0;
  while (offset + 8 <= buf.length) {
    const id = buf.toString('ascii', offset, offset + 4);
    const size = buf.readUInt32LE(offset + 4);
    const body = offset + 8;
    if (id === 'fmt ') {
      format = buf.readUInt16LE(body);
      channels = buf.readUInt16LE(body + 2);
      sampleRate = buf.readUInt32LE(body + 4);
      bits = buf.readUInt16LE(body + 14);
    } else if (id === 'data') {
      const width = bits / 8;
      const frames = Math.floor(Math.min(size, buf.length - body) / (width * channels));
      const samples = new Float32Array(frames);
      for (let i = 0; i < frames; i++) {
        const at = body + i * width * channels;
        if (format === 1 && bits === 16) samples[i] = buf.readInt16LE(at) / 32768;
        else if (format === 3 && bits === 32) samples[i] = buf.readFloatLE(at);
        else throw new Error(`unsupported WAV format ${format}/${bits} bits`);
      }
      return { sampleRate, samples };
    }
    offset = body + size + (size & 1);
  }
  throw new Error('WAV has no data chunk');
}

/** Read and parse a WAV file. */
export function readWav(file: string): WavAudio {
  return parseWav(readFileSync(file));
}

/** Encode mono Float32 samples as a 16-bit PCM WAV. */
export function encodeWav(samples: Float32Array, sampleRate: number): Buffer {
  const buf = Buffer.alloc(44 + samples.length * 2);
  buf.write('RIFF', 0, 'ascii');
  buf.writeUInt32LE(36 + samples.length * 2, 4);
  buf.write('WAVEfmt ', 8, 'ascii');
  buf.writeUInt32LE(16, 16);
  buf.writeUInt16LE(1, 20);
  buf.writeUInt16LE(1, 22);
  buf.writeUInt32LE(sampleRate, 24);
  buf.writeUInt32LE(sampleRate * 2, 28);
  buf.writeUInt16LE(2, 32);
  buf.writeUInt16LE(16, 34);
  buf.write('data', 36, 'ascii');
  buf.writeUInt32LE(samples.length * 2, 40);
  for (let i = 0; i < samples.length; i++) {
    const v = Math.max(-1, Math.min(1, samples[i] ?? 0));
    buf.writeInt16LE(Math.round(v < 0 ? v * 32768 : v * 32767), 44 + i * 2);
  }
  return buf;
}
