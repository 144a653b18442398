/**
 * Time source used everywhere instead of Date.now()/setTimeout, so tests can run hours of
 * sandbox activity, 24 h webhook retries or escalation timers in seconds (ManualClock).
 */
export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => {
    const t = setTimeout(fn, ms);
    t.unref?.();
    return t;
  },
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
};

interface Pending {
  at: number;
  seq: number;
  fn: () => void;
}

/** A clock that only moves when told to. advance() fires due timers in time order. */
export class ManualClock implements Clock {
  private t: number;
  private seq = 0;
  private pending = new Map<number, Pending>();

  constructor(start: number | string | Date = Date.parse('2026-11-21T12:00:00.000Z')) {
    this.t = typeof start === 'number' ? start : new Date(start).getTime();
  }

  now(): number {
    return this.t;
  }

  setTimeout(fn: () => void, ms: number): unknown {
    const id = ++this.seq;
    this.pending.set(id, { at: this.t + Math.max(0, ms), seq: id, fn });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.pending.delete(handle as number);
  }

  /** Moves time forward by ms, running every timer that falls due, in order. */
  async advance(ms: number): Promise<void> {
    const target = this.t + ms;
    for (;;) {
      let next: Pending | undefined;
      for (const p of this.pending.values()) {
        if (p.at <= target && (!next || p.at < next.at || (p.at === next.at && p.seq < next.seq))) next = p;
      }
      if (!next) break;
      this.pending.delete(next.seq);
      this.t = Math.max(this.t, next.at);
      next.fn();
      // let promise chains started by the timer settle before the next one fires
      await new Promise((r) => setImmediate(r));
    }
    this.t = target;
  }
}
