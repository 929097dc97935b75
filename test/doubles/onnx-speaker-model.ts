import { writeFileSync } from 'node:fs';
import onnxProto from 'onnx-proto';

const { onnx } = onnxProto;

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
  const f = onnx.TensorProto.DataType.FLOAT;
  const model = onnx.ModelProto.create({
    irVersion: 8,
    opsetImport: [{ domain: '', version: 13 }],
    producerName: 'parley-test',
    graph: {
      name: 'variance-pool-matmul',
      node: [
        { opType: 'Mul', input: ['feats', 'feats'], output: ['squared'] },
        { opType: 'ReduceMean', input: ['squared'], output: ['pooled'], attribute: [{ name: 'axes', type: onnx.AttributeProto.AttributeType.INTS, ints: [1] }, { name: 'keepdims', type: onnx.AttributeProto.AttributeType.INT, i: 0 }] },
        { opType: 'MatMul', input: ['pooled', 'W'], output: ['embs'] },
      ],
      initializer: [{ name: 'W', dataType: f, dims: [80, DIM], rawData: new Uint8Array(w.buffer) }],
      input: [{ name: 'feats', type: { tensorType: { elemType: f, shape: { dim: [{ dimParam: 'B' }, { dimParam: 'T' }, { dimValue: 80 }] } } } }],
      output: [{ name: 'embs', type: { tensorType: { elemType: f, shape: { dim: [{ dimParam: 'B' }, { dimValue: DIM }] } } } }],
    },
  });
  writeFileSync(file, onnx.ModelProto.encode(model).finish());
}
