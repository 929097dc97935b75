/**
 * Test double of a model worker for `WorkerBatcher` tests (no model): its handshake is what
 * `workerData.start` says; it answers `{ id, texts }` with one vector per text, `[request number,
 * index in the request, text length]`. The text `bad` makes a failed reply, `crash` ends the thread,
 * `throw` throws in it (an 'error' event, then 'exit'), `slow` is answered 300 ms late, `never` is not answered.
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';

export type BatcherWorkerStart = 'ready' | 'wide' | 'failed' | 'silent';
export interface BatcherWorkerRequest { id: number; texts: string[] }
export type BatcherWorkerReply = { id: number; ok: true; vectors: Float32Array[] } | { id: number; ok: false; error: string };
export type BatcherWorkerHandshake = { type: 'ready'; dimension: number } | { type: 'failed'; error: string };

// `node --test dist/test/` also runs every file under a test folder as a test: outside a worker thread this file does nothing.
if (parentPort) serve(parentPort, (workerData as { start: BatcherWorkerStart }).start);

function serve(port: MessagePort, start: BatcherWorkerStart): void {
  if (start === 'failed') port.postMessage({ type: 'failed', error: 'no such model' } satisfies BatcherWorkerHandshake);
  else if (start !== 'silent') {
    port.postMessage({ type: 'ready', dimension: start === 'wide' ? 4 : 3 } satisfies BatcherWorkerHandshake);
    let served = 0;
    port.on('message', (req: BatcherWorkerRequest) => {
      served += 1;
      if (req.texts.includes('crash')) process.exit(3);
      if (req.texts.includes('throw')) throw new Error('thrown in the worker');
      if (req.texts.includes('never')) return;
      const reply: BatcherWorkerReply = req.texts.includes('bad')
        ? { id: req.id, ok: false, error: 'bad text' }
        : { id: req.id, ok: true, vectors: req.texts.map((t, i) => Float32Array.of(served, i, t.length)) };
      // `slow`: the reply comes 300 ms later (a model still running when the batcher is closed).
      if (req.texts.includes('slow')) setTimeout(() => port.postMessage(reply), 300);
      else port.postMessage(reply);
    });
  } else {
    setInterval(() => undefined, 1000); // loads forever
  }
}
