/**
 * The fallback detector worker (docs/decisions.md, 'CenterNet on ONNX Runtime'): used only when
 * ONNX Runtime's native library cannot load. One CenterNet model (from @vladmandic/human, COCO
 * classes) on the tfjs WebAssembly backend. Runs off the main thread so inference (~100–250 ms a frame) never
 * blocks the HTTP server. Started by detector-pool.ts through a tsx bootstrap.
 *
 * A frame comes either whole (squeezed to 512×512, as Human runs it) or as motion
 * regions (regions.ts), each run at its own size. The converted model declares a fixed
 * 1×512×512×3 input, but it is fully convolutional: only five constants folded in at export
 * depend on the size (three upsampling sizes, the heat map's width, the gather's row count). The
 * model is loaded here with a free input size, and those constants are swapped per input size
 * before each run; decoding (top 100 peaks, boxes in input pixels) stays the model's own.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { mergeOverlaps } from './models/merge-regions.ts';
import { COCO_LABELS } from './models/coco-labels.ts';
import { DETECTOR_LABEL_CLASSES } from './models/detector-model.ts';
import { cutByRegion, regionBoxToFrame, wholeInput, type Region } from './regions.ts';
import type { DetectedObject } from './video.types.ts';

export interface CenterNetWorkerData {
  /** minimum score the model reports */
  minScore: number;
  /** most objects per frame */
  maxDetected: number;
  /** whole frames: 'aspect' (default) keeps the frame's aspect, longer side 512; 'square' squeezes to 512×512 as Human does */
  wholeFrame?: 'aspect' | 'square';
}

export type DetectRequest = { id: number; width: number; height: number; data: Uint8Array; regions?: Region[]; wholeFrame?: 'aspect' | 'square' };
export type WorkerReply =
  | { type: 'ready' }
  | { type: 'result'; id: number; objects: DetectedObject[]; ms: number; pixels: number; infer_ms?: number }
  | { type: 'error'; id: number; message: string };

interface TensorLike {
  dispose(): void;
  array(): Promise<unknown>;
  data(): Promise<ArrayLike<number>>;
}
/** The parts of tfjs used here (Human bundles it; its types are unreachable through the broken exports map). */
interface Tf {
  tensor4d(data: Float32Array, shape: [number, number, number, number], dtype: 'float32'): TensorLike;
  tensor1d(data: number[], dtype: 'int32'): TensorLike;
  tensor2d(data: Float32Array, shape: [number, number]): TensorLike;
  tensor1d(data: Float32Array): TensorLike;
  image: {
    resizeBilinear(t: TensorLike, size: [number, number]): TensorLike;
    nonMaxSuppressionAsync(boxes: TensorLike, scores: TensorLike, max: number, iou: number, score: number): Promise<TensorLike>;
  };
  tidy<T>(fn: () => T): T;
  loadGraphModel(handler: unknown): Promise<GraphModelLike>;
  io: { fromMemory(artifacts: object): unknown };
}
interface GraphModelLike {
  execute(input: TensorLike, outputs: string[]): TensorLike;
}
interface HumanLike {
  init(): Promise<void>;
  tf: Tf;
}

const require = createRequire(import.meta.url);

/** Model input sizes are multiples of this (five stride-2 stages). */
const STRIDE = 32;
const FULL = 512;
/** the graph's constants that depend on the input size, as [height, width] → value */
const SIZE_CONSTANTS: Array<[string, (h: number, w: number) => number[]]> = [
  ['tower_0/CenternetHead/c5_upsample/up_sampling2d/mul', (h, w) => [h / 16, w / 16]],
  ['tower_0/CenternetHead/c4_upsample/up_sampling2d_1/mul', (h, w) => [h / 8, w / 8]],
  ['tower_0/CenternetHead/c3_upsample/up_sampling2d_2/mul', (h, w) => [h / 4, w / 4]],
  ['tower_0/strided_slice_6', (_h, w) => [w / 4]],
  ['tower_0/BatchGather/concat', (h, w) => [(h / 4) * (w / 4), 4]],
];

class CenterNet {
  /** the size constants per input side, made once and kept (no tensors made per frame for them) */
  private readonly constants = new Map<string, TensorLike[]>();
  /** Float32 staging buffers per element count, reused frame after frame */
  private readonly buffers = new Map<number, Float32Array>();
  private current = `${FULL}x${FULL}`;
  /** model input pixels run so far (inference cost follows them) */
  pixels = 0;

  constructor(
    private readonly tf: Tf,
    private readonly model: GraphModelLike,
    private readonly weightMap: Record<string, TensorLike[]>,
    private readonly opts: CenterNetWorkerData,
  ) {}

