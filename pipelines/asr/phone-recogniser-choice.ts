import { existsSync } from 'node:fs';
import path from 'node:path';
import { damagedFiles } from '../models/pinned-files.js';
import { MOONSHINE_FILES } from './moonshine-model.js';

/** The values `PARLEY_ASR_PHONE` takes; `auto` (the default) is resolved by {@link resolvePhoneRecogniser}. */
export const PHONE_RECOGNISER_CHOICES = ['auto', 'moonshine', 'pocketsphinx'] as const;
export type PhoneRecogniserChoice = (typeof PHONE_RECOGNISER_CHOICES)[number];
/** The recogniser 8 kHz streams get: every choice but `auto`. */
export type PhoneRecogniser = Exclude<PhoneRecogniserChoice, 'auto'>;

/** Whether Moonshine model `model` (`moonshine-tiny`, `moonshine-base`) is in `modelsDir` (files present, not verified). */
export function moonshineInstalled(modelsDir: string, model: string): boolean {
  return Object.values(MOONSHINE_FILES).every((f) => existsSync(path.join(modelsDir, model, f)));
}

/**
 * Why Moonshine model `model` in `modelsDir` cannot serve streams, in words that name the folder: not installed
 * (a file missing), or damaged (a file whose SHA-256 is not the one `models fetch` pinned: truncated or corrupt);
 * null when every file is there as fetched. Hashing reads the files once per process (`sha256FileSync`).
 */
export function moonshineUnusable(modelsDir: string, model: string): string | null {
  if (!moonshineInstalled(modelsDir, model)) return `${model} is not installed in ${modelsDir}`;
  const damaged = damagedFiles(modelsDir, model, Object.values(MOONSHINE_FILES));
  return damaged.length === 0 ? null : `${model} in ${path.join(modelsDir, model)} is damaged (${damaged.join('; ')})`;
}

/**
 * The recogniser `choice` gives 8 kHz streams beside `PARLEY_ASR=pocketsphinx`: an explicit choice as it is;
 * `auto` is Moonshine `model` when it is installed in `modelsDir` and intact ({@link moonshineUnusable}), else
 * pocketsphinx's narrowband settings, with `fallback` set to the one warning to log, saying why and naming the
 * fetch command (which replaces a damaged copy). Under another `asr` the phone choice does not apply, warns of
 * nothing, and no file is hashed.
 */
export function resolvePhoneRecogniser(choice: PhoneRecogniserChoice, asr: string, modelsDir: string, model: string): { name: PhoneRecogniser; fallback: string | null } {
  if (choice !== 'auto') return { name: choice, fallback: null };
  if (asr !== 'pocketsphinx') return { name: moonshineInstalled(modelsDir, model) ? 'moonshine' : 'pocketsphinx', fallback: null };
  const unusable = moonshineUnusable(modelsDir, model);
  if (unusable === null) return { name: 'moonshine', fallback: null };
  return {
    name: 'pocketsphinx',
    fallback: `PARLEY_ASR_PHONE=auto: ${unusable}, so 8 kHz (phone, Twilio) streams use pocketsphinx's `
      + `narrowband settings (2.7 times the word errors on held-out phone speech, docs/BENCHMARKS.md); install it with \`npm run models -- fetch ${model}\` `
      + `(MODELS_DIR=${modelsDir}), or set PARLEY_ASR_PHONE=pocketsphinx to keep pocketsphinx without this warning`,
  };
}
