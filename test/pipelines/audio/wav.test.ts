import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { encodeWav, parseWav } from '../../../pipelines/audio/wav.js';
import { tempDir } from '../../helpers/temp-dir.js';

interface Header {
  format?: number;
  channels?: number;
  sampleRate?: number;
  bits?: number;
  blockAlign?: number;
  /** WAVE_FORMAT_EXTENSIBLE's subformat code (the first two bytes of its GUID). */
  subformat?: number;
}

/** A WAV of `data` bytes with the fmt chunk `header` describes (16 bytes, or 40 for WAVE_FORMAT_EXTENSIBLE). */
function wav(header: Header, data: Buffer, declared = data.length): Buffer {
  const { format = 1, channels = 1, sampleRate = 16000, bits = 16 } = header;
  const blockAlign = header.blockAlign ?? channels * (bits / 8);
  const fmt = Buffer.alloc(header.subformat !== undefined ? 40 : 16);
  fmt.writeUInt16LE(format, 0);
  fmt.writeUInt16LE(channels, 2);
  fmt.writeUInt32LE(sampleRate, 4);
  fmt.writeUInt32LE(sampleRate * blockAlign, 8);
  fmt.writeUInt16LE(blockAlign, 12);
  fmt.writeUInt16LE(bits, 14);
  if (header.subformat !== undefined) {
    fmt.writeUInt16LE(22, 16);
    fmt.writeUInt16LE(bits, 18);
    fmt.writeUInt32LE(channels === 1 ? 4 : 3, 20);
    // KSDATAFORMAT_SUBTYPE_*: the code, then 0000-0010-8000-00AA00389B71.
    fmt.writeUInt16LE(header.subformat, 24);
    Buffer.from('000000001000800000aa00389b71', 'hex').copy(fmt, 26);
  }
  const chunk = (id: string, body: Buffer, size = body.length): Buffer => {
    const head = Buffer.alloc(8);
    head.write(id, 0, 'latin1');
    head.writeUInt32LE(size, 4);
    return Buffer.concat([head, body]);
  };
  const body = Buffer.concat([Buffer.from('WAVE'), chunk('fmt ', fmt), chunk('data', data, declared)]);
  return Buffer.concat([chunk('RIFF', Buffer.alloc(0), body.length), body]);
}

const int16 = (...values: number[]): Buffer => {
  const b = Buffer.alloc(values.length * 2);
  values.forEach((v, i) => b.writeInt16LE(v, i * 2));
  return b;
};