  static async load(opts: CenterNetWorkerData): Promise<CenterNet> {
    // Human's exports map has no usable subpath for its wasm build: find the package folder
    // through the entry it does export, then require dist/human.node-wasm.js by path.
    const humanDir = join(dirname(require.resolve('@vladmandic/human')), '..');
    const wasmDir = dirname(require.resolve('@tensorflow/tfjs-backend-wasm'));
    const modelDir = join(humanDir, 'models');
    installFileFetch();
    const { Human } = require(join(humanDir, 'dist', 'human.node-wasm.js')) as { Human: new (config: object) => HumanLike };
    // Human sets up the wasm backend (SIMD) and its kernels; the model itself is loaded below
    const human = new Human({
      backend: 'wasm',
      wasmPath: `file://${wasmDir}/`,
      modelBasePath: `file://${modelDir}/`,
      debug: false,
      face: { enabled: false },
      body: { enabled: false },
      hand: { enabled: false },
      object: { enabled: false },
      segmentation: { enabled: false },
      gesture: { enabled: false },
      filter: { enabled: false },
    });
    await human.init();
    const tf = human.tf;
    const json = JSON.parse(await readFile(join(modelDir, 'centernet.json'), 'utf8')) as {
      modelTopology: { node: Array<{ op: string; attr: { shape?: { shape: { dim: Array<{ size: string }> } } } }> };
      weightsManifest: Array<{ weights: unknown[] }>;
      signature: { inputs: Record<string, { tensorShape: { dim: Array<{ size: string }> } }> };
    };
    const bin = await readFile(join(modelDir, 'centernet.bin'));
    const free = [{ size: '1' }, { size: '-1' }, { size: '-1' }, { size: '3' }];
    const input = json.modelTopology.node.find((n) => n.op === 'Placeholder');
    if (!input?.attr.shape) throw new Error('centernet.json: no input placeholder');
    input.attr.shape.shape.dim = free;
    for (const sig of Object.values(json.signature.inputs)) sig.tensorShape.dim = free;
    const model = await tf.loadGraphModel(
      tf.io.fromMemory({
        modelTopology: json.modelTopology,
        weightSpecs: json.weightsManifest[0].weights,
        weightData: bin.buffer.slice(bin.byteOffset, bin.byteOffset + bin.byteLength),
        signature: json.signature,
      }),
    );
    const weightMap = (model as unknown as { executor: { weightMap: Record<string, TensorLike[]> } }).executor.weightMap;
    for (const [name] of SIZE_CONSTANTS) if (!weightMap[name]) throw new Error(`centernet.json: constant ${name} not found`);
    const net = new CenterNet(tf, model, weightMap, opts);
    net.constants.set(
      `${FULL}x${FULL}`,
      SIZE_CONSTANTS.map(([name]) => weightMap[name][0]),
    );
    return net;
  }

  /** The frame whole (at wholeInput's size, or squeezed to 512×512), or each region at its own input size; boxes in frame coordinates. */
  async detect(req: DetectRequest): Promise<DetectedObject[]> {
    if (!req.regions?.length) return this.detectWhole(req);
    const out: Array<DetectedObject & { cut: boolean }> = [];
    for (const r of req.regions) {
      for (const o of await this.detectRegion(req, r)) {
        out.push({ ...o, box: regionBoxToFrame(o.box, r, req.width, req.height), cut: cutByRegion(o.box, r, req.width, req.height) });
      }
    }
    return mergeOverlaps(out);
  }

  private async detectWhole(req: DetectRequest): Promise<DetectedObject[]> {
    const frame = this.tf.tensor4d(this.toFloat(req.data, 0, 0, req.width, req.height, req.width), [1, req.height, req.width, 3], 'float32');
    try {
      const [ww, wh] = (req.wholeFrame ?? this.opts.wholeFrame) === 'square' ? [FULL, FULL] : wholeInput(req.width, req.height);
      const resized = this.tf.image.resizeBilinear(frame, [wh, ww]);
      try {
        return await this.run(resized, wh, ww);
      } finally {
        resized.dispose();
      }
    } finally {
      frame.dispose();
    }
  }

  private async detectRegion(req: DetectRequest, r: Region): Promise<DetectedObject[]> {
    const crop = this.tf.tensor4d(this.toFloat(req.data, r.x, r.y, r.size, r.size, req.width), [1, r.size, r.size, 3], 'float32');
    try {
      if (r.input === r.size) return await this.run(crop, r.input);
      const resized = this.tf.image.resizeBilinear(crop, [r.input, r.input]);
      try {
        return await this.run(resized, r.input);
      } finally {
        resized.dispose();
      }
    } finally {
      crop.dispose();
    }
  }

