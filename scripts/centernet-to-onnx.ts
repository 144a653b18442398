/**
 * Converts the CenterNet detector packaged in @vladmandic/human (a TensorFlow.js graph model:
 * models/centernet.json + centernet.bin, float16-quantised weights) into the ONNX file Vigil
 * runs on ONNX Runtime, models/centernet.onnx. Nothing is downloaded: the weights are the ones
 * npm installed. See docs/decisions.md, 'CenterNet on ONNX Runtime'.
 *
 *   node --import tsx scripts/centernet-to-onnx.ts [out.onnx]
 *
 * The ONNX graph, NCHW inside:
 *   inputs  image uint8 [1, H, W, 3] (RGB, any size), size int64 [2] (model input height, width;
 *           multiples of 32)
 *   resize  the image bilinearly to size (TensorFlow's ResizeBilinear without half-pixel centres,
 *           as tfjs runs it), then the network exactly as the tfjs graph has it (convolutions,
 *           hard-swish, squeeze-excite, ×2 upsampling) up to its two heads
 *   decode  the model's own peak picking: 3×3 max-pool, keep the peaks, top 100 over
 *           (y, x, class) in TensorFlow's order
 *   outputs scores float [1, 100], indices int64 [1, 100] (index = (y·w + x)·80 + class on the
 *           h×w = size/4 heat map), wh float [1, 4, h, w] (the box extents at each cell)
 * The size-dependent constants the tfjs graph folded in at export (upsampling sizes, heat map
 * width) are not carried over: upsampling is by scale, and the caller turns indices into boxes
 * (src/ingest/video/models/centernet.ts), so one file serves every input size.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import onnxProto from 'onnx-proto';

const { onnx } = onnxProto;
type INode = import('onnx-proto').onnx.INodeProto;
type ITensor = import('onnx-proto').onnx.ITensorProto;
type IAttr = import('onnx-proto').onnx.IAttributeProto;

const require = createRequire(import.meta.url);

interface TfNode {
  name: string;
  op: string;
  input?: string[];
  attr?: Record<string, { s?: string; b?: boolean; i?: string; f?: number; list?: { i?: string[]; s?: string[] } }>;
}
interface TfWeight {
  name: string;
  shape: number[];
  dtype: 'float32' | 'int32';
  quantization?: { dtype: 'float16'; original_dtype: 'float32' };
}

/** Where the packaged model is, and the facts recorded with the converted file. */
export function humanModelDir(): string {
  return join(dirname(require.resolve('@vladmandic/human')), '..', 'models');
}

export const CENTERNET_CLASSES = 80;
export const CENTERNET_TOP_K = 100;
/** heat map cells are this many input pixels apart */
export const CENTERNET_OUTPUT_STRIDE = 4;

function float16ToFloat32(h: number): number {
  const s = h & 0x8000 ? -1 : 1;
  const e = (h >> 10) & 0x1f;
  const f = h & 0x3ff;
  if (e === 0) return s * 2 ** -14 * (f / 1024);
  if (e === 31) return f ? NaN : s * Infinity;
  return s * 2 ** (e - 15) * (1 + f / 1024);
}

/** The weights of the tfjs manifest, dequantised to float32 (int32 constants as they are). */
function readWeights(weights: TfWeight[], bin: Buffer): Map<string, { shape: number[]; data: Float32Array | Int32Array }> {
  const out = new Map<string, { shape: number[]; data: Float32Array | Int32Array }>();
  let offset = 0;
  for (const w of weights) {
    const n = w.shape.reduce((a, b) => a * b, 1);
    if (w.quantization) {
      if (w.quantization.dtype !== 'float16') throw new Error(`${w.name}: unsupported quantisation ${w.quantization.dtype}`);
      const data = new Float32Array(n);
      for (let i = 0; i < n; i++) data[i] = float16ToFloat32(bin.readUInt16LE(offset + 2 * i));
      offset += 2 * n;
      out.set(w.name, { shape: w.shape, data });
    } else if (w.dtype === 'float32') {
      const data = new Float32Array(n);
      for (let i = 0; i < n; i++) data[i] = bin.readFloatLE(offset + 4 * i);
      offset += 4 * n;
      out.set(w.name, { shape: w.shape, data });
    } else {
      const data = new Int32Array(n);
      for (let i = 0; i < n; i++) data[i] = bin.readInt32LE(offset + 4 * i);
      offset += 4 * n;
      out.set(w.name, { shape: w.shape, data });
    }
  }
  if (offset !== bin.length) throw new Error(`centernet.bin: ${bin.length} bytes, the manifest describes ${offset}`);
  return out;
}

