/**
 * One detection model on ONNX Runtime, in one worker thread: the frame (whole, or each motion
 * region) is fed to the model at the model's input size, and the model's decoder turns its
 * outputs into objects. Decoders:
 * - centernet: Vigil's converted CenterNet (scripts/centernet-to-onnx.ts). The file resizes the
 *   uint8 frame itself and picks the top 100 heat-map peaks; here they become boxes and go through
 *   non-maximum suppression across all classes (IoU 0.4), as @vladmandic/human does on tfjs.
 * - yolo: a user's export in the common YOLO layout (README, 'Bring your own detection model'):
 *   the crop letterboxed into size×size, RGB 0..1 NCHW; output [1, 4 + classes, boxes] (YOLOv8,
 *   v9, v11 ...) or [1, boxes, 5 + classes] (YOLOv5, YOLOX: with objectness), boxes as centre,
 *   width, height in input pixels; non-maximum suppression per class (IoU 0.45).
 */
import { cutByRegion, regionBoxToFrame, wholeInput, type Region } from '../regions.ts';
import type { DetectedObject, ObjectLabel } from '../video.types.ts';
import { DETECTOR_LABEL_CLASSES, type DetectorModel } from './detector-model.ts';
import { mergeOverlaps } from './merge-regions.ts';
import { nonMaxSuppression } from './nms.ts';

/** The onnxruntime-node API used here. */
export interface OrtTensor {
  readonly data: ArrayLike<number | bigint>;
  readonly dims: readonly number[];
  dispose?(): void;
}
export interface OrtSession {
  run(feeds: Record<string, OrtTensor>): Promise<Record<string, OrtTensor>>;
  release(): Promise<void>;
}
export interface OrtModule {
  Tensor: new (type: string, data: ArrayLike<number | bigint> | Uint8Array | Float32Array | BigInt64Array, dims: readonly number[]) => OrtTensor;
  InferenceSession: { create(path: string, options?: object): Promise<OrtSession> };
}

export interface OnnxDetectorOptions {
  model: DetectorModel;
  /** minimum score reported */
  minScore: number;
  /** most objects per frame */
  maxDetected: number;
  /** whole frames: 'aspect' keeps the frame's aspect (CenterNet only), 'square' squeezes */
  wholeFrame: 'aspect' | 'square';
  /** intra-op threads of the session; 1 when the pool has a thread per core */
  threads: number;
}

export interface DetectInput {
  width: number;
  height: number;
  data: Uint8Array;
  regions?: Region[];
  wholeFrame?: 'aspect' | 'square';
}

const CENTERNET_STRIDE = 4;
const YOLO_PAD = 114;

export class OnnxDetector {
  /** model input pixels run so far (inference cost follows them) */
  pixels = 0;
  /** time spent inside session.run, ms */
  inferMs = 0;
  private readonly classes: Array<ObjectLabel | undefined>;
  private readonly buffers = new Map<number, Float32Array>();

  private constructor(
    private readonly ort: OrtModule,
    private readonly session: OrtSession,
    private readonly o: OnnxDetectorOptions,
  ) {
    this.classes = o.model.labels.map((l) => DETECTOR_LABEL_CLASSES[l]);
  }

  static async load(ort: OrtModule, o: OnnxDetectorOptions): Promise<OnnxDetector> {
    const session = await ort.InferenceSession.create(o.model.file, {
      intraOpNumThreads: o.threads,
      interOpNumThreads: 1,
      executionMode: 'sequential',
      graphOptimizationLevel: 'all',
    });
    return new OnnxDetector(ort, session, o);
  }

  async close(): Promise<void> {
    await this.session.release();
  }

  /** The frame whole, or each region; boxes in frame coordinates. */
  async detect(req: DetectInput): Promise<DetectedObject[]> {
    if (!req.regions?.length) {
      const square = (req.wholeFrame ?? this.o.wholeFrame) === 'square';
      return this.o.model.decoder === 'centernet' ? this.centerNet(req.data, req.width, req.height, ...this.wholeSize(req, square)) : this.yolo(req.data, req.width, req.height, square);
    }
    const out: Array<DetectedObject & { cut: boolean }> = [];
    for (const r of req.regions) {
      const crop = cropRgb(req.data, req.width, r);
      const found = this.o.model.decoder === 'centernet' ? await this.centerNet(crop, r.size, r.size, Math.min(r.input, this.o.model.input), Math.min(r.input, this.o.model.input)) : await this.yolo(crop, r.size, r.size, true);
      for (const o of found) out.push({ ...o, box: regionBoxToFrame(o.box, r, req.width, req.height), cut: cutByRegion(o.box, r, req.width, req.height) });
    }
    return mergeOverlaps(out);
  }

