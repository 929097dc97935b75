import { OnnxSpeakerEmbedder, type OnnxSpeakerEmbedderOptions } from './onnx-speaker-embedder.js';

/** A request to the worker entry: which model, and the 16 kHz mono audio (transfer its buffer). */
export interface EmbedRequest {
  model: OnnxSpeakerEmbedderOptions;
  audio: Float32Array;
}

/** The reply: an L2-normalised embedding and the model id it belongs to. */
export interface EmbedResponse {
  modelId: string;
  embedding: Float32Array;
}

const sessions = new Map<string, Promise<OnnxSpeakerEmbedder>>();

/**
 * Worker-thread entry for a Piscina pool (`filename` = this compiled file): loads each model once per
 * thread and embeds. Also callable directly in the main thread.
 */
export default async function embedInWorker(req: EmbedRequest): Promise<EmbedResponse> {
  const key = JSON.stringify(req.model);
  let e = sessions.get(key);
  if (!e) {
    e = OnnxSpeakerEmbedder.create(req.model);
    sessions.set(key, e);
    e.catch(() => sessions.delete(key));
  }
  const embedder = await e;
  return { modelId: embedder.modelId, embedding: await embedder.embed(req.audio) };
}
