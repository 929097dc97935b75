/**
 * Worker thread hosting an ONNX sentence encoder (`OnnxSentenceModel`) so the main event loop never
 * blocks on tokenising or inference. Handshake first (ready with the dimension, or failed), then one
 * request at a time.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { OnnxSentenceModel } from './onnx-sentence-model.js';
import type { OnnxTextHandshake, OnnxTextRequest, OnnxTextResponse, OnnxTextWorkerData } from './onnx-text-protocol.js';

async function main(): Promise<void> {
  const port = parentPort;
  if (!port) throw new Error('onnx-text-worker must run in a worker thread');
  let model: OnnxSentenceModel;
  try {
    model = await OnnxSentenceModel.load(workerData as OnnxTextWorkerData);
  } catch (err) {
    port.postMessage({ type: 'failed', error: err instanceof Error ? err.message : String(err) } satisfies OnnxTextHandshake);
    return;
  }
  port.postMessage({ type: 'ready', dimension: model.dimension } satisfies OnnxTextHandshake);
  let chain = Promise.resolve();
  port.on('message', (req: OnnxTextRequest) => {
    chain = chain.then(async () => {
      let res: OnnxTextResponse;
      try {
        res = { id: req.id, ok: true, vectors: await model.embed(req.texts) };
      } catch (err) {
        res = { id: req.id, ok: false, error: err instanceof Error ? err.message : String(err) };
      }
      port.postMessage(res, res.ok ? res.vectors.map((v) => v.buffer as ArrayBuffer) : []);
    });
  });
}

void main();
