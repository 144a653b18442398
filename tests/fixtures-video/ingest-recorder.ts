import type { IngestStats, StreamStatus, VideoDetection } from '../../src/ingest/video/index.ts';

/** Collects what an ingest reports and lets a test wait for a condition on it. */
export class IngestRecorder {
  readonly detections: VideoDetection[] = [];
  readonly statuses: Array<{ status: StreamStatus; stats: IngestStats }> = [];
  private waiters: Array<() => void> = [];

  readonly onDetections = (batch: VideoDetection[]) => {
    this.detections.push(...batch);
    this.wake();
  };

  readonly onStatus = (status: StreamStatus, stats: IngestStats) => {
    this.statuses.push({ status, stats });
    this.wake();
  };

  statusNames(): StreamStatus[] {
    return this.statuses.map((s) => s.status);
  }

  /** Resolves when predicate holds; rejects after timeoutMs with what was seen so far. */
  waitFor(what: string, predicate: () => boolean, timeoutMs: number): Promise<void> {
    if (predicate()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== check);
        reject(new Error(`timed out waiting for ${what}; statuses: ${this.statusNames().join(' → ')}; detections: ${this.detections.length}`));
      }, timeoutMs);
      const check = () => {
        if (!predicate()) return;
        clearTimeout(timer);
        this.waiters = this.waiters.filter((w) => w !== check);
        resolve();
      };
      this.waiters.push(check);
    });
  }

  private wake(): void {
    for (const w of [...this.waiters]) w();
  }
}
