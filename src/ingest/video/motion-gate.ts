import { isPointInPolygon } from './geometry.ts';
import type { NormalizedBox, Polygon, RgbFrame } from './video.types.ts';

export interface MotionGateOptions {
  /** width of the grey grid the frame is averaged down to */
  gridWidth?: number;
  /** grey-level difference (0..255) for a cell to count as changed */
  threshold?: number;
  /** how many changed cells make motion */
  minChangedCells?: number;
  /** weight of the new frame in the running background average */
  alpha?: number;
  /** areas (normalised polygons) whose changes are ignored: trees, roads, clocks, TV screens */
  masks?: Polygon[];
}

export interface MotionResult {
  motion: boolean;
  /** share of unmasked cells that changed, 0..1 */
  changed: number;
  /**
   * Where it moved: boxes (normalised) around groups of touching cells that changed against the
   * background and since the previous frame (so a walker's trail in the lagging background is left
   * out), a group of a single cell being noise. The whole view on the first frame and after a
   * scene-wide change.
   */
  boxes: NormalizedBox[];
}

/**
 * Cheap motion detection in the manner of Frigate: average the frame down to a small grey grid,
 * compare it with a running background average and count cells that changed. It costs well under
 * a millisecond per frame, so the detector (~100 ms) only runs when something moves.
 */
export class MotionGate {
  private readonly gridWidth: number;
  private readonly threshold: number;
  private readonly minChangedCells: number;
  private readonly alpha: number;
  private masks: Polygon[];
  private grid: { width: number; height: number; frameW: number; frameH: number; masked: Uint8Array; open: number } | null = null;
  private background: Float32Array | null = null;
  // per-frame scratch, reused while the frame size stays (no allocation per frame)
  private grey: Float32Array | null = null;
  private counts: Uint32Array | null = null;
  private changedMask: Uint8Array | null = null;
  private labels: Int32Array | null = null;
  /** the previous frame's grid: where things moved is located frame to frame (the background lags and leaves trails) */
  private previous: Float32Array | null = null;

  constructor(o: MotionGateOptions = {}) {
    this.gridWidth = o.gridWidth ?? 80;
    this.threshold = o.threshold ?? 15;
    this.minChangedCells = o.minChangedCells ?? 3;
    this.alpha = o.alpha ?? 0.2;
    this.masks = o.masks ?? [];
  }

  setMasks(masks: Polygon[]): void {
    this.masks = masks;
    this.grid = null;
    this.background = null;
    this.previous = null;
  }

  /** Compares the frame with the background; the first frame (and a new size) counts as motion. */
  check(frame: RgbFrame): MotionResult {
    const grid = this.ensureGrid(frame);
    const cells = grid.width * grid.height;
    if (!this.grey || this.grey.length !== cells) {
      this.grey = new Float32Array(cells);
      this.counts = new Uint32Array(cells);
      this.changedMask = new Uint8Array(cells);
      this.labels = new Int32Array(cells);
    }
    const grey = averageGrey(frame, grid.width, grid.height, this.grey, this.counts!);
    const bg = this.background;
    const prev = this.previous;
    if (!bg || bg.length !== grey.length || !prev || prev.length !== grey.length) {
      this.background = grey.slice();
      this.previous = grey.slice();
      return { motion: true, changed: 1, boxes: [[0, 0, 1, 1]] };
    }
    const mask = this.changedMask!;
    let changedCells = 0;
    for (let i = 0; i < grey.length; i++) {
      const hit = !grid.masked[i] && Math.abs(grey[i] - bg[i]) > this.threshold;
      if (hit) changedCells++;
      // boxes: cells that changed against the background and since the previous frame
      mask[i] = hit && Math.abs(grey[i] - prev[i]) > this.threshold / 2 ? 1 : 0;
      bg[i] += (grey[i] - bg[i]) * this.alpha;
    }
    prev.set(grey);
    const changed = grid.open ? changedCells / grid.open : 0;
    // a scene-wide change (lights, IR switch, camera knocked) re-seeds the background
    if (changed > 0.6) {
      bg.set(grey);
      return { motion: changedCells >= this.minChangedCells, changed, boxes: [[0, 0, 1, 1]] };
    }
    const motion = changedCells >= this.minChangedCells;
    return { motion, changed, boxes: motion ? this.motionBoxes(grid.width, grid.height) : [] };
  }

  /** Groups changed cells (8-neighbours) into boxes, dropping lone cells. */
  private motionBoxes(gw: number, gh: number): NormalizedBox[] {
    const mask = this.changedMask!;
    const labels = this.labels!;
    labels.fill(-1);
    const boxes: NormalizedBox[] = [];
    const stack: number[] = [];
    for (let start = 0; start < mask.length; start++) {
      if (!mask[start] || labels[start] !== -1) continue;
      let minX = gw,
        minY = gh,
        maxX = -1,
        maxY = -1,
        n = 0;
      labels[start] = boxes.length;
      stack.push(start);
      while (stack.length) {
        const c = stack.pop()!;
        const cx = c % gw;
        const cy = (c - cx) / gw;
        n++;
        if (cx < minX) minX = cx;
        if (cx > maxX) maxX = cx;
        if (cy < minY) minY = cy;
        if (cy > maxY) maxY = cy;
        for (let dy = -1; dy <= 1; dy++) {
          const y = cy + dy;
          if (y < 0 || y >= gh) continue;
          for (let dx = -1; dx <= 1; dx++) {
            const x = cx + dx;
            if (x < 0 || x >= gw) continue;
            const k = y * gw + x;
            if (mask[k] && labels[k] === -1) {
              labels[k] = boxes.length;
              stack.push(k);
            }
          }
        }
      }
      if (n < 2) continue;
      boxes.push([minX / gw, minY / gh, (maxX + 1 - minX) / gw, (maxY + 1 - minY) / gh]);
    }
    return boxes;
  }

  private ensureGrid(frame: RgbFrame) {
    const g = this.grid;
    if (g && g.frameW === frame.width && g.frameH === frame.height) return g;
    const width = Math.min(this.gridWidth, frame.width);
    const height = Math.max(1, Math.round((width * frame.height) / frame.width));
    const masked = new Uint8Array(width * height);
    let open = 0;
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const centre: [number, number] = [(x + 0.5) / width, (y + 0.5) / height];
        const hidden = this.masks.some((m) => isPointInPolygon(centre, m));
        masked[y * width + x] = hidden ? 1 : 0;
        if (!hidden) open++;
      }
    }
    this.grid = { width, height, frameW: frame.width, frameH: frame.height, masked, open };
    this.background = null;
    return this.grid;
  }
}

/** Mean luma (BT.601 weights) of each grid cell, sampling every other pixel and row, into `sums`. */
function averageGrey(frame: RgbFrame, gw: number, gh: number, sums: Float32Array, counts: Uint32Array): Float32Array {
  const { width, height, data } = frame;
  sums.fill(0);
  counts.fill(0);
  for (let y = 0; y < height; y += 2) {
    const cy = Math.min(gh - 1, Math.floor((y * gh) / height));
    const row = y * width * 3;
    for (let x = 0; x < width; x += 2) {
      const cx = Math.min(gw - 1, Math.floor((x * gw) / width));
      const p = row + x * 3;
      const cell = cy * gw + cx;
      sums[cell] += 0.299 * data[p] + 0.587 * data[p + 1] + 0.114 * data[p + 2];
      counts[cell]++;
    }
  }
  for (let i = 0; i < sums.length; i++) sums[i] = counts[i] ? sums[i] / counts[i] : 0;
  return sums;
}
