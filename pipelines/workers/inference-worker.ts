/**
 * Worker-thread entry: loads the Silero model and the speech recogniser once, then runs one
 * {@link SpeechPipeline} per stream assigned to it. Handshake: `init` → `ready` | `failed`.
 */
import os from 'node:os';
import { parentPort } from 'node:worker_threads';
import { ParleyError } from '../../graph/core/errors.js';
import { createStreamingAsr } from '../asr/create-streaming-asr.js';
import { narrowbandToLoad } from '../asr/narrowband.js';
import type { AsrLog, StreamingAsr } from '../asr/streaming-asr.js';
import type { AudioSessionEvent } from '../audio/audio-events.js';
import { SileroVadModel } from '../audio/silero-vad-model.js';
import { SpeechPipeline } from '../audio/speech-pipeline.js';
import type { FromWorker, InferenceWorkerConfig, ToWorker } from './protocol.js';

interface Stream { pipeline: SpeechPipeline | undefined; chain: Promise<void> }

const port = parentPort;
if (!port) throw new Error('inference-worker must run in a worker thread');

let models: Promise<{ vad: SileroVadModel; asr: StreamingAsr }> | undefined;
/**
 * The narrowband recogniser of 8 kHz (phone) streams, loaded with the other models at start-up, before `ready`
 * (`preloadNarrowband`, default; null: the wideband recogniser serves them). Loaded on a thread's first phone stream
 * instead, the load held that stream's audio back until the backlog was shed (`PARLEY_ERR_OVERLOADED` on the first
 * call after a start).
 */
let narrowAsr: Promise<StreamingAsr> | null | undefined;
let config: InferenceWorkerConfig | undefined;
const streams = new Map<number, Stream>();

function send(msg: FromWorker): void {
  if (msg.type === 'event' && msg.event.type === 'final') port?.postMessage(msg, [msg.event.audio.buffer as ArrayBuffer]);
  else port?.postMessage(msg);
}

/** Recogniser warnings go to the pool's logger. */
const asrLog: AsrLog = { warn: (fields, msg) => send({ type: 'log', level: 'warn', fields, msg }) };

async function init(c: InferenceWorkerConfig): Promise<{ vad: SileroVadModel; asr: StreamingAsr }> {
  config = c;
  // pid 0 = the calling thread on Linux: only this worker yields to the event loop.
  if (c.niceness) {
    try {
      os.setPriority(0, c.niceness);
    } catch {
      // Not permitted or not supported here: run at the normal priority.
    }
  }
  const vad = await SileroVadModel.load(c.vadModelPath, 'context', { memArena: c.ortMemArena ?? true });
  const asr = await createStreamingAsr(c.asr, asrLog);
  if (c.preloadNarrowband ?? true) await narrowband();
  return { vad, asr };
}

/** This thread's narrowband recogniser, created once (at `init`, or at its first narrowband stream); null: the wideband one serves. */
function narrowband(): Promise<StreamingAsr> | null {
  if (narrowAsr === undefined) {
    const c = config && narrowbandToLoad(config.asr);
    narrowAsr = c ? createStreamingAsr(c, asrLog) : null;
  }
  return narrowAsr;
}

/** Run `task` after the stream's earlier work; errors become non-fatal error events. */
function enqueue(streamId: number, task: (p: SpeechPipeline) => Promise<void> | void): void {
  const s = streams.get(streamId);
  if (!s) return;
  s.chain = s.chain.then(() => (s.pipeline ? task(s.pipeline) : undefined)).catch((err: unknown) => {
    send({ type: 'event', streamId, event: { type: 'error', code: 'PARLEY_ERR_INTERNAL', fatal: false,
      message: `audio processing failed: ${err instanceof Error ? err.message : String(err)}` } });
  });
}

port.on('message', (msg: ToWorker) => {
  switch (msg.type) {
    case 'init':
      models = init(msg.config);
      models.then(() => send({ type: 'ready' }), (err: unknown) => {
        const code = err instanceof ParleyError ? err.code : 'PARLEY_ERR_INTERNAL';
        send({ type: 'failed', code, message: err instanceof Error ? err.message : String(err) });
      });
      return;
    case 'open': {
      if (!models) return;
      const emit = (event: AudioSessionEvent): void => send({ type: 'event', streamId: msg.streamId, event });
      const stream: Stream = { pipeline: undefined, chain: Promise.resolve() };
      stream.chain = models.then(async ({ vad, asr }) => {
        stream.pipeline = new SpeechPipeline(vad, (msg.options.narrowband ? await narrowband() : null) ?? asr, emit, msg.options);
      });
      // A stream that cannot open (a phone recogniser that fails to load) fails each of its tasks with an error event
      // (`enqueue`); handled here too, so a failure before its first task is queued does not crash the whole worker.
      stream.chain.catch(() => undefined);
      streams.set(msg.streamId, stream);
      return;
    }
    case 'audio':
      enqueue(msg.streamId, async (p) => {
        await p.process(msg.samples, msg.startSample);
        send({ type: 'ack', streamId: msg.streamId, samples: msg.samples.length });
      });
      return;
    case 'commit':
      enqueue(msg.streamId, (p) => {
        p.commit();
        send({ type: 'committed', streamId: msg.streamId });
      });
      return;
    case 'names':
      enqueue(msg.streamId, (p) => p.setNames(msg.names));
      return;
    case 'close':
      enqueue(msg.streamId, (p) => { p.close(); streams.delete(msg.streamId); });
      return;
    case 'shutdown':
      void shutdown();
      return;
    case 'test_crash':
      if (config?.testHooks) process.exit(70);
      return;
  }
});

async function shutdown(): Promise<void> {
  for (const s of streams.values()) s.pipeline?.close();
  streams.clear();
  if (models) {
    const { vad, asr } = await models.catch(() => ({ vad: undefined, asr: undefined }));
    await asr?.close();
    await (await narrowAsr?.catch(() => undefined))?.close();
    await vad?.close();
  }
  port?.close();
}