  /** Copies a w×h window of the packed RGB frame into a reused Float32 buffer (the model takes 0..255 floats). */
  private toFloat(data: Uint8Array, x0: number, y0: number, w: number, h: number, stride: number): Float32Array {
    const n = w * h * 3;
    let buf = this.buffers.get(n);
    if (!buf) this.buffers.set(n, (buf = new Float32Array(n)));
    let k = 0;
    for (let y = y0; y < y0 + h; y++) {
      let p = (y * stride + x0) * 3;
      const end = p + w * 3;
      while (p < end) buf[k++] = data[p++];
    }
    return buf;
  }

  /** Runs the model on an input of height × width; boxes normalised to that input. */
  private async run(input: TensorLike, height: number, width = height): Promise<DetectedObject[]> {
    if (height % STRIDE !== 0 || width % STRIDE !== 0) throw new Error(`input size ${width}x${height} is not a multiple of ${STRIDE}`);
    this.useSize(height, width);
    this.pixels += height * width;
    const res = this.model.execute(input, ['tower_0/detections']);
    let rows: number[][];
    try {
      rows = ((await res.array()) as number[][][])[0];
    } finally {
      res.dispose();
    }
    // non-maximum suppression as Human does: across all 80 classes (iou 0.4, score floor), then
    // Vigil's classes are picked out of what survived
    const kept = rows.filter((d) => d[4] >= this.opts.minScore);
    const boxes = new Float32Array(kept.length * 4);
    const scores = new Float32Array(kept.length);
    kept.forEach((d, i) => {
      boxes.set([d[1], d[0], d[3], d[2]], i * 4);
      scores[i] = d[4];
    });
    let picked: ArrayLike<number> = [];
    if (kept.length) {
      const b = this.tf.tensor2d(boxes, [kept.length, 4]);
      const s = this.tf.tensor1d(scores);
      const nms = await this.tf.image.nonMaxSuppressionAsync(b, s, this.opts.maxDetected, 0.4, this.opts.minScore);
      picked = await nms.data();
      for (const t of [b, s, nms]) t.dispose();
    }
    const out: DetectedObject[] = [];
    for (const i of Array.from(picked)) {
      const d = kept[i];
      const label = DETECTOR_LABEL_CLASSES[COCO_LABELS[d[5]]];
      if (!label) continue;
      const [x1, y1, x2, y2] = [d[0] / width, d[1] / height, d[2] / width, d[3] / height].map((v) => Math.min(1, Math.max(0, v)));
      out.push({ label, score: Math.trunc(100 * d[4]) / 100, box: [x1, y1, x2 - x1, y2 - y1] });
    }
    return out;
  }

  /** Puts the input-size constants for height × width into the graph (made once per size, then swapped in by reference). */
  private useSize(height: number, width: number): void {
    const key = `${height}x${width}`;
    if (key === this.current) return;
    let consts = this.constants.get(key);
    if (!consts) {
      consts = SIZE_CONSTANTS.map(([, value]) => this.tf.tensor1d(value(height, width), 'int32'));
      this.constants.set(key, consts);
    }
    SIZE_CONSTANTS.forEach(([name], i) => {
      this.weightMap[name] = [consts[i]];
    });
    this.current = key;
  }
}

/**
 * Node's fetch refuses file:// URLs, and Human loads its model through fetch. Serve file://
 * from disk in this worker only; other URLs keep the real fetch.
 */
function installFileFetch(): void {
  const realFetch = globalThis.fetch;
  globalThis.fetch = async (input: string | URL | Request, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (url.startsWith('file://')) return new Response(await readFile(new URL(url)));
    return realFetch(input, init);
  };
}

async function serve(): Promise<void> {
  const port = parentPort;
  if (!port) throw new Error('centernet.worker.ts must run in a worker thread');
  const net = await CenterNet.load(workerData as CenterNetWorkerData);
  // the first inference compiles kernels; do it before declaring readiness
  await net.detect({ id: 0, width: 64, height: 64, data: new Uint8Array(64 * 64 * 3) });
  port.on('message', (req: DetectRequest) => {
    const started = performance.now();
    const pixels = net.pixels;
    net.detect(req).then(
      (objects) =>
        port.postMessage({ type: 'result', id: req.id, objects, ms: performance.now() - started, pixels: net.pixels - pixels } satisfies WorkerReply),
      (err: unknown) => port.postMessage({ type: 'error', id: req.id, message: String((err as Error)?.message ?? err) } satisfies WorkerReply),
    );
  });
  port.postMessage({ type: 'ready' } satisfies WorkerReply);
}

await serve();
