import { existsSync } from 'node:fs';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import { ParleyError } from '../../graph/core/errors.js';
import { computeFbank, subtractMean } from './fbank.js';
import { l2Normalise, type SpeakerEmbedder } from './speaker-embedder.js';
import { installedPath, WESPEAKER_FILE, WESPEAKER_MODEL } from '../models/manifest.js';
import { openOnnxSession } from '../models/onnx-session.js';
import { modelsDir } from '../models/repo-root.js';

/** Options of an ONNX speaker embedder taking [B, T, bins] fbank and returning [B, D]. */
export interface OnnxSpeakerEmbedderOptions {
  /** Path of the .onnx file. */
  modelPath: string;
  /** Stored with voiceprints; defaults to the model folder's name (e.g. `wespeaker-resnet34`). */
  modelId?: string;
  /** Mel bins the model expects. Default 80. */
  numBins?: number;
  /** Multiply samples in [-1, 1] by this before the fbank (WeSpeaker uses int16 scale). Default 32768. */
  inputScale?: number;
  /** ONNX Runtime intra-op threads. Default 1 (the audio team's pool runs one per worker). */
  intraOpNumThreads?: number;
}

/**
 * Where `models fetch wespeaker-resnet34` installs the model under `dir` (default `MODELS_DIR`, else
 * ./models under the repo root): the one path the fetch and the loaders share, from the manifest.
 */
export function defaultWespeakerPath(dir: string = modelsDir()): string {
  return installedPath(dir, WESPEAKER_MODEL, WESPEAKER_FILE);
}

/** Minimum frames (10 ms each) a model is given. */
const MIN_FRAMES = 30;

/**
 * Speaker embedding with an ONNX model (e.g. WeSpeaker ResNet34, [B,T,80] → [B,256]) on
 * onnxruntime-node, with a Kaldi-style fbank front end (80 bins, 25 ms / 10 ms, per-utterance mean
 * normalisation). Heavy: run it in a worker (`onnx-embed-worker.ts`) rather than on the event loop.
 */
export class OnnxSpeakerEmbedder implements SpeakerEmbedder {
  readonly modelId: string;
  readonly dimension: number;
  private readonly session: ort.InferenceSession;
  private readonly numBins: number;
  private readonly inputScale: number;

  private constructor(session: ort.InferenceSession, modelId: string, dimension: number, o: OnnxSpeakerEmbedderOptions) {
    this.session = session;
    this.modelId = modelId;
    this.dimension = dimension;
    this.numBins = o.numBins ?? 80;
    this.inputScale = o.inputScale ?? 32768;
  }

  /**
   * Load a model; throws PARLEY_ERR_MODEL_MISSING when the file is absent (naming the fetch command), or
   * when it is not a loadable ONNX model (naming the verify command).
   */
  static async create(o: OnnxSpeakerEmbedderOptions = { modelPath: defaultWespeakerPath() }): Promise<OnnxSpeakerEmbedder> {
    const name = path.basename(path.dirname(o.modelPath));
    if (!existsSync(o.modelPath)) {
      throw new ParleyError('PARLEY_ERR_MODEL_MISSING', `speaker model not found at ${o.modelPath}; run: npm run models -- fetch ${name} (MODELS_DIR=${path.dirname(path.dirname(o.modelPath))})`);
    }
    const session = await openOnnxSession(o.modelPath, {
      what: 'speaker model', hint: `check it with: npm run models -- verify ${name}`,
      intraOpNumThreads: o.intraOpNumThreads, session: { graphOptimizationLevel: 'all' },
    });
    const probe = await session.run({ [session.inputNames[0]!]: new ort.Tensor('float32', new Float32Array(MIN_FRAMES * (o.numBins ?? 80)), [1, MIN_FRAMES, o.numBins ?? 80]) });
    const dimension = probe[session.outputNames[0]!]!.dims.at(-1)!;
    return new OnnxSpeakerEmbedder(session, o.modelId ?? path.basename(path.dirname(o.modelPath)), dimension, o);
  }

  async embed(audio: Float32Array): Promise<Float32Array> {
    const scaled = this.inputScale === 1 ? audio : Float32Array.from(audio, (x) => x * this.inputScale);
    const fb = subtractMean(computeFbank(scaled, { numBins: this.numBins }));
    if (fb.frames < MIN_FRAMES) throw new ParleyError('PARLEY_ERR_BAD_AUDIO', 'utterance too short to embed (need 0.3 s)');
    const input = new ort.Tensor('float32', fb.data, [1, fb.frames, this.numBins]);
    const out = await this.session.run({ [this.session.inputNames[0]!]: input });
    const emb = out[this.session.outputNames[0]!]!.data as Float32Array;
    return l2Normalise(Float32Array.from(emb.subarray(0, this.dimension)));
  }

  async close(): Promise<void> {
    await this.session.release();
  }
}
