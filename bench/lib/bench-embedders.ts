/**
 * The text embedders a memory bench (memory-changes, memory-coverage) consolidates with. `--embedder NAME` for this
 * build and `--baseline-embedder NAME` for the baseline run, each `use-lite` (the default, so older figures stay
 * comparable) or an ONNX encoder installed in `MODELS_DIR` (`bge-small-en-v1.5`, `bge-small-en-v1.5-q`).
 * `--baseline-embedder` without `--baseline DIR` runs this build twice, once per embedder: an embedder A/B on one build.
 */
import { ONNX_TEXT_MODELS, OnnxTextEmbedder } from '../../pipelines/embeddings/onnx-text-embedder.js';
import type { TextEmbedder } from '../../pipelines/embeddings/text-embedder.js';
import { UseLiteEmbedder } from '../../pipelines/embeddings/use-lite-embedder.js';
import { modelsDir } from '../../pipelines/models/repo-root.js';
import { argString } from './cli.js';

/** The embedder named `name`; an unknown name throws, listing the known ones. */
export function benchEmbedder(name: string): TextEmbedder {
  if (name === 'use-lite') return new UseLiteEmbedder();
  const spec = Object.hasOwn(ONNX_TEXT_MODELS, name) ? ONNX_TEXT_MODELS[name as keyof typeof ONNX_TEXT_MODELS] : undefined;
  if (!spec) throw new Error(`unknown embedder ${JSON.stringify(name)}: use-lite, ${Object.keys(ONNX_TEXT_MODELS).join(', ')}`);
  return new OnnxTextEmbedder({ spec, modelsDir: modelsDir() });
}

/** This build's embedder and, when `--baseline-embedder` is given, the baseline's (else the same one). */
export function benchEmbedders(): { mine: TextEmbedder; base: TextEmbedder; names: { mine: string; base: string }; close(): Promise<void> } {
  const names = { mine: argString('embedder', 'use-lite'), base: argString('baseline-embedder', '') };
  const mine = benchEmbedder(names.mine);
  const base = names.base && names.base !== names.mine ? benchEmbedder(names.base) : mine;
  return {
    mine, base, names: { mine: names.mine, base: names.base || names.mine },
    close: async () => { await mine.close(); if (base !== mine) await base.close(); },
  };
}
