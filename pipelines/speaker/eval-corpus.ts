import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from '../models/repo-root.js';

/**
 * Speech for training, calibrating and evaluating speaker embedders (not used at run time):
 * the shared real-speech set and TTS voices synthesised here with flite and festival.
 */

/** One utterance of a known speaker. */
export interface LabelledUtterance {
  speaker: string;
  /** `librispeech`, `speechbrain` or `tts`. */
  source: string;
  file: string;
  audio: Float32Array;
}

/** The shared data folder (`PARLEY_SHARED_DATA`, default `../shared/data` beside the repo). */
export function sharedDataDir(): string {
  return process.env.PARLEY_SHARED_DATA ?? path.resolve(repoRoot(), '../shared/data');
}

/** True when the shared speech set is present. */
export function hasSharedSpeech(): boolean {
  return existsSync(path.join(sharedDataDir(), 'speech', 'librispeech-test-other-10'));
}

/** Decode a 16-bit PCM mono WAV (any header layout) to Float32 in [-1, 1]; returns its sample rate. */
export function readWavPcm16(file: string): { audio: Float32Array; sampleRate: number } {
  const buf = readFileSync(file);
  if (buf.toString('ascii', 0, 4) !== 'RIFF' || buf.toString('ascii', 8, 12) !== 'WAVE') throw new Error(`not a WAV file: ${file}`);
  let off = 12;
  let sampleRate = 0;
  let channels = 1;
  while (off + 8 <= buf.length) {
    const id = buf.toString('ascii', off, off + 4);
    const size = buf.readUInt32LE(off + 4);
    if (id === 'fmt ') {
      channels = buf.readUInt16LE(off + 10);
      sampleRate = buf.readUInt32LE(off + 12);
      if (buf.readUInt16LE(off + 22) !== 16) throw new Error(`not 16-bit PCM: ${file}`);
    } else if (id === 'data') {
      const n = Math.floor(Math.min(size, buf.length - off - 8) / 2 / channels);
      const audio = new Float32Array(n);
      for (let i = 0; i < n; i++) audio[i] = buf.readInt16LE(off + 8 + i * 2 * channels) / 32768;
      return { audio, sampleRate };
    }
    off += 8 + size + (size % 2);
  }
  throw new Error(`no data chunk: ${file}`);
}

/** The LibriSpeech speakers (10 utterances each) of the shared set, by speaker id. */
export function loadLibriSpeech(speakers?: string[]): LabelledUtterance[] {
  const dir = path.join(sharedDataDir(), 'speech', 'librispeech-test-other-10');
  const ids = speakers ?? readdirSync(dir).filter((d) => /^\d+$/.test(d));
  return ids.flatMap((spk) =>
    readdirSync(path.join(dir, spk))
      .filter((f) => f.endsWith('.wav'))
      .sort()
      .map((f) => ({ speaker: `libri-${spk}`, source: 'librispeech', file: path.join(dir, spk, f), audio: readWavPcm16(path.join(dir, spk, f)).audio })),
  );
}

/** SpeechBrain's two test speakers (`sb-spk1`, `sb-spk2`), 6 utterances each. */
export function loadSpeechBrain(): LabelledUtterance[] {
  const dir = path.join(sharedDataDir(), 'speech', 'speechbrain');
  return readdirSync(dir)
    .filter((f) => /^spk\d_snt\d+\.wav$/.test(f))
    .sort()
    .map((f) => ({ speaker: `sb-${f.split('_')[0]!}`, source: 'speechbrain', file: path.join(dir, f), audio: readWavPcm16(path.join(dir, f)).audio }));
}

/** A TTS voice: engine plus voice name, optionally pitch-shifted (a different "speaker"). */
export interface TtsVoice {
  id: string;
  engine: 'flite' | 'festival';
  voice: string;
  /** sox `pitch` shift in cents (moves pitch and formants together); 0 for none. */
  shiftCents: number;
}

/** Voices used in training. */
export const TTS_TRAIN_VOICES: TtsVoice[] = [
  { id: 'flite-awb', engine: 'flite', voice: 'awb', shiftCents: 0 },
  { id: 'flite-rms', engine: 'flite', voice: 'rms', shiftCents: 0 },
  { id: 'flite-kal16', engine: 'flite', voice: 'kal16', shiftCents: 0 },
  { id: 'festival-kal', engine: 'festival', voice: 'kal_diphone', shiftCents: 0 },
  { id: 'flite-awb-up300', engine: 'flite', voice: 'awb', shiftCents: 300 },
  { id: 'flite-rms-down250', engine: 'flite', voice: 'rms', shiftCents: -250 },
  { id: 'flite-kal16-up400', engine: 'flite', voice: 'kal16', shiftCents: 400 },
  { id: 'festival-kal-down300', engine: 'festival', voice: 'kal_diphone', shiftCents: -300 },
];

