import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import onnxProto from 'onnx-proto';

const { onnx } = onnxProto;

/** The residual output of each transformer layer in the Moonshine ONNX encoder export (`/layers.N/Add_1`). */
export const layerOutput = (n: number): string => `/layers.${n}/Add_1_output_0`;

/**
 * A copy of the Moonshine encoder at `file` that also outputs every transformer layer's residual stream
 * (written to the temp folder; for probing which layer carries the voice). Returns its path and the layer count.
 * @throws Error when the export has no `/layers.N/Add_1` nodes (another export's node names).
 */
export function encoderWithLayerOutputs(file: string): { file: string; layers: number } {
  const model = onnx.ModelProto.decode(readFileSync(file));
  const graph = model.graph!;
  const produced = new Set((graph.node ?? []).flatMap((n) => n.output ?? []));
  let layers = 0;
  while (produced.has(layerOutput(layers))) layers++;
  if (layers === 0) throw new Error(`${file}: no ${layerOutput(0)} node output (not the Moonshine export this probe knows)`);
  for (let n = 0; n < layers; n++) graph.output!.push({ name: layerOutput(n), type: { tensorType: { elemType: onnx.TensorProto.DataType.FLOAT } } });
  const out = path.join(os.tmpdir(), `parley-moonshine-encoder-layers-${process.pid}.onnx`);
  writeFileSync(out, onnx.ModelProto.encode(model).finish());
  return { file: out, layers };
}
