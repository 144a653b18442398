/**
 * A tiny ONNX model in the common YOLO output layout, made here (no real YOLO weights can be had
 * offline): input `images` float [1, 3, S, S]; output [1, 4 + classes, boxes] (or the transposed
 * [1, boxes, 4 + classes]) holding fixed boxes, plus 0 × the input so the graph depends on it.
 * It shows the decoder reads the layout; it says nothing about detection quality.
 */
import onnxProto from 'onnx-proto';

const { onnx } = onnxProto;

export interface FixedBox {
  /** centre x, centre y, width, height in input pixels */
  cxcywh: [number, number, number, number];
  /** one score per class */
  scores: number[];
}

export function yoloModel(o: { size: number; boxes: FixedBox[]; transposed?: boolean; inputChannels?: number }): Buffer {
  const k = o.boxes[0].scores.length;
  const n = o.boxes.length;
  const rows = 4 + k;
  const values = new Float32Array(rows * n);
  o.boxes.forEach((b, j) => {
    [...b.cxcywh, ...b.scores].forEach((v, r) => {
      values[o.transposed ? j * rows + r : r * n + j] = v;
    });
  });
  const dims = o.transposed ? [1, n, rows] : [1, rows, n];
  const f32 = (name: string, d: number[], data: Float32Array) => ({
    name,
    dims: d,
    dataType: onnx.TensorProto.DataType.FLOAT,
    rawData: new Uint8Array(data.buffer.slice(0)),
  });
  const i64 = (name: string, data: number[]) => ({
    name,
    dims: [data.length],
    dataType: onnx.TensorProto.DataType.INT64,
    rawData: new Uint8Array(new BigInt64Array(data.map(BigInt)).buffer),
  });
  const model = onnx.ModelProto.create({
    irVersion: 7,
    opsetImport: [{ domain: '', version: 13 }],
    producerName: 'vigil tests/video/yolo-fixture.ts',
    graph: {
      name: 'yolo-fixture',
      node: [
        { opType: 'ReduceSum', input: ['images'], output: ['sum'], attribute: [{ name: 'keepdims', type: onnx.AttributeProto.AttributeType.INT, i: 0 }] },
        { opType: 'Mul', input: ['sum', 'zero'], output: ['nothing'] },
        { opType: 'Reshape', input: ['nothing', 'one_shape'], output: ['nothing3'] },
        { opType: 'Add', input: ['fixed', 'nothing3'], output: ['output0'] },
      ],
      initializer: [f32('zero', [], Float32Array.of(0)), i64('one_shape', [1, 1, 1]), f32('fixed', dims, values)],
      input: [
        {
          name: 'images',
          type: {
            tensorType: { elemType: onnx.TensorProto.DataType.FLOAT, shape: { dim: [1, o.inputChannels ?? 3, o.size, o.size].map((v) => ({ dimValue: v })) } },
          },
        },
      ],
      output: [{ name: 'output0', type: { tensorType: { elemType: onnx.TensorProto.DataType.FLOAT, shape: { dim: dims.map((v) => ({ dimValue: v })) } } } }],
    },
  });
  return Buffer.from(onnx.ModelProto.encode(model).finish());
}
