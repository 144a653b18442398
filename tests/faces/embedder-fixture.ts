/**
 * A tiny ONNX face embedder made here (no ArcFace weights can be had offline): input `face`
 * float [1, 3, S, S]; output `embedding` [1, 3·8·8], the face crop pooled to an 8×8 thumbnail per
 * channel, centred on its mean. It shows Vigil runs an embedder of one's own end to end (input
 * layout, descriptor length, storage, matching); it says nothing about recognition quality.
 */
import onnxProto from 'onnx-proto';

const { onnx } = onnxProto;

export const THUMB = 8;
export const EMBEDDING_LENGTH = 3 * THUMB * THUMB;

/** `spatial`: give the pooled map [1, 3, 8, 8] itself (a model of the wrong output shape). */
export function thumbnailEmbedder(o: { size: number; inputShape?: number[]; spatial?: boolean } = { size: 112 }): Buffer {
  const k = o.size / THUMB;
  if (!Number.isInteger(k)) throw new Error(`size ${o.size} is not a multiple of ${THUMB}`);
  const i64 = (name: string, data: number[]) => ({
    name,
    dims: [data.length],
    dataType: onnx.TensorProto.DataType.INT64,
    rawData: new Uint8Array(new BigInt64Array(data.map(BigInt)).buffer),
  });
  const ints = (name: string, v: number[]) => ({ name, type: onnx.AttributeProto.AttributeType.INTS, ints: v });
  const dims = (d: Array<number | string>) => ({ dim: d.map((v) => (typeof v === 'number' ? { dimValue: v } : { dimParam: v })) });
  const model = onnx.ModelProto.create({
    irVersion: 7,
    opsetImport: [{ domain: '', version: 13 }],
    producerName: 'vigil tests/faces/embedder-fixture.ts',
    graph: {
      name: 'thumbnail-embedder',
      node: o.spatial
        ? [{ opType: 'AveragePool', input: ['face'], output: ['embedding'], attribute: [ints('kernel_shape', [k, k]), ints('strides', [k, k])] }]
        : [
            { opType: 'AveragePool', input: ['face'], output: ['pooled'], attribute: [ints('kernel_shape', [k, k]), ints('strides', [k, k])] },
            { opType: 'Reshape', input: ['pooled', 'flat_shape'], output: ['flat'] },
            { opType: 'ReduceMean', input: ['flat'], output: ['mean'], attribute: [ints('axes', [1])] },
            { opType: 'Sub', input: ['flat', 'mean'], output: ['embedding'] },
          ],
      initializer: [i64('flat_shape', [1, EMBEDDING_LENGTH])],
      input: [{ name: 'face', type: { tensorType: { elemType: onnx.TensorProto.DataType.FLOAT, shape: dims(o.inputShape ?? [1, 3, o.size, o.size]) } } }],
      output: [
        {
          name: 'embedding',
          type: { tensorType: { elemType: onnx.TensorProto.DataType.FLOAT, shape: dims(o.spatial ? [1, 3, THUMB, THUMB] : [1, EMBEDDING_LENGTH]) } },
        },
      ],
    },
  });
  return Buffer.from(onnx.ModelProto.encode(model).finish());
}
