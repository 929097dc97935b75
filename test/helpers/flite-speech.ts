import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { readWav } from '../../pipelines/audio/wav.js';

/** flite `voice` (default awb) saying `text`, 16 kHz, with 0.6 s of silence before it (needs flite and sox). */
export function fliteSpeech(text: string, voice = 'awb'): Float32Array {
  const dir = mkdtempSync(path.join(tmpdir(), 'parley-flite-'));
  try {
    execFileSync('flite', ['-voice', voice, '-t', text, '-o', path.join(dir, 'raw.wav')]);
    execFileSync('sox', [path.join(dir, 'raw.wav'), '-r', '16000', '-c', '1', '-b', '16', path.join(dir, 'x.wav'), 'pad', '0.6', '0']);
    return readWav(path.join(dir, 'x.wav')).samples;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