  private wholeSize(req: DetectInput, square: boolean): [number, number] {
    const full = this.o.model.input;
    if (square) return [full, full];
    const [w, h] = wholeInput(req.width, req.height);
    const scale = full / 512;
    const side = (v: number) => Math.max(32, Math.round((v * scale) / 32) * 32);
    return scale === 1 ? [w, h] : [side(w), side(h)];
  }

  private async infer(feeds: Record<string, OrtTensor>): Promise<Record<string, OrtTensor>> {
    const t0 = performance.now();
    const out = await this.session.run(feeds);
    this.inferMs += performance.now() - t0;
    return out;
  }

  /** CenterNet on an RGB image of w×h, resized by the model to tw×th; boxes normalised to the image. */
  private async centerNet(data: Uint8Array, w: number, h: number, tw: number, th: number): Promise<DetectedObject[]> {
    if (tw % 32 !== 0 || th % 32 !== 0) throw new Error(`input size ${tw}x${th} is not a multiple of 32`);
    this.pixels += tw * th;
    const out = await this.infer({
      image: new this.ort.Tensor('uint8', data, [1, h, w, 3]),
      size: new this.ort.Tensor('int64', BigInt64Array.of(BigInt(th), BigInt(tw)), [2]),
    });
    const scores = out.scores.data as Float32Array;
    const indices = out.indices.data as BigInt64Array;
    const wh = out.wh.data as Float32Array;
    const [, , oh, ow] = out.wh.dims;
    const plane = oh * ow;
    const classes = this.o.model.labels.length;
    const boxes: number[][] = [];
    const kept: number[] = [];
    const cls: number[] = [];
    for (let i = 0; i < scores.length; i++) {
      const s = scores[i];
      if (!(s >= this.o.minScore)) continue;
      const idx = Number(indices[i]);
      const c = idx % classes;
      const pos = (idx - c) / classes;
      const y = Math.floor(pos / ow);
      const x = pos - y * ow;
      const f = Math.fround;
      boxes.push([f(x * CENTERNET_STRIDE - wh[pos]), f(y * CENTERNET_STRIDE - wh[plane + pos]), f(x * CENTERNET_STRIDE + wh[2 * plane + pos]), f(y * CENTERNET_STRIDE + wh[3 * plane + pos])]);
      kept.push(s);
      cls.push(c);
    }
    const picked = nonMaxSuppression(boxes, kept, this.o.maxDetected, 0.4);
    const objects: DetectedObject[] = [];
    for (const i of picked) {
      const label = this.classes[cls[i]];
      if (!label) continue;
      const [x1, y1, x2, y2] = [boxes[i][0] / tw, boxes[i][1] / th, boxes[i][2] / tw, boxes[i][3] / th].map(clamp01);
      objects.push({ label, score: Math.trunc(100 * kept[i]) / 100, box: [x1, y1, x2 - x1, y2 - y1] });
    }
    return objects;
  }