const attrInts = (name: string, ints: number[]): IAttr => ({ name, type: onnx.AttributeProto.AttributeType.INTS, ints });
const attrInt = (name: string, i: number): IAttr => ({ name, type: onnx.AttributeProto.AttributeType.INT, i });
const attrStr = (name: string, s: string): IAttr => ({ name, type: onnx.AttributeProto.AttributeType.STRING, s: Buffer.from(s) });

function floatTensor(name: string, dims: number[], data: Float32Array): ITensor {
  return {
    name,
    dims,
    dataType: onnx.TensorProto.DataType.FLOAT,
    rawData: new Uint8Array(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength)),
  };
}
function int64Tensor(name: string, values: number[]): ITensor {
  const data = new BigInt64Array(values.map((v) => BigInt(v)));
  return { name, dims: [values.length], dataType: onnx.TensorProto.DataType.INT64, rawData: new Uint8Array(data.buffer) };
}

/** tf HWIO → onnx OIHW */
function convFilter(w: { shape: number[]; data: Float32Array }): { dims: number[]; data: Float32Array } {
  const [H, W, I, O] = w.shape;
  const out = new Float32Array(w.data.length);
  for (let h = 0; h < H; h++)
    for (let x = 0; x < W; x++)
      for (let i = 0; i < I; i++) for (let o = 0; o < O; o++) out[((o * I + i) * H + h) * W + x] = w.data[((h * W + x) * I + i) * O + o];
  return { dims: [O, I, H, W], data: out };
}
/** tf depthwise [H, W, C, M] → onnx grouped [C·M, 1, H, W] */
function depthwiseFilter(w: { shape: number[]; data: Float32Array }): { dims: number[]; data: Float32Array } {
  const [H, W, C, M] = w.shape;
  const out = new Float32Array(w.data.length);
  for (let h = 0; h < H; h++)
    for (let x = 0; x < W; x++)
      for (let c = 0; c < C; c++) for (let m = 0; m < M; m++) out[((c * M + m) * H + h) * W + x] = w.data[((h * W + x) * C + c) * M + m];
  return { dims: [C * M, 1, H, W], data: out };
}

const NHWC_TO_NCHW_AXIS = [0, 2, 3, 1];

