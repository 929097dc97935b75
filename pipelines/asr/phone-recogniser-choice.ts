import { existsSync } from 'node:fs';
import path from 'node:path';
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
 * The recogniser `choice` gives 8 kHz streams beside `PARLEY_ASR=pocketsphinx`: an explicit choice as it is;
 * `auto` is Moonshine `model` when it is installed in `modelsDir`, else pocketsphinx's narrowband settings, with
 * `fallback` set to the one warning to log, naming the fetch command. Under another `asr` the phone choice does not
 * apply and warns of nothing.
 */
export function resolvePhoneRecogniser(choice: PhoneRecogniserChoice, asr: string, modelsDir: string, model: string): { name: PhoneRecogniser; fallback: string | null } {
  if (choice !== 'auto') return { name: choice, fallback: null };
  if (moonshineInstalled(modelsDir, model)) return { name: 'moonshine', fallback: null };
  return {
    name: 'pocketsphinx',
    fallback: asr !== 'pocketsphinx' ? null
      : `PARLEY_ASR_PHONE=auto: ${model} is not installed in ${modelsDir}, so 8 kHz (phone, Twilio) streams use pocketsphinx's `
        + `narrowband settings (2.7 times the word errors on held-out phone speech, docs/BENCHMARKS.md); install it with \`npm run models -- fetch ${model}\` `
        + `(MODELS_DIR=${modelsDir}), or set PARLEY_ASR_PHONE=pocketsphinx to keep pocketsphinx without this warning`,
  };
}
