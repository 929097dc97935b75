import { existsSync } from 'node:fs';
import path from 'node:path';
import ort from 'onnxruntime-node';
import { ParleyError } from '../../graph/core/errors.js';
import { openOnnxSession } from '../models/onnx-session.js';
import { llamaPieces, piecesToText } from './llama-vocabulary.js';
import { MoonshineEncoder } from './moonshine-encoder.js';

export { MOONSHINE_MIN_SAMPLES } from './moonshine-encoder.js';

/** The two files of a Moonshine ONNX export (names as the `models` command installs them). */
export const MOONSHINE_FILES = { encoder: 'encoder_model.onnx', decoder: 'decoder_model_merged.onnx' } as const;

/**
 * Start-of-transcript and end-of-text token ids: the Llama SentencePiece vocabulary's `<s>` and `</s>`,
 * the ids moonshine-js starts and stops its greedy decoding with.
 */
const START_TOKEN = 1;
const EOS_TOKEN = 2;

/** One greedy decode of a piece of audio. */
export interface MoonshineResult {
  /** Decoded text as the model writes it (cased, punctuated). */
  text: string;
  /** Tokens emitted, without the start and end tokens. */
  tokens: number[];
  /** Sum of the emitted tokens' log probabilities (end token included when reached). */
  logProb: number;
  /** Whether decoding stopped at the token limit instead of the end token. */
  cut: boolean;
}

/** Names of the decoder's cache inputs and outputs, read from the model. */
interface CacheLayout {
  /** `past_key_values.<layer>.<decoder|encoder>.<key|value>` inputs, in model order. */
  past: string[];
  /** The `present.*` output that feeds each of `past`. */
  present: string[];
  /** Heads and head size of the cache tensors ([batch, heads, sequence, headDim]). */
  heads: number;
  headDim: number;
}

/**
 * A Moonshine encoder-decoder speech recogniser (Useful Sensors; ONNX export with a merged decoder and
 * its key/value cache). Turns raw 16 kHz audio into text by greedy decoding. Sessions run on one
 * intra-op thread; `transcribe` may be called concurrently.
 */
export class MoonshineModel {
  private constructor(
    private readonly encoder: MoonshineEncoder,
    private readonly decoder: ort.InferenceSession,
    private readonly cache: CacheLayout,
    private readonly vocabSize: number,
    private readonly pieces: readonly string[],
  ) {}

  /**
   * Load both sessions from `dir` and check they are a Moonshine export this code can drive.
   * @throws ParleyError `PARLEY_ERR_MODEL_MISSING` when a file is missing, cannot be loaded (truncated, corrupt)
   *   or is not a Moonshine export; `fetchHint` ("; run …") is appended to the message of a missing or unloadable file.
   */
  static async load(dir: string, fetchHint = ''): Promise<MoonshineModel> {
    const missing = Object.values(MOONSHINE_FILES).filter((f) => !existsSync(path.join(dir, f)));
    if (missing.length > 0) {
      throw new ParleyError('PARLEY_ERR_MODEL_MISSING', `Moonshine model files missing in ${dir} (${missing.join(', ')})${fetchHint}`);
    }
    const hint = fetchHint.replace(/^;\s*/, '');
    const options = { what: 'Moonshine model', ...(hint ? { hint } : {}), session: { executionMode: 'sequential' } } as const;
    const encoder = await MoonshineEncoder.load(path.join(dir, MOONSHINE_FILES.encoder), hint || undefined);
    let decoder: ort.InferenceSession | undefined;
    try {
      decoder = await openOnnxSession(path.join(dir, MOONSHINE_FILES.decoder), options);
      const { cache, vocabSize } = checkDecoder(dir, decoder);
      const pieces = await llamaPieces();
      if (pieces[START_TOKEN] !== '<s>' || pieces[EOS_TOKEN] !== '</s>') {
        throw new ParleyError('PARLEY_ERR_MODEL_MISSING', 'llama-tokenizer-js vocabulary does not start with <unk> <s> </s>; reinstall with `npm ci`');
      }
      return new MoonshineModel(encoder, decoder, cache, vocabSize, pieces);
    } catch (err) {
      // A half-loaded model holds native memory until its sessions are released.
      await Promise.allSettled([encoder.release(), decoder?.release()]);
      throw err;
    }
  }

