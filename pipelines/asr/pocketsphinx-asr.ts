import { existsSync } from 'node:fs';
import path from 'node:path';
import { ParleyError } from '../../graph/core/errors.js';
import { pocketsphinxApi, type Pointer, type PocketsphinxApi } from './pocketsphinx-ffi.js';
import type { AsrFinal, AsrTurnStream, PocketsphinxAsrConfig, StreamingAsr } from './streaming-asr.js';

const DEFAULT_MODEL_DIR = '/usr/share/pocketsphinx/model/en-us';

interface Decoder { config: Pointer; ps: Pointer }

/**
 * Decoder options Parley sets over pocketsphinx's own defaults (see `PocketsphinxAsrConfig.options`):
 * acoustic scores every second frame (`-ds 2`) and at most 3000 active HMMs per frame (library default
 * 30000) take about a third less CPU per stream at the same word error rate on the fixtures and
 * SpeechBrain clips (docs/BENCHMARKS.md, `bench/asr-wer.ts`), so more live sessions fit on each core.
 */
export const POCKETSPHINX_DEFAULT_OPTIONS: Readonly<Record<string, string>> = { '-ds': '2', '-maxhmmpf': '3000' };

/** pocketsphinx's own values for the options above, for comparison. */
export const POCKETSPHINX_LIBRARY_OPTIONS: Readonly<Record<string, string>> = { '-ds': '1', '-maxhmmpf': '30000' };

/**
 * CMU pocketsphinx in-process over FFI. A decoder serves one turn at a time, so concurrent turns in one
 * thread each take a decoder from a small pool (created on demand, 0.3–0.5 s each).
 */
export class PocketsphinxAsr implements StreamingAsr {
  readonly name = 'pocketsphinx';
  readonly producesPartials = true;
  private readonly idle: Decoder[] = [];
  private readonly partialIntervalSamples: number;
  private readonly maxIdleDecoders: number;
  private readonly options: Record<string, string>;
  private closed = false;

  private constructor(private readonly api: PocketsphinxApi, private readonly modelDir: string, config: PocketsphinxAsrConfig) {
    this.partialIntervalSamples = Math.round(((config.partialIntervalMs ?? 300) * 16000) / 1000);
    this.maxIdleDecoders = config.maxIdleDecoders ?? 4;
    this.options = { ...POCKETSPHINX_DEFAULT_OPTIONS, ...config.options };
  }

  /**
   * Bind the library and load one decoder.
   * @throws ParleyError `PARLEY_ERR_MODEL_MISSING` when the library or model is not installed.
   */
  static load(config: PocketsphinxAsrConfig): PocketsphinxAsr {
    const modelDir = config.modelDir ?? DEFAULT_MODEL_DIR;
    const fix = 'install the Debian packages `pocketsphinx` and `pocketsphinx-en-us` (apt-get install pocketsphinx pocketsphinx-en-us)';
    for (const f of ['en-us', 'en-us.lm.bin', 'cmudict-en-us.dict']) {
      if (!existsSync(path.join(modelDir, f))) {
        throw new ParleyError('PARLEY_ERR_MODEL_MISSING', `pocketsphinx model file ${path.join(modelDir, f)} is missing; ${fix}`);
      }
    }
    let api: PocketsphinxApi;
    try {
      api = pocketsphinxApi();
    } catch (err) {
      throw new ParleyError('PARLEY_ERR_MODEL_MISSING', `libpocketsphinx.so.3 cannot be loaded; ${fix}`, { cause: err });
    }
    const asr = new PocketsphinxAsr(api, modelDir, config);
    asr.idle.push(asr.createDecoder());
    return asr;
  }

