import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { ParleyError } from '../../graph/core/errors.js';
import { modelsDir } from '../models/repo-root.js';
import type { AsrFinal, AsrTurnStream, SherpaOnnxAsrConfig, StreamingAsr } from './streaming-asr.js';

/** The slice of sherpa-onnx-node's (untyped) streaming API used here. */
interface SherpaStream {
  acceptWaveform(w: { samples: Float32Array; sampleRate: number }): void;
  inputFinished(): void;
}
interface SherpaRecognizer {
  createStream(): SherpaStream;
  isReady(s: SherpaStream): boolean;
  decode(s: SherpaStream): void;
  getResult(s: SherpaStream): { text?: string; ys_probs?: number[] };
}
interface SherpaModule { OnlineRecognizer: new (config: unknown) => SherpaRecognizer }

/** Files a streaming transducer folder must hold (names as the `models` command installs them). */
const FILES = { encoder: 'encoder.int8.onnx', decoder: 'decoder.int8.onnx', joiner: 'joiner.int8.onnx', tokens: 'tokens.txt' };
/** Silence appended at the end of a turn so the last chunk is decoded, in samples (300 ms). */
const TAIL_PADDING_SAMPLES = 4800;

/**
 * sherpa-onnx streaming Zipformer transducer. One recogniser (model loaded once per thread, one intra-op
 * thread); one sherpa stream per turn.
 */
export class SherpaOnnxAsr implements StreamingAsr {
  readonly name = 'sherpa-onnx';
  readonly producesPartials = true;

  private constructor(private readonly recognizer: SherpaRecognizer, private readonly partialIntervalSamples: number) {}

  /**
   * Load the model.
   * @throws ParleyError `PARLEY_ERR_MODEL_MISSING` naming the `models fetch` command when files are missing.
   */
  static load(config: SherpaOnnxAsrConfig): SherpaOnnxAsr {
    const model = config.model ?? 'sherpa-zipformer-en';
    const dir = config.modelDir ?? path.join(modelsDir(), model);
    const missing = Object.values(FILES).filter((f) => !existsSync(path.join(dir, f)));
    if (missing.length > 0) {
      throw new ParleyError('PARLEY_ERR_MODEL_MISSING',
        `sherpa-onnx model files missing in ${dir} (${missing.join(', ')}); run \`npm run models -- fetch ${model}\` ` +
        `(or \`node dist/scripts/models.js fetch ${model}\`) on a machine that can reach Hugging Face, or set MODELS_DIR`);
    }
    let sherpa: SherpaModule;
    try {
      sherpa = createRequire(import.meta.url)('sherpa-onnx-node') as SherpaModule;
    } catch (err) {
      throw new ParleyError('PARLEY_ERR_MODEL_MISSING', 'sherpa-onnx-node native library cannot be loaded; reinstall with `npm ci`', { cause: err });
    }
    const recognizer = new sherpa.OnlineRecognizer({
      featConfig: { sampleRate: 16000, featureDim: 80 },
      modelConfig: {
        transducer: { encoder: path.join(dir, FILES.encoder), decoder: path.join(dir, FILES.decoder), joiner: path.join(dir, FILES.joiner) },
        tokens: path.join(dir, FILES.tokens),
        numThreads: 1,
        provider: 'cpu',
        debug: 0,
      },
      decodingMethod: 'greedy_search',
      enableEndpoint: 0,
    });
    return new SherpaOnnxAsr(recognizer, Math.round(((config.partialIntervalMs ?? 200) * 16000) / 1000));
  }

  startTurn(): AsrTurnStream {
    return new SherpaTurn(this.recognizer, this.recognizer.createStream(), this.partialIntervalSamples);
  }

  async close(): Promise<void> {
    // Native handles are released by the addon's finalisers.
  }
}

class SherpaTurn implements AsrTurnStream {
  private sincePartial = 0;
  private lastPartial = '';
  private done = false;

  constructor(private readonly rec: SherpaRecognizer, private readonly stream: SherpaStream, private readonly interval: number) {}

  private decodeReady(): void {
    while (this.rec.isReady(this.stream)) this.rec.decode(this.stream);
  }

  accept(samples: Float32Array): string | undefined {
    if (this.done || samples.length === 0) return undefined;
    this.stream.acceptWaveform({ samples, sampleRate: 16000 });
    this.sincePartial += samples.length;
    if (this.sincePartial < this.interval) return undefined;
    return this.flush();
  }

  flush(): string | undefined {
    if (this.done) return undefined;
    this.sincePartial = 0;
    this.decodeReady();
    const text = normalise(this.rec.getResult(this.stream).text);
    if (text === '' || text === this.lastPartial) return undefined;
    this.lastPartial = text;
    return text;
  }

  async finish(): Promise<AsrFinal> {
    if (this.done) return { text: '', confidence: 0 };
    this.done = true;
    this.stream.acceptWaveform({ samples: new Float32Array(TAIL_PADDING_SAMPLES), sampleRate: 16000 });
    this.stream.inputFinished();
    this.decodeReady();
    const result = this.rec.getResult(this.stream);
    const text = normalise(result.text);
    const probs = result.ys_probs;
    // ys_probs are per-token log probabilities when the model reports them.
    const confidence = text === '' ? 0 : probs && probs.length > 0
      ? Math.exp(probs.reduce((a, b) => a + b, 0) / probs.length) : 0.5;
    return { text, confidence: Math.max(0, Math.min(1, confidence)) };
  }

  abort(): void {
    this.done = true;
  }
}

function normalise(text: string | undefined): string {
  return (text ?? '').trim().toLowerCase().replace(/\s+/g, ' ');
}