  /** A YOLO-layout model on an RGB image of w×h, letterboxed into its square input; boxes normalised to the image. */
  private async yolo(data: Uint8Array, w: number, h: number, _square: boolean): Promise<DetectedObject[]> {
    const size = this.o.model.input;
    this.pixels += size * size;
    const scale = Math.min(size / w, size / h);
    const input = this.letterbox(data, w, h, size, scale);
    const out = await this.infer({ [this.o.model.io.input]: new this.ort.Tensor('float32', input, [1, 3, size, size]) });
    const t = out[this.o.model.io.outputs[0]];
    const [, a, b] = t.dims;
    const v = t.data as Float32Array;
    const k = this.o.model.labels.length;
    // layout: channels first [1, 4+k, n] (v8 family) or rows [1, n, 4+k]; with objectness 5+k
    let n: number, at: (row: number, col: number) => number, objectness: boolean;
    if (a === 4 + k || a === 5 + k) {
      n = b;
      objectness = a === 5 + k;
      at = (row, col) => v[col * b + row];
    } else {
      n = a;
      objectness = b === 5 + k;
      at = (row, col) => v[row * b + col];
    }
    const first = objectness ? 5 : 4;
    const boxes: number[][] = [];
    const scores: number[] = [];
    const cls: number[] = [];
    for (let i = 0; i < n; i++) {
      const obj = objectness ? at(i, 4) : 1;
      if (obj < this.o.minScore) continue;
      let best = -1;
      let bestScore = 0;
      for (let c = 0; c < k; c++) {
        if (!this.classes[c]) continue;
        const s = at(i, first + c) * obj;
        if (s > bestScore) {
          bestScore = s;
          best = c;
        }
      }
      if (best < 0 || bestScore < this.o.minScore) continue;
      const cx = at(i, 0), cy = at(i, 1), bw = at(i, 2), bh = at(i, 3);
      boxes.push([(cx - bw / 2) / scale, (cy - bh / 2) / scale, (cx + bw / 2) / scale, (cy + bh / 2) / scale]);
      scores.push(bestScore);
      cls.push(best);
    }
    const objects: DetectedObject[] = [];
    for (const c of new Set(cls)) {
      const members = cls.map((x, i) => (x === c ? i : -1)).filter((i) => i >= 0);
      const picked = nonMaxSuppression(members.map((i) => boxes[i]), members.map((i) => scores[i]), this.o.maxDetected, 0.45);
      for (const p of picked) {
        const i = members[p];
        const [x1, y1, x2, y2] = [boxes[i][0] / w, boxes[i][1] / h, boxes[i][2] / w, boxes[i][3] / h].map(clamp01);
        if (x2 <= x1 || y2 <= y1) continue;
        objects.push({ label: this.classes[c]!, score: Math.trunc(100 * scores[i]) / 100, box: [x1, y1, x2 - x1, y2 - y1] });
      }
    }
    return objects.sort((x, y) => y.score - x.score).slice(0, this.o.maxDetected);
  }

  /** RGB uint8 w×h → float NCHW size×size in 0..1: scaled by `scale` (bilinear, pixel centres), top-left aligned, the rest grey 114 as YOLO pads. */
  private letterbox(data: Uint8Array, w: number, h: number, size: number, scale: number): Float32Array {
    const plane = size * size;
    let buf = this.buffers.get(plane);
    if (!buf) this.buffers.set(plane, (buf = new Float32Array(3 * plane)));
    buf.fill(YOLO_PAD / 255);
    const sw = Math.min(size, Math.round(w * scale));
    const sh = Math.min(size, Math.round(h * scale));
    for (let y = 0; y < sh; y++) {
      const fy = Math.min(h - 1, Math.max(0, (y + 0.5) / scale - 0.5));
      const y0 = Math.floor(fy);
      const y1 = Math.min(h - 1, y0 + 1);
      const dy = fy - y0;
      for (let x = 0; x < sw; x++) {
        const fx = Math.min(w - 1, Math.max(0, (x + 0.5) / scale - 0.5));
        const x0 = Math.floor(fx);
        const x1 = Math.min(w - 1, x0 + 1);
        const dx = fx - x0;
        const o = y * size + x;
        for (let c = 0; c < 3; c++) {
          const p00 = data[(y0 * w + x0) * 3 + c], p01 = data[(y0 * w + x1) * 3 + c];
          const p10 = data[(y1 * w + x0) * 3 + c], p11 = data[(y1 * w + x1) * 3 + c];
          buf[c * plane + o] = ((p00 * (1 - dx) + p01 * dx) * (1 - dy) + (p10 * (1 - dx) + p11 * dx) * dy) / 255;
        }
      }
    }
    return buf;
  }
}

function clamp01(v: number): number {
  return Math.min(1, Math.max(0, v));
}

/** The square region's pixels (packed RGB), copied row by row. */
function cropRgb(data: Uint8Array, frameWidth: number, r: Region): Uint8Array {
  const out = new Uint8Array(r.size * r.size * 3);
  const row = r.size * 3;
  for (let y = 0; y < r.size; y++) {
    const from = ((r.y + y) * frameWidth + r.x) * 3;
    out.set(data.subarray(from, from + row), y * row);
  }
  return out;
}
