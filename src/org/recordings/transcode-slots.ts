/** how long a slot handed to the first stream in line is kept for it before it goes to the next (the stream stopped meanwhile) */
const RESERVE_MS = 30_000;

/**
 * A node's limit on transcoded recordings (VIGIL_RECORDINGS_MAX_TRANSCODES; docs/decisions.md,
 * "Recordings: a node's limit on transcoded cameras"). A stream holds a slot while its ffmpeg
 * transcodes; one that finds none waits in line and is decoded and detected without recording.
 * When a slot comes free, the first in line gets it, kept for it, and is woken: its source
 * restarts its ffmpeg, and the recorder's next open takes the kept slot. Copy recordings never
 * come here.
 */
export class TranscodeSlots {
  private readonly holders = new Set<string>();
  private readonly reserved = new Map<string, NodeJS.Timeout>();
  /** in line, first come first: the function that wakes each */
  private readonly waiting = new Map<string, () => void>();

  constructor(
    readonly max: number,
    private readonly reserveMs = RESERVE_MS,
  ) {}

  /** A slot for the stream (the one kept for it, or a free one); false: it is in line until `wake` is called. */
  take(key: string, wake: () => void): boolean {
    const kept = this.reserved.get(key);
    if (kept !== undefined) {
      clearTimeout(kept);
      this.reserved.delete(key);
      this.holders.add(key);
      return true;
    }
    if (this.holders.has(key)) return true;
    if (this.used() < this.max) {
      this.waiting.delete(key);
      this.holders.add(key);
      return true;
    }
    // one already in line keeps its place, with the wake of its current run
    this.waiting.set(key, wake);
    return false;
  }

  /** The stream no longer transcodes (its ffmpeg ended): its slot goes to the first in line. */
  release(key: string): void {
    if (this.holders.delete(key)) this.handOn();
  }

  /** The stream's unrecorded run ended: it leaves the line (its next run queues again). */
  leave(key: string): void {
    this.waiting.delete(key);
  }

  /** Streams transcoding (or woken to), and waiting in line. */
  counts(): { transcoding: number; waiting: number } {
    return { transcoding: this.used(), waiting: this.waiting.size };
  }

  private used(): number {
    return this.holders.size + this.reserved.size;
  }

  private handOn(): void {
    while (this.used() < this.max) {
      const first = this.waiting.entries().next();
      if (first.done) return;
      const [key, wake] = first.value;
      this.waiting.delete(key);
      const timer = setTimeout(() => {
        if (this.reserved.delete(key)) this.handOn();
      }, this.reserveMs);
      timer.unref();
      this.reserved.set(key, timer);
      wake();
    }
  }
}
