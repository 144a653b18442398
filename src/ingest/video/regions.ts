/**
 * Where to run the detector on a frame, in the manner of Frigate: motion boxes (and
 * the boxes of moving tracked objects) are clustered, each cluster becomes one square region of
 * the frame, sized to the boxes with some context around them but never below the smallest input
 * the model sees well, clamped inside the frame. The detector runs on each region at (about) its
 * own resolution instead of squeezing the whole frame into 512×512, so a region costs in
 * proportion to its area. When the regions together would cost about as much as the whole frame,
 * the whole frame is detected instead.
 *
 * Boxes here are in frame pixels: [x, y, w, h].
 */
import type { NormalizedBox } from './video.types.ts';

export type PixelBox = [x: number, y: number, w: number, h: number];

/** A square (or, at a small frame's edge, clipped) part of the frame and the model input it is run at. */
export interface Region {
  x: number;
  y: number;
  /** side in frame pixels */
  size: number;
  /** model input side in pixels (a multiple of the model's stride, 32); the crop is resized to it */
  input: number;
}

export interface RegionOptions {
  /** smallest region side, frame pixels; a person far away still gets context; default 192 */
  minRegion?: number;
  /**
   * model input side = region side × this (capped at maxInput): small people score better
   * enlarged. Measured on vtest.avi (50 people the whole frame finds at ≥ 0.45): regions of 192 px
   * run at 192 found 41, at 256 found 48 (mean score −0.01 against the whole frame) in 48 ms
   * against 227 ms for the whole frame; default 4/3
   */
  upscale?: number;
  /** region side = box side × this (Frigate uses 1.35); default 1.35 */
  multiplier?: number;
  /** largest model input; regions larger than this are scaled down to it; default 512 */
  maxInput?: number;
  /**
   * whole frame when the regions' summed input area exceeds this share of 512² (Human's whole-frame
   * input); default 0.8, so three regions of 256 (0.75) still run as regions: measured, a 256 input
   * costs 48 ms where the whole frame costs 227 ms (inference cost follows input area). Kept against
   * 512² though whole frames now run at 512×384 (wholeInput): three regions then cost what the
   * whole frame does, but see their people at 4/3 the scale
   */
  wholeFrameShare?: number;
  /** a box joins a cluster while it stays at least this share of the cluster region's area... default 0.1 (Frigate) */
  minBoxShare?: number;
}

export type RegionPlan = { kind: 'whole' } | { kind: 'regions'; regions: Region[] };

const STRIDE = 32;
const WHOLE_INPUT = 512;

/**
 * The model input [width, height] for a whole frame with its aspect kept: the longer side at 512
 * (the model's own size), the shorter scaled alike and rounded to the stride. A 640×480
 * camera frame runs at 512×384 — people at the same horizontal scale as the 512×512 squeeze, not
 * stretched vertically, for 3/4 of its cost (docs/decisions.md).
 */
export function wholeInput(width: number, height: number): [number, number] {
  const scale = WHOLE_INPUT / Math.max(width, height);
  const side = (v: number) => Math.min(WHOLE_INPUT, Math.max(STRIDE, Math.round((v * scale) / STRIDE) * STRIDE));
  return [side(width), side(height)];
}

/** Squared region around a pixel box: its larger side × multiplier, at least minRegion, centred, clamped inside the frame. */
export function squareRegion(box: PixelBox, frameW: number, frameH: number, o: Required<RegionOptions>): Region {
  const [bx, by, bw, bh] = box;
  let size = Math.max(o.minRegion, Math.ceil(Math.max(bw, bh) * o.multiplier));
  size = Math.min(size, frameW, frameH);
  const cx = bx + bw / 2;
  const cy = by + bh / 2;
  const x = clamp(Math.round(cx - size / 2), 0, frameW - size);
  const y = clamp(Math.round(cy - size / 2), 0, frameH - size);
  // the model's input must be a multiple of its stride
  const input = Math.min(o.maxInput, Math.max(STRIDE, Math.round((size * o.upscale) / STRIDE) * STRIDE));
  return { x, y, size, input };
}

/**
 * Clusters boxes greedily (largest first): a box joins a cluster when the region around the
 * cluster with it stays small enough that every box in it is still at least minBoxShare of the
 * region's area — so two people side by side share one region, two at opposite ends of the view
 * do not. Returns the clusters' bounding boxes.
 */
