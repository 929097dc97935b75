import { existsSync } from 'node:fs';
import { BGE_SMALL_EN_Q_MODEL, installedPath } from '../models/manifest.js';
import { TEXT_MODEL_FILE, TEXT_TOKENIZER_FILE } from './onnx-text-embedder.js';

/** The values `PARLEY_TEXT_EMBEDDER` takes; `auto` (the default) is resolved by {@link resolveTextEmbedder}. */
export const TEXT_EMBEDDER_CHOICES = ['auto', 'use-lite', 'bge-small-en-v1.5', 'bge-small-en-v1.5-q', 'openai'] as const;
export type TextEmbedderChoice = (typeof TEXT_EMBEDDER_CHOICES)[number];
/** The embedder a config runs: every choice but `auto`. */
export type TextEmbedderName = Exclude<TextEmbedderChoice, 'auto'>;

/** What `auto` runs when it is installed: bge-small-en-v1.5 int8 (docs/BENCHMARKS.md, issue #16 part 6). */
export const AUTO_TEXT_EMBEDDER = BGE_SMALL_EN_Q_MODEL;

/** Whether the model files of ONNX text model `name` are in `modelsDir` (present, not verified). */
export function textModelInstalled(modelsDir: string, name: string): boolean {
  return [TEXT_MODEL_FILE, TEXT_TOKENIZER_FILE].every((f) => existsSync(installedPath(modelsDir, name, f)));
}

/**
 * The embedder `choice` runs: an explicit choice as it is; `auto` is bge-small-en-v1.5-q when it is installed in
 * `modelsDir`, else USE-lite (bundled), with `fallback` set to the one warning to log, naming the fetch command.
 */
export function resolveTextEmbedder(choice: TextEmbedderChoice, modelsDir: string): { name: TextEmbedderName; fallback: string | null } {
  if (choice !== 'auto') return { name: choice, fallback: null };
  if (textModelInstalled(modelsDir, AUTO_TEXT_EMBEDDER)) return { name: AUTO_TEXT_EMBEDDER, fallback: null };
  return {
    name: 'use-lite',
    fallback: `PARLEY_TEXT_EMBEDDER=auto: ${AUTO_TEXT_EMBEDDER} is not installed in ${modelsDir}, so text embeddings use USE-lite `
      + `(weaker retrieval); install it with \`npm run models -- fetch ${AUTO_TEXT_EMBEDDER}\` (MODELS_DIR=${modelsDir}), `
      + 'or set PARLEY_TEXT_EMBEDDER=use-lite to keep USE-lite without this warning',
  };
}