/** Voices never used in training (evaluation only). */
export const TTS_HELDOUT_VOICES: TtsVoice[] = [
  { id: 'flite-slt', engine: 'flite', voice: 'slt', shiftCents: 0 },
  { id: 'festival-ked', engine: 'festival', voice: 'ked_diphone', shiftCents: 0 },
  { id: 'flite-slt-down300', engine: 'flite', voice: 'slt', shiftCents: -300 },
  { id: 'festival-ked-up300', engine: 'festival', voice: 'ked_diphone', shiftCents: 300 },
];

/** LibriSpeech speakers used in training (3 F, 3 M); the other four are held out. */
export const LIBRI_TRAIN = ['367', '533', '1998', '1688', '2033', '2414'];
export const LIBRI_HELDOUT = ['3080', '3331', '2609', '3005'];

/** Sentences the TTS voices read (written for this project). */
export const TTS_SENTENCES = [
  'Could you remind me what time the meeting starts tomorrow morning?',
  'I think we should move the garden party to the weekend after next.',
  'The train was late again, so I missed the first half of the talk.',
  'My sister bought a small grey cat called Miko last summer.',
  'Please write down the numbers before you forget them.',
  'We argued for an hour about where to put the new bookshelf.',
  'Honestly, the soup tasted better than it looked.',
  'Turn left at the bakery and keep walking until you see the river.',
  'Nobody expected the quiet student to win the chess tournament.',
  'Let me check my calendar and call you back this evening.',
  'The report needs three more charts and a shorter summary.',
  'She plays the violin every night after dinner.',
];

function cacheDir(): string {
  const dir = process.env.PARLEY_TTS_CACHE ?? path.join(os.tmpdir(), 'parley-speaker-tts');
  mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * Tag of the cached clips' recipe. sox dithers when it writes a pitch-shifted clip back to 16 bits and,
 * without `-R`, seeds the dither from the clock: each synthesis of a shifted voice differed, so the speaker
 * parameters fitted on one cache could not be reproduced after the cache (in os.tmpdir()) was lost. Clips
 * are now written with `-R` (repeatable dither) under this tag, so caches of the old recipe are not reused.
 */
const CLIP_RECIPE = 'r1';

/** Synthesise `text` with a voice to 16 kHz mono 16-bit (cached on disk); needs flite/festival and sox. */
export function synthesise(voice: TtsVoice, text: string, index: number): Float32Array {
  const out = path.join(cacheDir(), `${voice.id}-${index}.${CLIP_RECIPE}.wav`);
  if (!existsSync(out)) {
    const raw = path.join(cacheDir(), `${voice.id}-${index}.raw.wav`);
    if (voice.engine === 'flite') execFileSync('flite', ['-voice', voice.voice, '-t', text, '-o', raw]);
    else {
      const txt = path.join(cacheDir(), `${voice.id}-${index}.txt`);
      writeFileSync(txt, text);
      execFileSync('text2wave', ['-eval', `(voice_${voice.voice})`, txt, '-o', raw]);
    }
    const effects = voice.shiftCents !== 0 ? ['pitch', String(voice.shiftCents)] : [];
    execFileSync('sox', ['-V1', '-R', '-G', raw, '-r', '16000', '-c', '1', '-b', '16', out, ...effects, 'rate', '16000']);
  }
  return readWavPcm16(out).audio;
}

/** True when flite, festival's text2wave and sox are on the PATH. */
export function hasTts(): boolean {
  try {
    for (const cmd of ['flite', 'text2wave', 'sox']) execFileSync('sh', ['-c', `command -v ${cmd}`]);
    return true;
  } catch {
    return false;
  }
}

/** Utterances of TTS voices, `count` sentences each starting at sentence `first`. */
export function loadTts(voices: TtsVoice[], count = TTS_SENTENCES.length, first = 0): LabelledUtterance[] {
  return voices.flatMap((v) =>
    TTS_SENTENCES.slice(first, first + count).map((text, i) => ({
      speaker: `tts-${v.id}`,
      source: 'tts',
      file: `${v.id}#${first + i}`,
      audio: synthesise(v, text, first + i),
    })),
  );
}