/** The ONNX model's bytes, built from the tfjs model in `modelDir` (deterministic: the same input gives the same bytes). */
export function convertCenterNet(modelDir = humanModelDir()): Buffer {
  const json = JSON.parse(readFileSync(join(modelDir, 'centernet.json'), 'utf8')) as {
    modelTopology: { node: TfNode[] };
    weightsManifest: Array<{ paths: string[]; weights: TfWeight[] }>;
  };
  if (json.weightsManifest.length !== 1 || json.weightsManifest[0].paths.length !== 1) throw new Error('centernet.json: expected one weights file');
  const weights = readWeights(json.weightsManifest[0].weights, readFileSync(join(modelDir, json.weightsManifest[0].paths[0])));
  const byName = new Map(json.modelTopology.node.map((n) => [n.name, n]));

  // the network: every node the two heads depend on
  const heads = ['tower_0/keypoints', 'tower_0/wh'];
  const needed = new Set<string>();
  const visit = (name: string) => {
    const base = name.split(':')[0];
    if (needed.has(base)) return;
    needed.add(base);
    for (const i of byName.get(base)?.input ?? []) visit(i);
  };
  heads.forEach(visit);

  const nodes: INode[] = [];
  const initializers: ITensor[] = [];
  const used = new Set<string>();
  const constOf = (name: string) => {
    const w = weights.get(name);
    if (!w) throw new Error(`centernet.json: ${name} is not a constant`);
    return w;
  };
  const init = (t: ITensor) => {
    if (!used.has(t.name!)) {
      initializers.push(t);
      used.add(t.name!);
    }
    return t.name!;
  };
  const scalar = (name: string) => {
    const w = constOf(name);
    if (w.data.length !== 1) throw new Error(`${name}: expected a scalar, got shape ${JSON.stringify(w.shape)}`);
    return init(floatTensor(name, [], Float32Array.from(w.data)));
  };
  const isConst = (name: string) => byName.get(name)?.op === 'Const';
  const attr = (n: TfNode, key: string) => n.attr?.[key];
  const str = (n: TfNode, key: string) => Buffer.from(attr(n, key)?.s ?? '', 'base64').toString();
  const stridesOf = (n: TfNode) => (attr(n, 'strides')?.list?.i ?? ['1', '1', '1', '1']).map(Number).slice(1, 3);
  const padOf = (n: TfNode): IAttr => {
    const p = str(n, 'padding');
    if (p === 'SAME') return attrStr('auto_pad', 'SAME_UPPER');
    if (p === 'VALID') return attrStr('auto_pad', 'VALID');
    throw new Error(`${n.name}: padding ${p} not supported`);
  };
  const checkFormat = (n: TfNode) => {
    const f = str(n, 'data_format');
    if (f && f !== 'NHWC') throw new Error(`${n.name}: data_format ${f} not supported`);
    const d = (attr(n, 'dilations')?.list?.i ?? ['1', '1', '1', '1']).map(Number);
    if (d.some((v) => v !== 1)) throw new Error(`${n.name}: dilations not supported`);
  };

  // the input: uint8 NHWC frame → float NCHW, resized to the requested size
  nodes.push({ opType: 'Cast', input: ['image'], output: ['image_f'], name: 'input/cast', attribute: [attrInt('to', onnx.TensorProto.DataType.FLOAT)] });
  nodes.push({ opType: 'Transpose', input: ['image_f'], output: ['image_nchw'], name: 'input/nchw', attribute: [attrInts('perm', [0, 3, 1, 2])] });
  init(int64Tensor('input/batch_channels', [1, 3]));
  nodes.push({ opType: 'Concat', input: ['input/batch_channels', 'size'], output: ['input/sizes'], name: 'input/sizes', attribute: [attrInt('axis', 0)] });
  nodes.push({
    opType: 'Resize',
    input: ['image_nchw', '', '', 'input/sizes'],
    output: ['tower_0/images'],
    name: 'input/resize',
    attribute: [attrStr('mode', 'linear'), attrStr('coordinate_transformation_mode', 'asymmetric')],
  });

  for (const n of json.modelTopology.node) {
    if (!needed.has(n.name) || n.op === 'Const' || n.op === 'Placeholder') continue;
    const inputs = n.input ?? [];
    const out = [n.name];
    switch (n.op) {
      case '_FusedConv2D':
      case 'Conv2D':
      case 'FusedDepthwiseConv2dNative':
      case 'DepthwiseConv2dNative': {
        checkFormat(n);
        const depthwise = n.op.includes('Depthwise');
        const fused = (attr(n, 'fused_ops')?.list?.s ?? []).map((s) => Buffer.from(s, 'base64').toString());
        const filter = constOf(inputs[1]) as { shape: number[]; data: Float32Array };
        const f = depthwise ? depthwiseFilter(filter) : convFilter(filter);
        const convInputs = [inputs[0], init(floatTensor(inputs[1], f.dims, f.data))];
        const rest = fused.filter((op) => op !== 'BiasAdd');
        if (fused.length && fused[0] !== 'BiasAdd') throw new Error(`${n.name}: fused ops ${fused.join(',')} not supported`);
        if (fused[0] === 'BiasAdd') {
          const b = constOf(inputs[2]) as { shape: number[]; data: Float32Array };
          convInputs.push(init(floatTensor(inputs[2], [b.data.length], b.data)));
        }
        const attributes: IAttr[] = [attrInts('strides', stridesOf(n)), padOf(n), attrInts('kernel_shape', f.dims.slice(2))];
        if (depthwise) attributes.push(attrInt('group', filter.shape[2]));
        if (!rest.length) {
          nodes.push({ opType: 'Conv', input: convInputs, output: out, name: n.name, attribute: attributes });
        } else {
          nodes.push({ opType: 'Conv', input: convInputs, output: [`${n.name}/conv`], name: `${n.name}/conv`, attribute: attributes });
          if (rest.length !== 1) throw new Error(`${n.name}: fused ops ${fused.join(',')} not supported`);
          if (rest[0] === 'Relu') nodes.push({ opType: 'Relu', input: [`${n.name}/conv`], output: out, name: n.name });
          else if (rest[0] === 'Relu6')
            nodes.push({
              opType: 'Clip',
              input: [`${n.name}/conv`, init(floatTensor('relu6/min', [], Float32Array.of(0))), init(floatTensor('relu6/max', [], Float32Array.of(6)))],
              output: out,
              name: n.name,
            });
          else throw new Error(`${n.name}: fused op ${rest[0]} not supported`);
        }
        break;
      }
      case 'Mul':
      case 'Add':
      case 'Sub': {
        const ins = inputs.map((i) => (isConst(i) ? scalar(i) : i));
        nodes.push({ opType: n.op, input: ins, output: out, name: n.name });
        break;
      }
      case 'Relu':
      case 'Sigmoid':
      case 'Identity':
        nodes.push({ opType: n.op, input: [inputs[0]], output: out, name: n.name });
        break;
      case 'Relu6':
        nodes.push({
          opType: 'Clip',
          input: [inputs[0], init(floatTensor('relu6/min', [], Float32Array.of(0))), init(floatTensor('relu6/max', [], Float32Array.of(6)))],
          output: out,
          name: n.name,
        });
        break;
      case 'Mean': {
        if (!attr(n, 'keep_dims')?.b) throw new Error(`${n.name}: Mean without keep_dims not supported`);
        const axes = Array.from(constOf(inputs[1]).data).map((a) => NHWC_TO_NCHW_AXIS[a]);
        nodes.push({ opType: 'ReduceMean', input: [inputs[0]], output: out, name: n.name, attribute: [attrInts('axes', axes), attrInt('keepdims', 1)] });
        break;
      }
      case 'ConcatV2': {
        const axis = constOf(inputs[inputs.length - 1]).data[0];
        nodes.push({ opType: 'Concat', input: inputs.slice(0, -1), output: out, name: n.name, attribute: [attrInt('axis', NHWC_TO_NCHW_AXIS[axis])] });
        break;
      }
      case 'ResizeBilinear': {
        if (attr(n, 'align_corners')?.b || attr(n, 'half_pixel_centers')?.b) throw new Error(`${n.name}: only asymmetric bilinear resizing is supported`);
        // the graph folded the output size for a 512×512 input; every upsampling in it doubles,
        // so it is written as a scale and serves any input size
        init(floatTensor('upsample/x2', [4], Float32Array.of(1, 1, 2, 2)));
        nodes.push({
          opType: 'Resize',
          input: [inputs[0], '', 'upsample/x2'],
          output: out,
          name: n.name,
          attribute: [attrStr('mode', 'linear'), attrStr('coordinate_transformation_mode', 'asymmetric')],
        });
        break;
      }
      default:
        throw new Error(`${n.name}: op ${n.op} not supported by the converter`);
    }
  }

  // the model's own decoding, without its size constants: peaks of the class heat map, top 100
  nodes.push({
    opType: 'MaxPool',
    input: ['tower_0/keypoints'],
    output: ['decode/pooled'],
    name: 'decode/pool',
    attribute: [attrInts('kernel_shape', [3, 3]), attrInts('strides', [1, 1]), attrInts('pads', [1, 1, 1, 1])],
  });
  nodes.push({ opType: 'Equal', input: ['tower_0/keypoints', 'decode/pooled'], output: ['decode/is_peak'], name: 'decode/is_peak' });
  nodes.push({
    opType: 'Cast',
    input: ['decode/is_peak'],
    output: ['decode/peak'],
    name: 'decode/peak',
    attribute: [attrInt('to', onnx.TensorProto.DataType.FLOAT)],
  });
  nodes.push({ opType: 'Mul', input: ['tower_0/keypoints', 'decode/peak'], output: ['decode/peaks'], name: 'decode/peaks' });
  nodes.push({ opType: 'Transpose', input: ['decode/peaks'], output: ['decode/peaks_nhwc'], name: 'decode/nhwc', attribute: [attrInts('perm', [0, 2, 3, 1])] });
  init(int64Tensor('decode/flat_shape', [1, -1]));
  nodes.push({ opType: 'Reshape', input: ['decode/peaks_nhwc', 'decode/flat_shape'], output: ['decode/flat'], name: 'decode/flat' });
  init(int64Tensor('decode/k', [CENTERNET_TOP_K]));
  nodes.push({
    opType: 'TopK',
    input: ['decode/flat', 'decode/k'],
    output: ['scores', 'indices'],
    name: 'decode/topk',
    attribute: [attrInt('axis', -1), attrInt('largest', 1), attrInt('sorted', 1)],
  });
  nodes.push({ opType: 'Identity', input: ['tower_0/wh'], output: ['wh'], name: 'decode/wh' });

  const dim = (v: number | string) => (typeof v === 'number' ? { dimValue: v } : { dimParam: v });
  const tensorType = (elemType: number, dims: Array<number | string>) => ({ tensorType: { elemType, shape: { dim: dims.map(dim) } } });
  const model = onnx.ModelProto.create({
    irVersion: 7,
    opsetImport: [{ domain: '', version: 13 }],
    producerName: 'vigil scripts/centernet-to-onnx.ts',
    producerVersion: '1',
    docString: 'CenterNet (MobileNetV3 backbone, COCO 80 classes) from @vladmandic/human models/centernet.json, converted by Vigil. See models/README.md.',
    graph: {
      name: 'centernet',
      node: nodes,
      initializer: initializers,
      input: [
        { name: 'image', type: tensorType(onnx.TensorProto.DataType.UINT8, [1, 'height', 'width', 3]) },
        { name: 'size', type: tensorType(onnx.TensorProto.DataType.INT64, [2]) },
      ],
      output: [
        { name: 'scores', type: tensorType(onnx.TensorProto.DataType.FLOAT, [1, CENTERNET_TOP_K]) },
        { name: 'indices', type: tensorType(onnx.TensorProto.DataType.INT64, [1, CENTERNET_TOP_K]) },
        { name: 'wh', type: tensorType(onnx.TensorProto.DataType.FLOAT, [1, 4, 'out_height', 'out_width']) },
      ],
    },
  });
  return Buffer.from(onnx.ModelProto.encode(model).finish());
}

/** sha256 of a buffer, hex */
export const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const out = process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..', 'models', 'centernet.onnx');
  const bytes = convertCenterNet();
  writeFileSync(out, bytes);
  console.log(`${out}: ${bytes.length} bytes, sha256 ${sha256(bytes)}`);
}
