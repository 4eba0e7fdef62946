/** A manual clock for tests (excluded from the build): time moves only with `advance`. */
import type { Clock } from '../common/index.js';

/** Fake {@link Clock}: sleeps resolve when `advance` passes their deadline. */
export class FakeClock implements Clock {
  private t = 0;
  private timers: { at: number; resolve: () => void }[] = [];

  now(): number {
    return 1_700_000_000_000 + this.t;
  }

  monotonicMs(): number {
    return this.t;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (ms <= 0) return Promise.resolve();
    return new Promise((resolve, reject) => {
      signal?.throwIfAborted();
      const timer = { at: this.t + ms, resolve };
      this.timers.push(timer);
      signal?.addEventListener('abort', () => {
        this.timers = this.timers.filter((x) => x !== timer);
        reject(signal.reason);
      });
    });
  }

  /** Moves time forward by `ms`, resolving due sleeps, and lets their continuations run. */
  async advance(ms: number): Promise<void> {
    this.t += ms;
    const due = this.timers.filter((x) => x.at <= this.t);
    this.timers = this.timers.filter((x) => x.at > this.t);
    for (const timer of due) timer.resolve();
    for (let i = 0; i < 10; i++) await Promise.resolve();
  }
}