  /**
   * Greedy transcription of `audio` (16 kHz mono, [-1, 1]), at most `maxTokens` tokens.
   * Audio shorter than {@link MOONSHINE_MIN_SAMPLES} is padded with silence to that length.
   */
  async transcribe(audio: Float32Array, maxTokens: number): Promise<MoonshineResult> {
    const hidden = await this.encoder.run(audio);
    const feeds: Record<string, ort.Tensor> = { encoder_hidden_states: hidden };
    const empty = new ort.Tensor('float32', new Float32Array(0), [1, this.cache.heads, 0, this.cache.headDim]);
    for (const name of this.cache.past) feeds[name] = empty;
    const tokens: number[] = [];
    let logProb = 0;
    let next = START_TOKEN;
    for (let step = 0; step < maxTokens; step++) {
      feeds['input_ids'] = new ort.Tensor('int64', BigInt64Array.of(BigInt(next)), [1, 1]);
      // The first step computes the cross-attention cache from the encoder output; later steps reuse it.
      feeds['use_cache_branch'] = new ort.Tensor('bool', Uint8Array.of(step > 0 ? 1 : 0), [1]);
      const out = await this.decoder.run(feeds);
      const { token, logProb: lp } = argmaxLogProb(out['logits']!.data as Float32Array, this.vocabSize);
      logProb += lp;
      for (let i = 0; i < this.cache.past.length; i++) {
        const name = this.cache.past[i]!;
        if (step === 0 || name.includes('.decoder.')) feeds[name] = out[this.cache.present[i]!]!;
      }
      if (token === EOS_TOKEN) return { text: this.text(tokens), tokens, logProb, cut: false };
      tokens.push(token);
      next = token;
    }
    return { text: this.text(tokens), tokens, logProb, cut: true };
  }

  /** Text of token ids; ids past the Llama vocabulary (the model's extra special tokens) are dropped. */
  private text(tokens: number[]): string {
    return piecesToText(tokens.filter((t) => t > EOS_TOKEN && t < this.pieces.length).map((t) => this.pieces[t]!));
  }

  async close(): Promise<void> {
    await this.encoder.release();
    await this.decoder.release();
  }
}

/** The largest logit's index and its log-softmax. */
function argmaxLogProb(logits: Float32Array, vocab: number): { token: number; logProb: number } {
  // Only the last position's row is read (the decoder is fed one token per step).
  const row = logits.subarray(logits.length - vocab);
  let best = 0;
  for (let i = 1; i < vocab; i++) if (row[i]! > row[best]!) best = i;
  const max = row[best]!;
  let sum = 0;
  for (let i = 0; i < vocab; i++) sum += Math.exp(row[i]! - max);
  return { token: best, logProb: -Math.log(sum) };
}

/** Check the decoder's inputs and outputs against what a Moonshine export has; read the cache layout. */
function checkDecoder(dir: string, decoder: ort.InferenceSession): { cache: CacheLayout; vocabSize: number } {
  const bad = (what: string): ParleyError =>
    new ParleyError('PARLEY_ERR_MODEL_MISSING', `${dir} does not hold a Moonshine ONNX export: ${what}`);
  for (const name of ['input_ids', 'encoder_hidden_states', 'use_cache_branch']) {
    if (!decoder.inputNames.includes(name)) throw bad(`decoder has no ${name} input`);
  }
  const past = decoder.inputNames.filter((n) => /^past_key_values\.\d+\.(decoder|encoder)\.(key|value)$/.test(n));
  const present = past.map((n) => n.replace('past_key_values.', 'present.'));
  const absent = present.filter((n) => !decoder.outputNames.includes(n));
  if (past.length === 0 || absent.length > 0) throw bad(`cache outputs missing (${absent.join(', ') || 'no past_key_values inputs'})`);
  const meta = decoder.inputMetadata.find((m) => m.name === past[0]);
  const logits = decoder.outputMetadata.find((m) => m.name === 'logits');
  const shape = meta?.isTensor ? meta.shape : [];
  const vocabSize = logits?.isTensor ? logits.shape[2] : undefined;
  if (typeof shape[1] !== 'number' || typeof shape[3] !== 'number' || typeof vocabSize !== 'number') {
    throw bad('cache or logits shapes are not fixed ([batch, heads, sequence, headDim], [batch, sequence, vocab])');
  }
  return { cache: { past, present, heads: shape[1], headDim: shape[3] }, vocabSize };
}
