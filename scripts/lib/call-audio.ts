/**
 * A recording as a Twilio call carries it: G.711 mu-law, 8 kHz, mono, no header (what `scripts/replay-twilio.ts` sends).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import LibSampleRate from '@alexanderolsen/libsamplerate-js';
import { encodeMulaw } from '../../pipelines/audio/pcm-codecs.js';
import { parseWav } from '../../pipelines/audio/wav.js';

/** Twilio Media Streams' only sample rate, Hz. */
export const CALL_SAMPLE_RATE = 8000;

/** Extensions read as raw mu-law at 8 kHz, as `scripts/make-twilio-fixture.sh` writes it. */
const RAW_MULAW = new Set(['.ulaw', '.mulaw', '.mu']);

/**
 * The mu-law bytes of `file`: a `.ulaw` / `.mulaw` file as it is (raw G.711 mu-law, 8 kHz, mono); a `.wav` (integer
 * PCM, float, A-law or mu-law, at any sample rate; its first channel) resampled to 8 kHz with libsamplerate, as the
 * server's own decoder resamples, and encoded.
 * @throws Error naming the file and what is wrong: another kind of file, a WAV that cannot be read, or no audio.
 */
export async function callAudio(file: string): Promise<Buffer> {
  const ext = path.extname(file).toLowerCase();
  if (RAW_MULAW.has(ext)) {
    const raw = readFileSync(file);
    if (raw.length === 0) throw new Error(`${file}: the file is empty`);
    return raw;
  }
  if (ext !== '.wav') {
    throw new Error(`${file}: not a .wav, .ulaw or .mulaw file (convert it first, e.g. sox call.mp3 call.wav)`);
  }
  let wav: ReturnType<typeof parseWav>;
  try {
    wav = parseWav(readFileSync(file));
  } catch (err) {
    throw new Error(`${file}: ${(err as Error).message}`);
  }
  if (wav.samples.length === 0) throw new Error(`${file}: the WAV holds no samples`);
  if (wav.sampleRate === CALL_SAMPLE_RATE) return Buffer.from(encodeMulaw(wav.samples));
  const src = await LibSampleRate.create(1, wav.sampleRate, CALL_SAMPLE_RATE, { converterType: LibSampleRate.ConverterType.SRC_SINC_MEDIUM_QUALITY });
  try {
    return Buffer.from(encodeMulaw(src.full(wav.samples)));
  } finally {
    src.destroy();
  }
}
