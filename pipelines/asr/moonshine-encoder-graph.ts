import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import onnxProto from 'onnx-proto';

const { onnx } = onnxProto;

/** The residual output of transformer layer `n` (0-based) in the Moonshine ONNX encoder export (`/layers.N/Add_1`). */
export const layerOutput = (n: number): string => `/layers.${n}/Add_1_output_0`;

type Model = InstanceType<typeof onnx.ModelProto>;

/** Decode `bytes` as an ONNX model and count its transformer layers; throws naming `file` when it has none. */
function decodeEncoder(bytes: Uint8Array, file: string): { model: Model; layers: number } {
  const model = onnx.ModelProto.decode(bytes);
  const graph = model.graph;
  if (!graph) throw new Error(`${file}: not an ONNX model with a graph`);
  const produced = new Set((graph.node ?? []).flatMap((n) => n.output ?? []));
  let layers = 0;
  while (produced.has(layerOutput(layers))) layers++;
  if (layers === 0) throw new Error(`${file}: no ${layerOutput(0)} node output (not the Moonshine export this code knows)`);
  return { model, layers };
}

const floatOutput = (name: string) => ({ name, type: { tensorType: { elemType: onnx.TensorProto.DataType.FLOAT } } });

/**
 * A copy of the Moonshine encoder at `file` that also outputs every transformer layer's residual stream
 * (written to the temp folder; for probing which layer carries the voice). Returns its path and the layer count.
 * @throws Error when the export has no `/layers.N/Add_1` nodes (another export's node names).
 */
export function encoderWithLayerOutputs(file: string): { file: string; layers: number } {
  const { model, layers } = decodeEncoder(readFileSync(file), file);
  for (let n = 0; n < layers; n++) model.graph!.output!.push(floatOutput(layerOutput(n)));
  const out = path.join(os.tmpdir(), `parley-moonshine-encoder-layers-${process.pid}.onnx`);
  writeFileSync(out, onnx.ModelProto.encode(model).finish());
  return { file: out, layers };
}

/**
 * The Moonshine encoder `bytes` (read from `file`) cut after transformer layer `layers` (1-based): its one output
 * is that layer's residual stream ({@link layerOutput}(layers − 1)), and every node and initializer that does not
 * lead to it is dropped, so the later layers are neither stored nor run. Returns the serialised model.
 * @throws Error when the bytes are not an ONNX model or the export has fewer layers (another export's node names).
 */
export function encoderCutAfterLayer(bytes: Uint8Array, file: string, layers: number): { bytes: Uint8Array; output: string } {
  const { model, layers: total } = decodeEncoder(bytes, file);
  if (!Number.isInteger(layers) || layers < 1 || layers > total) throw new Error(`${file}: cannot cut after layer ${layers} of ${total}`);
  const graph = model.graph!;
  const output = layerOutput(layers - 1);
  // Walk back from the output: a node is kept when one of its outputs is needed; its inputs are then needed.
  const needed = new Set([output]);
  const nodes = graph.node ?? [];
  const kept = new Array<boolean>(nodes.length).fill(false);
  for (let i = nodes.length - 1; i >= 0; i--) {
    const n = nodes[i]!;
    if (!(n.output ?? []).some((o) => needed.has(o))) continue;
    kept[i] = true;
    for (const x of n.input ?? []) if (x) needed.add(x);
  }
  graph.node = nodes.filter((_, i) => kept[i]);
  graph.initializer = (graph.initializer ?? []).filter((t) => needed.has(t.name ?? ''));
  graph.valueInfo = (graph.valueInfo ?? []).filter((v) => needed.has(v.name ?? ''));
  graph.output = [floatOutput(output)];
  return { bytes: onnx.ModelProto.encode(model).finish(), output };
}