describe('parseWav', () => {
  test('reads what encodeWav writes', () => {
    const out = parseWav(encodeWav(new Float32Array([0, 0.5, -0.5]), 8000));
    assert.equal(out.sampleRate, 8000);
    assert.deepEqual([...out.samples].map((v) => Math.round(v * 100) / 100), [0, 0.5, -0.5]);
  });

  test('WAVE_FORMAT_EXTENSIBLE with a PCM or float subformat reads as that format', () => {
    const pcm = parseWav(wav({ format: 0xfffe, subformat: 1, bits: 16 }, int16(16384, -16384)));
    assert.deepEqual([...pcm.samples], [0.5, -0.5]);
    const floats = Buffer.alloc(8);
    floats.writeFloatLE(0.25, 0);
    floats.writeFloatLE(-1, 4);
    const float = parseWav(wav({ format: 0xfffe, subformat: 3, bits: 32, sampleRate: 48000 }, floats));
    assert.equal(float.sampleRate, 48000);
    assert.deepEqual([...float.samples], [0.25, -1]);
  });

  test('8-, 24- and 32-bit PCM and 64-bit float are read; the first of several channels is returned', () => {
    assert.deepEqual([...parseWav(wav({ bits: 8 }, Buffer.from([128, 192, 64]))).samples], [0, 0.5, -0.5]);
    const s24 = Buffer.alloc(6);
    s24.writeIntLE(4194304, 0, 3);
    s24.writeIntLE(-8388608, 3, 3);
    assert.deepEqual([...parseWav(wav({ bits: 24 }, s24)).samples], [0.5, -1]);
    const f64 = Buffer.alloc(8);
    f64.writeDoubleLE(0.125, 0);
    assert.deepEqual([...parseWav(wav({ format: 3, bits: 64 }, f64)).samples], [0.125]);
    assert.deepEqual([...parseWav(wav({ channels: 2 }, int16(16384, 0, -16384, 0))).samples], [0.5, -0.5]);
  });

  test('G.711 A-law (6) and mu-law (7) are decoded, plain or as WAVE_FORMAT_EXTENSIBLE subformats', () => {
    const s16 = (...v: number[]): number[] => v.map((x) => x / 32768);
    // mu-law has a negative zero (0x7f); -0 + 0 is 0, for deepEqual.
    const read = (buf: Buffer): number[] => [...parseWav(buf).samples].map((x) => x + 0);
    // A-law: even bits inverted, a set sign bit positive; the smallest step 8 and the largest 32256 of each sign.
    const alaw = Buffer.from([0xd5, 0x55, 0xaa, 0x2a]);
    assert.deepEqual(read(wav({ format: 6, bits: 8, sampleRate: 8000 }, alaw)), s16(8, -8, 32256, -32256));
    // mu-law: stored complemented; 0xff is silence, 0x80 and 0x00 the largest 32124 of each sign.
    const mulaw = Buffer.from([0xff, 0x7f, 0x80, 0x00]);
    assert.deepEqual(read(wav({ format: 7, bits: 8, sampleRate: 8000 }, mulaw)), s16(0, 0, 32124, -32124));
    assert.deepEqual(read(wav({ format: 0xfffe, subformat: 6, bits: 8 }, alaw)), s16(8, -8, 32256, -32256));
    assert.deepEqual(read(wav({ format: 0xfffe, subformat: 7, bits: 8 }, mulaw)), s16(0, 0, 32124, -32124));
    // Of two channels (block align 2) the first is read.
    assert.deepEqual(read(wav({ format: 7, bits: 8, channels: 2 }, Buffer.from([0x80, 0xff, 0x00, 0xff]))), s16(32124, -32124));
  });

  test('every A-law and mu-law byte decodes as sox decodes it (sox writes the files: -e a-law, -e u-law)', () => {
    const tmp = tempDir('parley-wav-');
    try {
      // 256 distinct 16-bit levels spread over the range, so the companded files hold every code.
      const ramp = Float32Array.from({ length: 4096 }, (_, i) => Math.sign(i - 2048) * ((Math.abs(i - 2048) / 2048) ** 3));
      const source = path.join(tmp.dir, 'ramp.wav');
      writeFileSync(source, encodeWav(ramp, 8000));
      for (const encoding of ['a-law', 'u-law']) {
        const companded = path.join(tmp.dir, `${encoding}.wav`);
        const back = path.join(tmp.dir, `${encoding}-s16.wav`);
        execFileSync('sox', ['-D', source, '-e', encoding, companded]);
        execFileSync('sox', [companded, '-e', 'signed-integer', '-b', '16', back]);
        const file = readFileSync(companded);
        assert.equal(file.readUInt16LE(20), encoding === 'a-law' ? 6 : 7, 'sox wrote the format code');
        // Every code, but mu-law's negative zero (0x7f), which no encoder writes (0 is 0xff); the table test above reads it.
        assert.equal(new Set(file.subarray(file.indexOf('data') + 8)).size, encoding === 'a-law' ? 256 : 255, `${encoding}: every code present`);
        assert.deepEqual([...parseWav(file).samples], [...parseWav(readFileSync(back)).samples], encoding);
      }
    } finally {
      tmp.remove();
    }
  });

  test('a stream writer\'s unknown data size (0xFFFFFFFF) reads to the end of the file', () => {
    assert.deepEqual([...parseWav(wav({}, int16(16384, 16384), 0xffffffff)).samples], [0.5, 0.5]);
  });

  test('each defect is named', () => {
    const refused = (buf: Buffer, message: RegExp): void => assert.throws(() => parseWav(buf), message);
    refused(Buffer.from('RIFF'), /4 bytes is too short for a WAV header/);
    refused(Buffer.from('ID3\u0004 this is an mp3 file'), /not a RIFF\/WAVE file: it starts with "ID3\\u0004"/);
    const avi = wav({}, int16(1));
    avi.write('AVI ', 8, 'latin1');
    refused(avi, /a RIFF file of type "AVI ", not "WAVE"/);
    const rifx = wav({}, int16(1));
    rifx.write('RIFX', 0, 'latin1');
    refused(rifx, /big-endian RIFX/);
    refused(wav({ format: 0x11, bits: 4, blockAlign: 1 }, Buffer.from([1, 2])), /unsupported WAV format 0x0011 \(IMA ADPCM\)/);
    refused(wav({ format: 0x55, bits: 16 }, int16(1)), /unsupported WAV format 0x0055 \(MP3\)/);
    refused(wav({ format: 0xfffe, subformat: 0x55, bits: 16 }, int16(1)), /unsupported WAVE_FORMAT_EXTENSIBLE subformat 0x0055 \(MP3\)/);
    refused(wav({ format: 6, bits: 16 }, int16(1)), /unsupported bit depth 16 for A-law: 8 are read/);
    refused(wav({ bits: 12, blockAlign: 2 }, int16(1)), /unsupported bit depth 12 for PCM: 8, 16, 24, 32 are read/);
    refused(wav({ format: 3, bits: 16 }, int16(1)), /unsupported bit depth 16 for float: 32, 64 are read/);
    refused(wav({ channels: 0, blockAlign: 2 }, int16(1)), /0 channels/);
    refused(wav({ sampleRate: 0 }, int16(1)), /sample rate of 0 Hz/);
    refused(wav({ channels: 2, blockAlign: 2 }, int16(1, 2)), /block align is 2 bytes, but 2 channel\(s\) of 16 bits take 4/);
    refused(wav({}, int16(1, 2, 3), 600), /truncated: the data chunk declares 600 bytes but the file holds 6 of them/);
    const cut = wav({}, int16(1, 2, 3)).subarray(0, 30);
    refused(cut, /truncated: the file ends inside the fmt chunk \(10 of its 16 bytes\)/);
    const listCut = Buffer.concat([wav({}, int16(1)).subarray(0, 36), Buffer.from('LIST'), Buffer.from([100, 0, 0, 0, 1, 2])]);
    refused(listCut, /truncated: the file ends inside a chunk, before any data chunk/);
    refused(wav({}, int16(1)).subarray(0, 36), /the WAV has no data chunk/);
  });
});
