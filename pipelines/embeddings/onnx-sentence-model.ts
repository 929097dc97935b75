import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import * as ort from 'onnxruntime-node';
import { ParleyError } from '../../graph/core/errors.js';
import { openOnnxSession } from '../models/onnx-session.js';
import { l2normalise } from './text-embedder.js';

/** How a BERT-style encoder's token states become one sentence vector. */
export type Pooling = 'cls' | 'mean';

/** Options of {@link OnnxSentenceModel.load}. */
export interface OnnxSentenceModelOptions {
  /** The .onnx file: inputs `input_ids`, `attention_mask` (and optionally `token_type_ids`), int64 [B, T]; output [B, T, H]. */
  modelPath: string;
  /** The Hugging Face `tokenizer.json` (WordPiece for the BERT family) that goes with the model. */
  tokenizerPath: string;
  /** `cls` takes the first token's state (BGE), `mean` averages the unpadded tokens (MiniLM, E5). */
  pooling: Pooling;
  /** Longest input in tokens, [CLS] and [SEP] included; longer texts are cut. Default 256. */
  maxTokens?: number;
  /**
   * How texts are run: `alone` (default) runs each text by itself (batch of one, its own length, no
   * padding), so its vector is the same bit for bit whatever it is embedded with; `padded` runs up to
   * `maxBatch` texts of similar length in one padded batch (a little faster, but a text's vector then
   * depends on its batch: int8 exports quantise activations per tensor, over every row and pad of the
   * batch). `padded` is kept for the batching bench's baseline only.
   */
  batching?: 'alone' | 'padded';
  /** Most texts in one inference call with `batching: 'padded'`; default 32. */
  maxBatch?: number;
  /** ONNX Runtime intra-op threads. Default 1. */
  intraOpNumThreads?: number;
}

/**
 * A sentence encoder (BERT-family transformer exported to ONNX) with its real tokenizer, run on
 * onnxruntime-node in the calling thread. Heavy: host it in a worker (`onnx-text-worker.ts`).
 * Each text is run alone (no neighbours, no padding), so a text's vector never depends on what it
 * was embedded with or when (issue #16 item 5); vectors are L2-normalised.
 */
export class OnnxSentenceModel {
  readonly #session: ort.InferenceSession;
  readonly #tokenizer: Tokenizer;
  readonly #pooling: Pooling;
  readonly #maxTokens: number;
  readonly #maxBatch: number;
  readonly #batching: 'alone' | 'padded';
  readonly #sepId: number;
  /** Width of every vector (the encoder's hidden size). */
  readonly dimension: number;

  private constructor(session: ort.InferenceSession, tokenizer: Tokenizer, o: OnnxSentenceModelOptions, dimension: number, sepId: number) {
    this.#session = session;
    this.#tokenizer = tokenizer;
    this.#pooling = o.pooling;
    this.#maxTokens = o.maxTokens ?? 256;
    this.#maxBatch = o.maxBatch ?? 32;
    this.#batching = o.batching ?? 'alone';
    this.#sepId = sepId;
    this.dimension = dimension;
  }

  /**
   * Load the model and tokenizer; throws PARLEY_ERR_MODEL_MISSING when a file is absent, or when it
   * cannot be loaded or does not have the inputs and output a sentence encoder needs.
   */
  static async load(o: OnnxSentenceModelOptions): Promise<OnnxSentenceModel> {
    for (const file of [o.modelPath, o.tokenizerPath]) {
      if (!existsSync(file)) throw new ParleyError('PARLEY_ERR_MODEL_MISSING', `text model file not found: ${file}`);
    }
    if (o.maxTokens !== undefined && (!Number.isInteger(o.maxTokens) || o.maxTokens < 3)) {
      throw new ParleyError('PARLEY_ERR_BAD_REQUEST', `maxTokens must be an integer of at least 3, got ${o.maxTokens}`);
    }
    if (o.batching !== undefined && o.batching !== 'alone' && o.batching !== 'padded') {
      throw new ParleyError('PARLEY_ERR_BAD_REQUEST', `batching is 'alone' or 'padded', got ${JSON.stringify(o.batching)}`);
    }
    let tokenizer: Tokenizer;
    try {
      tokenizer = new Tokenizer(JSON.parse(await readFile(o.tokenizerPath, 'utf8')) as object, {});
    } catch (err) {
      throw new ParleyError('PARLEY_ERR_MODEL_MISSING', `tokenizer at ${o.tokenizerPath} cannot be read (${(err as Error).message})`, { cause: err });
    }
    const sepId = tokenizer.token_to_id('[SEP]');
    if (sepId === undefined) throw new ParleyError('PARLEY_ERR_MODEL_MISSING', `tokenizer at ${o.tokenizerPath} has no [SEP] token: not a BERT-family tokenizer`);
    const session = await openOnnxSession(o.modelPath, {
      what: 'text model', intraOpNumThreads: o.intraOpNumThreads, session: { graphOptimizationLevel: 'all' },
    });
    const missing = ['input_ids', 'attention_mask'].filter((n) => !session.inputNames.includes(n));
    if (missing.length > 0) {
      await session.release();
      throw new ParleyError('PARLEY_ERR_MODEL_MISSING', `text model at ${path.basename(o.modelPath)} lacks input(s) ${missing.join(', ')}: not a sentence encoder`);
    }
    const probe = await encode(session, o.pooling, [[tokenizer.token_to_id('[CLS]') ?? 0, sepId]]);
    return new OnnxSentenceModel(session, tokenizer, o, probe[0]!.length, sepId);
  }

