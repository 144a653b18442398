import type { Clock } from '../../platform/time/index.ts';

/** Events per second over a sliding window (fps_in, detector_fps). */
export class RateMeter {
  private stamps: number[] = [];

  constructor(
    private readonly clock: Clock,
    private readonly windowMs = 5000,
  ) {}

  mark(): void {
    const now = this.clock.now();
    this.stamps.push(now);
    this.drop(now);
  }

  rate(): number {
    const now = this.clock.now();
    this.drop(now);
    if (this.stamps.length < 2) return 0;
    // span from the first kept event to now, so a stream that stopped decays to 0
    const span = Math.max(now - this.stamps[0], 1);
    return Math.round(((this.stamps.length - 1) * 1000 * 100) / span) / 100;
  }

  private drop(now: number): void {
    let i = 0;
    while (i < this.stamps.length && now - this.stamps[i] > this.windowMs) i++;
    if (i) this.stamps.splice(0, i);
  }
}