export function clusterBoxes(boxes: PixelBox[], o: Required<RegionOptions>): PixelBox[] {
  const order = [...boxes].sort((a, b) => b[2] * b[3] - a[2] * a[3]);
  const clusters: Array<{ bounds: PixelBox; minArea: number }> = [];
  for (const b of order) {
    const area = b[2] * b[3];
    let joined = false;
    for (const c of clusters) {
      const u = union(c.bounds, b);
      const side = Math.max(o.minRegion, Math.max(u[2], u[3]) * o.multiplier);
      const smallest = Math.min(c.minArea, area);
      // a big region around a small box would shrink it for the model: keep them apart
      if (smallest >= o.minBoxShare * side * side || side <= o.minRegion) {
        c.bounds = u;
        c.minArea = smallest;
        joined = true;
        break;
      }
    }
    if (!joined) clusters.push({ bounds: b, minArea: area });
  }
  return clusters.map((c) => c.bounds);
}

/** Regions for a frame from its motion boxes; the whole frame when regions would cost about as much. */
export function planRegions(boxes: PixelBox[], frameW: number, frameH: number, options: RegionOptions = {}): RegionPlan {
  const o = withDefaults(options);
  const usable = boxes.filter((b) => b[2] > 0 && b[3] > 0);
  if (!usable.length) return { kind: 'whole' };
  let regions = clusterBoxes(usable, o).map((c) => squareRegion(c, frameW, frameH, o));
  regions = dropContained(regions);
  const cost = regions.reduce((s, r) => s + r.input * r.input, 0);
  if (cost > o.wholeFrameShare * WHOLE_INPUT * WHOLE_INPUT) return { kind: 'whole' };
  return { kind: 'regions', regions };
}

/** Pixel box of a normalised box on a frame. */
export function toPixels(box: NormalizedBox, frameW: number, frameH: number): PixelBox {
  return [box[0] * frameW, box[1] * frameH, box[2] * frameW, box[3] * frameH];
}

/** A region's box (in the region's own 0..1 coordinates) in the frame's normalised coordinates. */
export function regionBoxToFrame(box: NormalizedBox, r: Region, frameW: number, frameH: number): NormalizedBox {
  const x = (r.x + box[0] * r.size) / frameW;
  const y = (r.y + box[1] * r.size) / frameH;
  return [x, y, Math.min((box[2] * r.size) / frameW, 1 - x), Math.min((box[3] * r.size) / frameH, 1 - y)];
}

/** true when the box (normalised) touches an edge of the region that is not an edge of the frame: the object may be cut. */
export function cutByRegion(box: NormalizedBox, r: Region, frameW: number, frameH: number): boolean {
  const margin = 2 / r.size;
  const left = r.x > 0 && box[0] <= margin;
  const top = r.y > 0 && box[1] <= margin;
  const right = r.x + r.size < frameW && box[0] + box[2] >= 1 - margin;
  const bottom = r.y + r.size < frameH && box[1] + box[3] >= 1 - margin;
  return left || top || right || bottom;
}

function withDefaults(o: RegionOptions): Required<RegionOptions> {
  return {
    minRegion: o.minRegion ?? 192,
    upscale: o.upscale ?? 4 / 3,
    multiplier: o.multiplier ?? 1.35,
    maxInput: o.maxInput ?? 512,
    wholeFrameShare: o.wholeFrameShare ?? 0.8,
    minBoxShare: o.minBoxShare ?? 0.1,
  };
}

/** Drops regions lying wholly inside another (clamping can push two onto each other). */
function dropContained(regions: Region[]): Region[] {
  return regions.filter(
    (r, i) =>
      !regions.some(
        (q, j) =>
          j !== i && q.size >= r.size && q.x <= r.x && q.y <= r.y && q.x + q.size >= r.x + r.size && q.y + q.size >= r.y + r.size && (q.size > r.size || j < i),
      ),
  );
}

function union(a: PixelBox, b: PixelBox): PixelBox {
  const x = Math.min(a[0], b[0]);
  const y = Math.min(a[1], b[1]);
  return [x, y, Math.max(a[0] + a[2], b[0] + b[2]) - x, Math.max(a[1] + a[3], b[1] + b[3]) - y];
}

function clamp(v: number, lo: number, hi: number): number {
  return Math.max(lo, Math.min(hi, v));
}
