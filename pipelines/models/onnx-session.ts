import * as ort from 'onnxruntime-node';
import { ParleyError } from '../../graph/core/errors.js';

/** How {@link openOnnxSession} opens a model file and words its failure. */
export interface OnnxSessionOptions {
  /** What the file is, for the error message: "speaker model", "Silero VAD model". */
  what: string;
  /** What the user can do about a failure, appended to the error message (a command to run); default none. */
  hint?: string;
  /** ONNX Runtime intra-op threads; default 1 (the server runs one session per worker thread). */
  intraOpNumThreads?: number;
  /** Further session options (execution mode, optimisation level, memory arena). */
  session?: Omit<ort.InferenceSession.SessionOptions, 'intraOpNumThreads' | 'interOpNumThreads'>;
}

/**
 * Open an ONNX Runtime session on `modelPath` (or on `o.bytes`, a model derived from that file), on one inter-op thread and `intraOpNumThreads` intra-op threads.
 * @throws ParleyError `PARLEY_ERR_MODEL_MISSING`, "<what> at <modelPath> cannot be loaded (<onnxruntime's
 *   reason, first line>); <hint>", when the file is absent, unreadable or not a model onnxruntime can run.
 */
export async function openOnnxSession(modelPath: string, o: OnnxSessionOptions & { bytes?: Uint8Array }): Promise<ort.InferenceSession> {
  try {
    const options = { ...o.session, intraOpNumThreads: o.intraOpNumThreads ?? 1, interOpNumThreads: 1 };
    return await (o.bytes ? ort.InferenceSession.create(o.bytes, options) : ort.InferenceSession.create(modelPath, options));
  } catch (err) {
    const reason = (err instanceof Error ? err.message : String(err)).split('\n')[0];
    throw new ParleyError('PARLEY_ERR_MODEL_MISSING', `${o.what} at ${modelPath} cannot be loaded (${reason})${o.hint ? `; ${o.hint}` : ''}`, { cause: err });
  }
}