  /** Token ids of `text` with [CLS] … [SEP], cut to `maxTokens` (the last id stays [SEP]). */
  tokenize(text: string): number[] {
    const ids = this.#tokenizer.encode(text).ids;
    if (ids.length <= this.#maxTokens) return ids;
    return [...ids.slice(0, this.#maxTokens - 1), this.#sepId];
  }

  /** One unit vector per text, in order; with the default batching a text's vector is the same whatever it is embedded with. */
  async embed(texts: string[]): Promise<Float32Array[]> {
    const ids = texts.map((t) => this.tokenize(t));
    if (this.#batching === 'alone') {
      // A batch of one: the int8 export's per-tensor activation ranges then cover this text's tokens only.
      const out: Float32Array[] = [];
      for (const row of ids) out.push((await encode(this.#session, this.#pooling, [row]))[0]!);
      return out;
    }
    // Batch texts of similar length together: padding costs as much as real tokens.
    const order = ids.map((_, i) => i).sort((a, b) => ids[a]!.length - ids[b]!.length);
    const out = new Array<Float32Array>(texts.length);
    for (let at = 0; at < order.length; at += this.#maxBatch) {
      const batch = order.slice(at, at + this.#maxBatch);
      const vectors = await encode(this.#session, this.#pooling, batch.map((i) => ids[i]!));
      batch.forEach((i, j) => { out[i] = vectors[j]!; });
    }
    return out;
  }

  async close(): Promise<void> {
    await this.#session.release();
  }
}

/** Run one padded batch of token ids through `session`; pool each row's token states into a unit vector. */
async function encode(session: ort.InferenceSession, pooling: Pooling, batch: number[][]): Promise<Float32Array[]> {
  const b = batch.length;
  const t = Math.max(...batch.map((r) => r.length));
  const inputIds = new BigInt64Array(b * t);
  const mask = new BigInt64Array(b * t);
  batch.forEach((row, r) => row.forEach((id, c) => {
    inputIds[r * t + c] = BigInt(id);
    mask[r * t + c] = 1n;
  }));
  const feeds: Record<string, ort.Tensor> = {
    input_ids: new ort.Tensor('int64', inputIds, [b, t]),
    attention_mask: new ort.Tensor('int64', mask, [b, t]),
  };
  if (session.inputNames.includes('token_type_ids')) feeds.token_type_ids = new ort.Tensor('int64', new BigInt64Array(b * t), [b, t]);
  const states = (await session.run(feeds))[session.outputNames[0]!]!;
  if (states.dims.length !== 3) throw new ParleyError('PARLEY_ERR_INTERNAL', `text model output has shape [${states.dims.join(', ')}], expected [batch, tokens, hidden]`);
  const h = Number(states.dims[2]);
  const data = states.data as Float32Array;
  return batch.map((row, r) => {
    const v = new Float32Array(h);
    if (pooling === 'cls') v.set(data.subarray(r * t * h, r * t * h + h));
    else {
      for (let c = 0; c < row.length; c++) {
        const base = (r * t + c) * h;
        for (let k = 0; k < h; k++) v[k]! += data[base + k]!;
      }
      for (let k = 0; k < h; k++) v[k]! /= row.length;
    }
    return l2normalise(v);
  });
}
