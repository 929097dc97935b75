import { writeFileSync } from 'node:fs';
import onnxProto from 'onnx-proto';

const { onnx } = onnxProto;

/** ONNX element types the stand-in models use. */
export const FLOAT = onnx.TensorProto.DataType.FLOAT;
export const INT64 = onnx.TensorProto.DataType.INT64;

/** An INT attribute of a node. */
export const intAttribute = (name: string, i: number): onnxProto.onnx.IAttributeProto => ({ name, type: onnx.AttributeProto.AttributeType.INT, i });

/** An INTS attribute of a node. */
export const intsAttribute = (name: string, ints: number[]): onnxProto.onnx.IAttributeProto => ({ name, type: onnx.AttributeProto.AttributeType.INTS, ints });

/** A graph input or output: a tensor of `elemType` whose dimensions are named (symbolic) or fixed. */
export function tensorValue(name: string, elemType: number, dims: (string | number)[]): onnxProto.onnx.IValueInfoProto {
  return { name, type: { tensorType: { elemType, shape: { dim: dims.map((d) => (typeof d === 'string' ? { dimParam: d } : { dimValue: d })) } } } };
}

/**
 * Write a stand-in ONNX model (IR 8, opset 13, producer `parley-test`) made of `graph` to `file`:
 * the test doubles of pretrained models, which cannot be installed here.
 */
export function writeTestOnnxModel(file: string, graph: onnxProto.onnx.IGraphProto): void {
  const model = onnx.ModelProto.create({ irVersion: 8, opsetImport: [{ domain: '', version: 13 }], producerName: 'parley-test', graph });
  writeFileSync(file, onnx.ModelProto.encode(model).finish());
}
