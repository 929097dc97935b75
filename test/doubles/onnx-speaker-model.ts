import { FLOAT, intAttribute, intsAttribute, tensorValue, writeTestOnnxModel } from './onnx-graph.js';

/** Output dimension of {@link buildTestSpeakerModel}. */
export const TEST_SPEAKER_DIM = 16;

/**
 * Write a small ONNX model with a speaker model's interface ([B,T,80] fbank in, [B,16] out): average
 * the squared fbank over time (per-bin variance, as the front end removes the mean), then a fixed
 * [80,16] MatMul. No pretrained weights can be installed here; it checks plumbing, not accuracy.
 */
export function buildTestSpeakerModel(file: string): void {
  const DIM = TEST_SPEAKER_DIM;
  const w = Float32Array.from({ length: 80 * DIM }, (_, i) => Math.sin(i * 0.37) + ((i % DIM) === Math.floor(i / DIM) % DIM ? 1 : 0));
  writeTestOnnxModel(file, {
    name: 'variance-pool-matmul',
    node: [
      { opType: 'Mul', input: ['feats', 'feats'], output: ['squared'] },
      { opType: 'ReduceMean', input: ['squared'], output: ['pooled'], attribute: [intsAttribute('axes', [1]), intAttribute('keepdims', 0)] },
      { opType: 'MatMul', input: ['pooled', 'W'], output: ['embs'] },
    ],
    initializer: [{ name: 'W', dataType: FLOAT, dims: [80, DIM], rawData: new Uint8Array(w.buffer) }],
    input: [tensorValue('feats', FLOAT, ['B', 'T', 80])],
    output: [tensorValue('embs', FLOAT, ['B', DIM])],
  });
}
