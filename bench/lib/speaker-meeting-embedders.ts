/**
 * `bench:speaker-meeting --embedder NAME`: another speaker embedder beside stats-lda-v2 in the same runs. Both
 * embed every turn and fragment; a piece either refuses (too little voiced speech) is dropped for both, so the
 * sessions of a run are the same for both and their figures pair. CPU time of each embedder's `embed` is summed.
 */
import { ParleyError } from '../../graph/core/errors.js';
import path from 'node:path';
import { loadMoonshineL1Params, MoonshineL1SpeakerEmbedder } from '../../pipelines/speaker/moonshine-l1-speaker-embedder.js';
import { modelsDir, repoRoot } from '../../pipelines/models/repo-root.js';
import { decisionFor, readSpeakerParams, validateDecision, type SpeakerDecisionParams } from '../../pipelines/speaker/speaker-decision.js';
import type { SpeakerEmbedder } from '../../pipelines/speaker/speaker-embedder.js';
import { thresholdsFor, type SpeakerThresholds } from '../../pipelines/speaker/speaker-thresholds.js';

/**
 * The embedders `--embedder` takes beside the default: the shipped moonshine-l1, and its previous projection
 * (moonshine-l1-v1, no back end) with its thresholds and decision as kept in bench/lib/params/moonshine-l1-v1/.
 */
export const OTHER_EMBEDDERS = ['moonshine-l1', 'moonshine-l1-v1'] as const;

/** An embedder with the thresholds and the calibrated decision (null: none) it runs with. */
export interface BenchEmbedder {
  embedder: SpeakerEmbedder;
  thresholds: SpeakerThresholds;
  decision: SpeakerDecisionParams | null;
}

/** Load embedder `name`; an unknown name throws, listing the known ones. */
export async function loadBenchSpeakerEmbedder(name: string): Promise<BenchEmbedder> {
  if (name === 'moonshine-l1') {
    const embedder = await MoonshineL1SpeakerEmbedder.create(modelsDir());
    return { embedder, thresholds: thresholdsFor(embedder.modelId), decision: decisionFor(embedder.modelId) };
  }
  if (name === 'moonshine-l1-v1') {
    const dir = path.join(repoRoot(), 'bench', 'lib', 'params', name);
    const params = loadMoonshineL1Params(path.join(dir, `${name}.json`), name);
    if (!params.thresholds) throw new Error(`${dir}/${name}.json has no thresholds`);
    const decision = readSpeakerParams(path.join(dir, `${name}-decision.json`), name, validateDecision);
    return { embedder: await MoonshineL1SpeakerEmbedder.create(modelsDir(), params), thresholds: params.thresholds, decision };
  }
  throw new Error(`--embedder must be one of ${OTHER_EMBEDDERS.join(', ')} (or several, comma-separated), not ${JSON.stringify(name)}`);
}

/** Embedding time of one embedder: milliseconds of `embed` over seconds of audio given to it. */
export interface EmbedCost { ms: number; seconds: number }

/**
 * Views of `embedders` that embed every piece of audio with all of them: view k returns embedder k's vector, and
 * every view refuses a piece any of them refuses. Each piece is embedded once per embedder (results are kept
 * by the piece's place in its audio buffer), and the time each takes is added to `costs[k]`.
 */
export function jointEmbedders(embedders: readonly SpeakerEmbedder[]): { views: SpeakerEmbedder[]; costs: EmbedCost[] } {
  const costs = embedders.map(() => ({ ms: 0, seconds: 0 }));
  // By the piece's place in its buffer: each caller cuts its own subarray of the same audio.
  const cache = new WeakMap<ArrayBufferLike, Map<string, Promise<Float32Array[] | null>>>();
  const all = (audio: Float32Array): Promise<Float32Array[] | null> => {
    let inBuffer = cache.get(audio.buffer);
    if (!inBuffer) cache.set(audio.buffer, (inBuffer = new Map()));
    const key = `${audio.byteOffset}:${audio.length}`;
    let p = inBuffer.get(key);
    if (!p) {
      p = (async () => {
        const out: Float32Array[] = [];
        let refused = false;
        for (const [k, e] of embedders.entries()) {
          const t = performance.now();
          const v = await e.embed(audio).catch((err: unknown) => {
            if (err instanceof ParleyError && err.code === 'PARLEY_ERR_BAD_AUDIO') return null;
            throw err;
          });
          costs[k]!.ms += performance.now() - t;
          costs[k]!.seconds += audio.length / 16_000;
          if (v) out.push(v); else refused = true;
        }
        return refused ? null : out;
      })();
      inBuffer.set(key, p);
    }
    return p;
  };
  const views = embedders.map((e, k): SpeakerEmbedder => ({
    modelId: e.modelId, dimension: e.dimension,
    embed: async (audio) => {
      const vs = await all(audio);
      if (!vs) throw new ParleyError('PARLEY_ERR_BAD_AUDIO', 'refused by one of the embedders compared');
      return vs[k]!;
    },
  }));
  return { views, costs };
}
