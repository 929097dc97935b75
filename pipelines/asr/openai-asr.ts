import OpenAI, { toFile } from 'openai';
import { ParleyError } from '../../graph/core/errors.js';
import { encodeWav } from '../audio/wav.js';
import type { AsrFinal, AsrTurnStream, OpenAiAsrConfig, StreamingAsr } from './streaming-asr.js';

/** Longest turn sent upstream, in samples (60 s); audio beyond it is dropped. */
const MAX_TURN_SAMPLES = 60 * 16000;

/**
 * Any OpenAI-compatible `/audio/transcriptions` endpoint. Buffers each turn and transcribes it when the
 * turn ends: finals only, no partials.
 */
export class OpenAiAsr implements StreamingAsr {
  readonly name = 'openai';
  readonly producesPartials = false;

  private constructor(private readonly client: OpenAI, private readonly model: string) {}

  /**
   * Build the client.
   * @throws ParleyError `PARLEY_ERR_MODEL_MISSING` when no API key is configured.
   */
  static load(config: OpenAiAsrConfig): OpenAiAsr {
    const apiKey = config.apiKey ?? process.env['OPENAI_API_KEY'];
    if (!apiKey) {
      throw new ParleyError('PARLEY_ERR_MODEL_MISSING',
        'the openai speech backend has no credentials; set OPENAI_API_KEY (and OPENAI_BASE_URL for another OpenAI-compatible server)');
    }
    const baseURL = config.baseURL ?? process.env['OPENAI_BASE_URL'];
    const client = new OpenAI({ apiKey, ...(baseURL ? { baseURL } : {}), timeout: config.timeoutMs ?? 15000, maxRetries: 1 });
    return new OpenAiAsr(client, config.model ?? 'whisper-1');
  }

  startTurn(): AsrTurnStream {
    return new OpenAiTurn(this.client, this.model);
  }

  async close(): Promise<void> {}
}

class OpenAiTurn implements AsrTurnStream {
  private readonly chunks: Float32Array[] = [];
  private length = 0;
  private done = false;

  constructor(private readonly client: OpenAI, private readonly model: string) {}

  accept(samples: Float32Array): undefined {
    if (this.done || this.length >= MAX_TURN_SAMPLES) return undefined;
    const part = samples.subarray(0, MAX_TURN_SAMPLES - this.length);
    this.chunks.push(part.slice());
    this.length += part.length;
    return undefined;
  }

  /** A whole-turn transcription endpoint has nothing before the turn ends. */
  flush(): undefined {
    return undefined;
  }

  async finish(): Promise<AsrFinal> {
    if (this.done) return { text: '', confidence: 0 };
    this.done = true;
    const audio = new Float32Array(this.length);
    let at = 0;
    for (const c of this.chunks) { audio.set(c, at); at += c.length; }
    const file = await toFile(encodeWav(audio, 16000), 'turn.wav', { type: 'audio/wav' });
    const result = await this.client.audio.transcriptions.create({ file, model: this.model });
    const text = (result.text ?? '').trim();
    return { text, confidence: text === '' ? 0 : 0.5 };
  }

  abort(): void {
    this.done = true;
  }
}
