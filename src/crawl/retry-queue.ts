/**
 * The crawl loop's URLs that wait: retried after a RetryLaterError (backoff with jitter, up to
 * `maxRetries`, never beyond `maxRetryDelayMs`) and deferred after a DeferUrlError (the URL was
 * never requested, e.g. its origin's robots.txt is unreachable). A waiting URL counts as known
 * (CrawlState.wait) until it is taken again.
 */
import type { Clock, DeferUrlError, Rng } from '../common/index.js';
import { BinaryHeap } from '../frontier/index.js';
import { retryDelayMs } from '../net/index.js';
import type { Action } from '../types/index.js';
import type { CrawlState } from './crawl-state.js';

interface PendingRetry {
  action: Action;
  attempt: number;
  notBeforeMs: number;
  /**
   * Deferred, not retried: the URL was never requested (DeferUrlError, e.g. its origin's
   * robots.txt is unreachable), so it holds no page budget and counts no attempt.
   */
  isDeferred: boolean;
  /** Order in which it was put aside: among those due, the first put aside is taken first. */
  seq: number;
}

/** Earlier due time first; of two due at once, the one put aside first. */
const dueFirst = (a: PendingRetry, b: PendingRetry): boolean =>
  a.notBeforeMs < b.notBeforeMs || (a.notBeforeMs === b.notBeforeMs && a.seq < b.seq);

/** What {@link RetryQueue} needs of the crawl. */
export interface RetryQueueOptions {
  clock: Clock;
  state: CrawlState;
  /** Retries of one URL at the most. */
  maxRetries: number;
  /** A retry due later than this (ms) is not kept: the URL fails now. */
  maxRetryDelayMs: number;
  /** The crawl's random stream; each URL's backoff jitter forks `retry/<url>` off it. */
  rng: Rng;
}

/**
 * URLs waiting for a retry or for their origin. {@link RetryQueue.take} gives the first put aside
 * of those due (on a free host), in time independent of how many wait: the ones not due yet sit
 * in a heap by due time, those due in a list in the order they were put aside. A crawl can hold
 * tens of thousands of deferred URLs (links to hosts whose robots.txt is unreachable wait up to
 * an hour), and the loop asks for a retry before every fetch it starts.
 */
export class RetryQueue {
  /** Not due yet, by due time. */
  private readonly waiting = new BinaryHeap<PendingRetry>(dueFirst);
  /** Due (their time has come), in the order they were put aside (ascending `seq`). */
  private readonly due: PendingRetry[] = [];
  private nextSeq = 0;
  private deferred = 0;
  /** URLs waiting by host, retried and deferred apart: the progress figures read them each second. */
  private readonly retryHosts = new Map<string, number>();
  private readonly deferredHosts = new Map<string, number>();

  constructor(private readonly o: RetryQueueOptions) {}

  /**
   * Keeps `action` for attempt `attempt + 1` when `error` is worth retrying and the wait is
   * within `maxRetryDelayMs`.
   * @returns the wait in ms, or false when the URL is not retried.
   */
  retryLater(action: Action, attempt: number, error: unknown): number | false {
    const delay = retryDelayMs(error, attempt + 1, {
      maxRetries: this.o.maxRetries,
      rng: this.o.rng.fork(`retry/${action.url}`),
    });
    if (delay === false || delay > this.o.maxRetryDelayMs) return false;
    const notBeforeMs = this.o.clock.monotonicMs() + delay;
    this.put({ action, attempt: attempt + 1, notBeforeMs, isDeferred: false, seq: 0 });
    return delay;
  }

  /**
   * Keeps `action` aside until `error.retryAfterMs` has passed, counting no attempt.
   * @returns the wait in ms.
   */
  defer(action: Action, attempt: number, error: DeferUrlError): number {
    const delayMs = Math.max(1, error.retryAfterMs ?? 1000);
    this.put({
      action,
      attempt,
      notBeforeMs: this.o.clock.monotonicMs() + delayMs,
      isDeferred: true,
      seq: 0,
    });
    return delayMs;
  }

  /** The first URL that is due on a host `isHostFree` accepts. It no longer waits. */
  take(isHostFree: (host: string) => boolean): { action: Action; attempt: number } | undefined {
    const now = this.o.clock.monotonicMs();
    for (
      let next = this.waiting.peek();
      next !== undefined && next.notBeforeMs <= now;
      next = this.waiting.peek()
    ) {
      this.waiting.pop();
      this.insertDue(next);
    }
    const due = this.due;
    for (let i = 0; i < due.length; i++) {
      const r = due[i] as PendingRetry;
      if (isHostFree(r.action.host)) {
        due.splice(i, 1);
        if (r.isDeferred) this.deferred--;
        bump(r.isDeferred ? this.deferredHosts : this.retryHosts, r.action.host, -1);
        this.o.state.unwait(r.action.url);
        return r;
      }
    }
    return undefined;
  }

  /** Retries waiting. */
  get retryCount(): number {
    return this.size - this.deferred;
  }

  /** Deferred URLs waiting. */
  get deferredCount(): number {
    return this.deferred;
  }

  /** URLs waiting, retried or deferred. */
  get size(): number {
    return this.waiting.size + this.due.length;
  }

  /** Number of hosts with a retry waiting. */
  get retryHostCount(): number {
    return this.retryHosts.size;
  }

  /** Number of hosts with a deferred URL waiting. */
  get deferredHostCount(): number {
    return this.deferredHosts.size;
  }

  /** True when a deferred URL of `host` is waiting. */
  hasDeferred(host: string): boolean {
    return this.deferredHosts.has(host);
  }

  private put(r: PendingRetry): void {
    r.seq = this.nextSeq++;
    if (r.isDeferred) this.deferred++;
    bump(r.isDeferred ? this.deferredHosts : this.retryHosts, r.action.host, 1);
    this.waiting.push(r);
    this.o.state.wait(r.action.url);
  }

  /** Into the due list at its place by `seq` (usually the end: most come due in the order put aside). */
  private insertDue(r: PendingRetry): void {
    const due = this.due;
    let lo = due.length;
    if (lo > 0 && (due[lo - 1] as PendingRetry).seq > r.seq) {
      lo = 0;
      let hi = due.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if ((due[mid] as PendingRetry).seq < r.seq) lo = mid + 1;
        else hi = mid;
      }
    }
    due.splice(lo, 0, r);
  }
}

function bump(counts: Map<string, number>, host: string, delta: number): void {
  const n = (counts.get(host) ?? 0) + delta;
  if (n === 0) counts.delete(host);
  else counts.set(host, n);
}