  private createDecoder(): Decoder {
    const s = (v: string | null): unknown[] => ['str', v];
    const config = this.api.cmdLnInit(null, this.api.psArgs(), 1,
      ...s('-hmm'), ...s(path.join(this.modelDir, 'en-us')),
      ...s('-lm'), ...s(path.join(this.modelDir, 'en-us.lm.bin')),
      ...s('-dict'), ...s(path.join(this.modelDir, 'cmudict-en-us.dict')),
      ...Object.entries(this.options).flatMap(([k, v]) => [...s(k), ...s(v)]),
      ...s(null));
    if (!config) {
      throw new ParleyError('PARLEY_ERR_MODEL_MISSING',
        `pocketsphinx rejected its options ${JSON.stringify(this.options)} (PARLEY_POCKETSPHINX_OPTIONS)`);
    }
    const ps = this.api.psInit(config);
    if (!ps) throw new ParleyError('PARLEY_ERR_MODEL_MISSING', `pocketsphinx could not load the model in ${this.modelDir}`);
    return { config, ps };
  }

  /** @internal Give a decoder back after a turn. */
  release(decoder: Decoder): void {
    if (!this.closed && this.idle.length < this.maxIdleDecoders) this.idle.push(decoder);
    else this.freeDecoder(decoder);
  }

  private freeDecoder(d: Decoder): void {
    this.api.psFree(d.ps);
    this.api.cmdLnFree(d.config);
  }

  startTurn(): AsrTurnStream {
    if (this.closed) throw new ParleyError('PARLEY_ERR_SHUTTING_DOWN', 'speech recogniser is closed');
    const decoder = this.idle.pop() ?? this.createDecoder();
    return new PocketsphinxTurn(this.api, decoder, this, this.partialIntervalSamples);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const d of this.idle.splice(0)) this.freeDecoder(d);
  }
}

class PocketsphinxTurn implements AsrTurnStream {
  private pcm = new Int16Array(4096);
  private sinceHyp = 0;
  private lastPartial = '';
  private done = false;

  constructor(private readonly api: PocketsphinxApi, private readonly decoder: Decoder,
    private readonly owner: PocketsphinxAsr, private readonly partialIntervalSamples: number) {
    api.psStartUtt(decoder.ps);
  }

  accept(samples: Float32Array): string | undefined {
    if (this.done || samples.length === 0) return undefined;
    if (this.pcm.length < samples.length) this.pcm = new Int16Array(samples.length);
    for (let i = 0; i < samples.length; i++) {
      const v = samples[i] ?? 0;
      this.pcm[i] = v >= 1 ? 32767 : v <= -1 ? -32768 : Math.round(v * 32767);
    }
    this.api.psProcessRaw(this.decoder.ps, this.pcm, samples.length, 0, 0);
    this.sinceHyp += samples.length;
    if (this.sinceHyp < this.partialIntervalSamples) return undefined;
    return this.flush();
  }

  flush(): string | undefined {
    if (this.done) return undefined;
    this.sinceHyp = 0;
    const hyp = normalise(this.api.psGetHyp(this.decoder.ps, null));
    if (hyp === '' || hyp === this.lastPartial) return undefined;
    this.lastPartial = hyp;
    return hyp;
  }

  async finish(): Promise<AsrFinal> {
    if (this.done) return { text: '', confidence: 0 };
    this.done = true;
    const { ps } = this.decoder;
    this.api.psEndUtt(ps);
    const text = normalise(this.api.psGetHyp(ps, null));
    // The utterance posterior shrinks with length; its per-word geometric mean is comparable across turns.
    const posterior = text === '' ? 0 : this.api.logmathExp(this.api.psGetLogmath(ps), this.api.psGetProb(ps));
    const confidence = text === '' ? 0 : Math.pow(posterior, 1 / text.split(' ').length);
    this.owner.release(this.decoder);
    return { text, confidence: Math.max(0, Math.min(1, confidence)) };
  }

  abort(): void {
    if (this.done) return;
    this.done = true;
    this.api.psEndUtt(this.decoder.ps);
    this.owner.release(this.decoder);
  }
}

/** Lower case, drop pocketsphinx's filler and alternate-pronunciation markers, single spaces. */
function normalise(hyp: string | null): string {
  if (!hyp) return '';
  return hyp.split(/\s+/).filter((w) => w && !w.startsWith('<') && !w.startsWith('['))
    .map((w) => w.replace(/\(\d+\)$/, '').toLowerCase()).join(' ');
}
