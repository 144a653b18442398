import type { RgbFrame } from './video.types.ts';

/**
 * Splits ffmpeg's `-f image2pipe -c:v ppm` output into frames. PPM (P6) carries its own width
 * and height in a short text header, so the decoder needs no separate probe of the source and
 * survives a camera changing resolution mid-stream.
 */
export class PpmFrameParser {
  private chunks: Buffer[] = [];
  private buffered = 0;
  private frame: { width: number; height: number; headerLength: number } | null = null;

  constructor(private readonly onFrame: (frame: RgbFrame) => void) {}

  /** Feeds bytes from ffmpeg's stdout; calls onFrame for each complete frame. */
  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    for (;;) {
      if (!this.frame) {
        this.frame = this.readHeader();
        if (!this.frame) return;
      }
      const total = this.frame.headerLength + this.frame.width * this.frame.height * 3;
      if (this.buffered < total) return;
      const all = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks, this.buffered);
      // copy so the frame does not pin ffmpeg's larger read buffer
      const data = new Uint8Array(all.subarray(this.frame.headerLength, total));
      const { width, height } = this.frame;
      const rest = all.subarray(total);
      this.chunks = rest.length ? [rest] : [];
      this.buffered = rest.length;
      this.frame = null;
      this.onFrame({ width, height, data });
    }
  }

  private readHeader(): { width: number; height: number; headerLength: number } | null {
    if (this.buffered < 16) return null;
    if (this.chunks.length > 1) this.chunks = [Buffer.concat(this.chunks, this.buffered)];
    const head = this.chunks[0].subarray(0, 64).toString('latin1');
    // P6 <ws> width <ws> height <ws> maxval <single ws>; ffmpeg writes no comments
    const m = /^P6\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(head);
    if (!m) {
      if (this.buffered >= 64 || !head.startsWith('P6')) throw new Error('ffmpeg output is not a PPM stream');
      return null;
    }
    if (m[3] !== '255') throw new Error(`unsupported PPM maxval ${m[3]}`);
    return { width: Number(m[1]), height: Number(m[2]), headerLength: m[0].length };
  }
}
