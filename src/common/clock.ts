/**
 * The one place that reads time. Everything else receives a {@link Clock} through its options,
 * so tests and benchmarks can control time and runs can be replayed.
 */
import { setTimeout as sleepTimer } from 'node:timers/promises';

export interface Clock {
  /** Wall-clock time in milliseconds since the epoch (for records). */
  now(): number;
  /** Monotonic time in milliseconds (for delays, rates and timeouts). */
  monotonicMs(): number;
  /** Resolves after `ms` milliseconds; rejects with the signal's reason if aborted. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** The real clock. */
export const systemClock: Clock = {
  now: () => Date.now(),
  monotonicMs: () => performance.now(),
  sleep: async (ms, signal) => {
    signal?.throwIfAborted();
    if (ms <= 0) return;
    try {
      await sleepTimer(ms, undefined, signal ? { signal } : undefined);
    } catch (error) {
      // Node rejects with its own AbortError; callers expect the signal's reason.
      if (signal?.aborted) throw signal.reason;
      throw error;
    }
  },
};
