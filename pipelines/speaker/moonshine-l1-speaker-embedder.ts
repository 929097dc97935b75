import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ParleyError } from '../../graph/core/errors.js';
import { encoderCutAfterLayer } from '../asr/moonshine-encoder-graph.js';
import { MoonshineEncoder } from '../asr/moonshine-encoder.js';
import { MOONSHINE_FILES } from '../asr/moonshine-model.js';
import { damagedFiles } from '../models/pinned-files.js';
import { repoRoot } from '../models/repo-root.js';
import { poolVoiced } from './moonshine-features.js';
import { readSpeakerParams } from './speaker-decision.js';
import type { SpeakerEmbedder } from './speaker-embedder.js';
import type { StatsLdaParams } from './stats-lda-params.js';
import { StatsLdaSpeakerEmbedder } from './stats-lda-speaker-embedder.js';

/** The recogniser whose encoder the embedder runs, as `npm run models -- fetch` names it. */
export const MOONSHINE_L1_MODEL = 'moonshine-tiny';
/** The embedding space of the shipped projection (stored with every voiceprint). */
export const MOONSHINE_L1_ID = 'moonshine-l1-v2';
/** Transformer layers of the encoder the features are taken after. */
const LAYERS = 1;
const FETCH = `run \`npm run models -- fetch ${MOONSHINE_L1_MODEL}\``;

/** Where the shipped projection of `modelId` lives (written by `scripts/train-speaker-embedder.ts --features moonshine-l1`). */
export function moonshineL1ParamsPath(modelId = MOONSHINE_L1_ID): string {
  return path.join(repoRoot(), 'pipelines', 'speaker', 'params', `${modelId}.json`);
}

/**
 * Raw speaker features from Moonshine tiny's encoder cut after its first transformer layer (derived from the
 * installed encoder at load time: the later layers are dropped, not run): mean and standard deviation over the
 * voiced frames of that layer's states (2 × 288 values). Why layer 1: docs/BENCHMARKS.md, "Moonshine-tiny
 * encoder states as speaker features".
 */
export class MoonshineL1Features {
  private constructor(private readonly encoder: MoonshineEncoder) {}

  /**
   * Load the encoder of `modelsDir/moonshine-tiny` and cut it.
   * @throws ParleyError `PARLEY_ERR_MODEL_MISSING` naming `npm run models -- fetch moonshine-tiny` when the file is
   *   absent, is not as that command installed it (pinned SHA-256), or is not a Moonshine encoder.
   */
  static async load(modelsDir: string): Promise<MoonshineL1Features> {
    const file = path.join(modelsDir, MOONSHINE_L1_MODEL, MOONSHINE_FILES.encoder);
    if (!existsSync(file)) throw new ParleyError('PARLEY_ERR_MODEL_MISSING', `speaker embedder moonshine-l1: ${file} not found; ${FETCH}`);
    const damaged = damagedFiles(modelsDir, MOONSHINE_L1_MODEL, [MOONSHINE_FILES.encoder]);
    if (damaged.length > 0) throw new ParleyError('PARLEY_ERR_MODEL_MISSING', `speaker embedder moonshine-l1: ${file} is damaged (${damaged.join('; ')}); ${FETCH}`);
    let cut: { bytes: Uint8Array; output: string };
    try {
      cut = encoderCutAfterLayer(readFileSync(file), file, LAYERS);
    } catch (err) {
      throw new ParleyError('PARLEY_ERR_MODEL_MISSING', `speaker embedder moonshine-l1: ${err instanceof Error ? err.message : String(err)}; ${FETCH}`, { cause: err });
    }
    return new MoonshineL1Features(await MoonshineEncoder.load(file, FETCH, cut));
  }

  /** Pooled states of `audio` (16 kHz mono), or null when it has under 0.3 s of voiced frames. */
  async extract(audio: Float32Array): Promise<Float64Array | null> {
    const [states] = await this.encoder.states(audio);
    return poolVoiced(audio, states!);
  }

  async release(): Promise<void> {
    await this.encoder.release();
  }
}

/** Throws when `p` is not a projection of the 576 pooled features. */
export function validateMoonshineL1Params(p: StatsLdaParams): void {
  const dim = p.mean?.length;
  const ok = dim === 2 * 288 && p.std?.length === dim && p.std.every((x) => Number.isFinite(x) && x > 0)
    && Array.isArray(p.projection) && p.projection.length > 0 && p.projection.every((r) => r.length === dim && r.every(Number.isFinite));
  if (!ok) throw new Error('moonshine-l1 parameters: need mean and std of 576 features and projection rows of 576 finite numbers');
}

/** The shipped (or a given) projection file of the embedder; throws naming the file when it is absent or invalid. */
export function loadMoonshineL1Params(file = moonshineL1ParamsPath(), modelId = MOONSHINE_L1_ID): StatsLdaParams {
  const p = readSpeakerParams(file, modelId, validateMoonshineL1Params);
  if (!p) throw new Error(`${file} absent: run scripts/train-speaker-embedder.ts --features moonshine-l1`);
  return p;
}

/**
 * Speaker embedding from the recogniser's own encoder (Moonshine tiny, no further download): the first
 * transformer layer's pooled states ({@link MoonshineL1Features}), standardised and projected by an LDA fitted
 * on the training speakers (`scripts/train-speaker-embedder.ts --features moonshine-l1`). The ONNX session
 * runs on onnxruntime's own thread, off the event loop, as the WeSpeaker embedder does.
 */
export class MoonshineL1SpeakerEmbedder implements SpeakerEmbedder {
  readonly modelId: string;
  readonly dimension: number;
  private readonly projector: StatsLdaSpeakerEmbedder;

  constructor(readonly features: MoonshineL1Features, params: StatsLdaParams) {
    this.projector = new StatsLdaSpeakerEmbedder(params);
    this.modelId = params.modelId;
    this.dimension = params.projection.length;
  }

  /** Load the encoder in `modelsDir` and the shipped (or given) projection. */
  static async create(modelsDir: string, params: StatsLdaParams = loadMoonshineL1Params()): Promise<MoonshineL1SpeakerEmbedder> {
    return new MoonshineL1SpeakerEmbedder(await MoonshineL1Features.load(modelsDir), params);
  }

  async embed(audio: Float32Array): Promise<Float32Array> {
    const raw = await this.features.extract(audio);
    if (!raw) throw new ParleyError('PARLEY_ERR_BAD_AUDIO', 'utterance too short or silent to embed (need 0.3 s of speech)');
    return this.projector.project(raw);
  }

  async close(): Promise<void> {
    await this.features.release();
  }
}
