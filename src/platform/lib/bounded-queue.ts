import { VigilError } from './errors.ts';

/**
 * A bounded work queue: at most `concurrency` jobs run at once and at most `maxWaiting` wait; one
 * more is refused at once with 503 service_unavailable and Retry-After (see docs/decisions.md,
 * "Bodies"), so a burst costs a bounded amount of memory instead of queueing without end.
 */
export class BoundedQueue {
  private running = 0;
  private readonly waiting: Array<() => void> = [];
  /** jobs refused because the queue was full, since the process started */
  refused = 0;

  constructor(private readonly opts: { name: string; concurrency: number; maxWaiting: number; retryAfterS?: number }) {}

  async run<T>(job: () => Promise<T>): Promise<T> {
    if (this.running >= this.opts.concurrency) {
      if (this.waiting.length >= this.opts.maxWaiting) {
        this.refused++;
        throw new VigilError(
          'service_unavailable',
          `Too many ${this.opts.name} are in progress (${this.running} running, ${this.waiting.length} waiting); retry shortly.`,
          {
            headers: { 'Retry-After': String(this.opts.retryAfterS ?? 1) },
          },
        );
      }
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running++;
    }
    try {
      return await job();
    } finally {
      // hand the slot straight to the next waiter (the count stays), or free it
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }

  stats() {
    return { running: this.running, waiting: this.waiting.length, refused: this.refused };
  }
}

/**
 * The one queue every JPEG decode of request bodies goes through (enrolment photos and phone
 * frames): decoding is the step whose memory grows with what a client sends (up to the pixel
 * limit), and libvips' own thread pool is process-wide too. Two at a time (the machine's cores) and
 * eight waiting.
 */
export const IMAGE_DECODES = new BoundedQueue({ name: 'image decodes', concurrency: 2, maxWaiting: 8 });
