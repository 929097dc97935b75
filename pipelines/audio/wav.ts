import { readFileSync } from 'node:fs';
import { alawSample, mulawSample } from './pcm-codecs.js';

/** Decoded WAV contents. */
export interface WavAudio {
  /** Samples per second. */
  sampleRate: number;
  /** First channel, Float32 in [-1, 1]. */
  samples: Float32Array;
}

/** `WAVE_FORMAT_*` codes of the `fmt ` chunk. */
const PCM = 1;
const FLOAT = 3;
const ALAW = 6;
const MULAW = 7;
const EXTENSIBLE = 0xfffe;

/** Names of format codes a WAV may carry, for errors. */
const FORMAT_NAMES: Record<number, string> = {
  [PCM]: 'PCM', 2: 'Microsoft ADPCM', [FLOAT]: 'IEEE float', [ALAW]: 'A-law', [MULAW]: 'mu-law', 0x11: 'IMA ADPCM', 0x31: 'GSM 6.10',
  0x50: 'MPEG', 0x55: 'MP3',
};

/** Bit depths read per format: integer PCM 8 (unsigned), 16, 24 or 32; float 32 or 64; G.711 A-law and mu-law 8. */
const DEPTHS: Record<number, number[]> = { [PCM]: [8, 16, 24, 32], [FLOAT]: [32, 64], [ALAW]: [8], [MULAW]: [8] };

/** A data chunk size streaming writers leave when they cannot seek back: read to the end of the file. */
const UNKNOWN_SIZE = 0xffffffff;

interface WavFormat { format: number; channels: number; sampleRate: number; bits: number }

/** The `fmt ` chunk at `body` of `size` bytes; an extensible one reads as the format it wraps. */
function readFormat(buf: Buffer, body: number, size: number): WavFormat {
  if (body + size > buf.length) throw new Error(`truncated: the file ends inside the fmt chunk (${buf.length - body} of its ${size} bytes)`);
  if (size < 16) throw new Error(`the fmt chunk is ${size} bytes; at least 16 are needed`);
  let format = buf.readUInt16LE(body);
  const channels = buf.readUInt16LE(body + 2);
  const sampleRate = buf.readUInt32LE(body + 4);
  const blockAlign = buf.readUInt16LE(body + 12);
  const bits = buf.readUInt16LE(body + 14);
  if (format === EXTENSIBLE) {
    if (size < 40) throw new Error('WAVE_FORMAT_EXTENSIBLE needs a 40-byte fmt chunk with its subformat');
    // The subformat GUID starts with the format code it stands for (KSDATAFORMAT_SUBTYPE_PCM: 1, _IEEE_FLOAT: 3,
    // _ALAW: 6, _MULAW: 7).
    format = buf.readUInt16LE(body + 24);
    if (!DEPTHS[format]) throw new Error(`unsupported WAVE_FORMAT_EXTENSIBLE subformat ${formatName(format)}: only PCM, IEEE float, A-law and mu-law are read`);
  }
  const depths = DEPTHS[format];
  if (!depths) {
    throw new Error(`unsupported WAV format ${formatName(format)}: only PCM (1), IEEE float (3), A-law (6), mu-law (7) and WAVE_FORMAT_EXTENSIBLE of these are read`);
  }
  const kind = format === FLOAT ? 'float' : FORMAT_NAMES[format] ?? 'PCM';
  if (!depths.includes(bits)) throw new Error(`unsupported bit depth ${bits} for ${kind}: ${depths.join(', ')} are read`);
  if (channels === 0) throw new Error('the fmt chunk says 0 channels');
  if (sampleRate === 0) throw new Error('the fmt chunk says a sample rate of 0 Hz');
  if (blockAlign !== channels * (bits / 8)) {
    throw new Error(`the fmt chunk's block align is ${blockAlign} bytes, but ${channels} channel(s) of ${bits} bits take ${channels * (bits / 8)}`);
  }
  return { format, channels, sampleRate, bits };
}

function formatName(code: number): string {
  const name = FORMAT_NAMES[code];
  return `0x${code.toString(16).padStart(4, '0')}${name ? ` (${name})` : ''}`;
}

/** The sample at byte `at` in [-1, 1]. */
function sampleAt(buf: Buffer, at: number, { format, bits }: WavFormat): number {
  if (format === FLOAT) return bits === 32 ? buf.readFloatLE(at) : buf.readDoubleLE(at);
  if (format === ALAW) return alawSample(buf.readUInt8(at));
  if (format === MULAW) return mulawSample(buf.readUInt8(at));
  switch (bits) {
    case 8: return (buf.readUInt8(at) - 128) / 128;
    case 16: return buf.readInt16LE(at) / 32768;
    case 24: return buf.readIntLE(at, 3) / 8388608;
    default: return buf.readInt32LE(at) / 2147483648;
  }
}

/** Why `buf` is no RIFF/WAVE file at all, or null when its header says it is one. */
function notWave(buf: Buffer): string | null {
  if (buf.length < 12) return `${buf.length} bytes is too short for a WAV header (12 bytes at least)`;
  const riff = buf.toString('latin1', 0, 4);
  if (riff === 'RIFX') return 'a big-endian RIFX file: only little-endian RIFF/WAVE is read';
  if (riff === 'RF64') return 'an RF64 (64-bit) WAV: only RIFF/WAVE under 4 GiB is read';
  if (riff !== 'RIFF') return `not a RIFF/WAVE file: it starts with ${JSON.stringify(riff)}, not "RIFF"`;
  const wave = buf.toString('latin1', 8, 12);
  return wave === 'WAVE' ? null : `a RIFF file of type ${JSON.stringify(wave)}, not "WAVE"`;
}

/**
 * Parse a RIFF/WAVE buffer of integer PCM (8, 16, 24 or 32 bits), IEEE float (32 or 64 bits) or G.711 A-law or mu-law
 * (8 bits), plain or as WAVE_FORMAT_EXTENSIBLE; returns the first channel.
 * @throws Error naming what is wrong: not RIFF/WAVE, a format or bit depth not read, a bad fmt chunk, no data
 * chunk, or a data chunk cut short (a file truncated in transit).
 */
export function parseWav(buf: Buffer): WavAudio {
  const why = notWave(buf);
  if (why) throw new Error(why);
  let offset = 12;
  let fmt: WavFormat | null = null;
  while (offset + 8 <= buf.length) {
    const id = buf.toString('latin1', offset, offset + 4);
    const size = buf.readUInt32LE(offset + 4);
    const body = offset + 8;
    if (id === 'fmt ') {
      fmt = readFormat(buf, body, size);
    } else if (id === 'data') {
      if (!fmt) throw new Error('the data chunk comes before any fmt chunk: the format of the samples is unknown');
      const available = buf.length - body;
      if (size !== UNKNOWN_SIZE && size > available) {
        throw new Error(`truncated: the data chunk declares ${size} bytes but the file holds ${available} of them`);
      }
      const frameBytes = fmt.channels * (fmt.bits / 8);
      const frames = Math.floor(Math.min(size, available) / frameBytes);
      const samples = new Float32Array(frames);
      for (let i = 0; i < frames; i++) samples[i] = sampleAt(buf, body + i * frameBytes, fmt);
      return { sampleRate: fmt.sampleRate, samples };
    }
    offset = body + size + (size & 1);
  }
  throw new Error(offset > buf.length ? 'truncated: the file ends inside a chunk, before any data chunk' : 'the WAV has no data chunk');
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
