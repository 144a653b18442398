import { isPointInPolygon } from './geometry.ts';
import type { Polygon, RgbFrame } from './video.types.ts';

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
  }

  /** Compares the frame with the background; the first frame (and a new size) counts as motion. */
  check(frame: RgbFrame): MotionResult {
    const grid = this.ensureGrid(frame);
    const grey = averageGrey(frame, grid.width, grid.height);
    const bg = this.background;
    if (!bg || bg.length !== grey.length) {
      this.background = grey;
      return { motion: true, changed: 1 };
    }
    let changedCells = 0;
    for (let i = 0; i < grey.length; i++) {
      if (!grid.masked[i] && Math.abs(grey[i] - bg[i]) > this.threshold) changedCells++;
      bg[i] += (grey[i] - bg[i]) * this.alpha;
    }
    const changed = grid.open ? changedCells / grid.open : 0;
    // a scene-wide change (lights, IR switch, camera knocked) re-seeds the background
    if (changed > 0.6) this.background = grey;
    return { motion: changedCells >= this.minChangedCells, changed };
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

/** Mean luma (BT.601 weights) of each grid cell, sampling every other pixel and row. */
function averageGrey(frame: RgbFrame, gw: number, gh: number): Float32Array {
  const { width, height, data } = frame;
  const sums = new Float32Array(gw * gh);
  const counts = new Uint32Array(gw * gh);
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
