/**
 * The crawl loop's URLs that wait: retried after a RetryLaterError (backoff with jitter, up to
 * `maxRetries`, never beyond `maxRetryDelayMs`) and deferred after a DeferUrlError (the URL was
 * never requested, e.g. its origin's robots.txt is unreachable). A waiting URL counts as known
 * (CrawlState.wait) until it is taken again.
 */
import type { Clock, DeferUrlError, Rng } from '../common/index.js';
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
}

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

/** URLs waiting for a retry or for their origin, in the order they were put aside. */
export class RetryQueue {
  private readonly pending: PendingRetry[] = [];

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
    this.pending.push({ action, attempt: attempt + 1, notBeforeMs, isDeferred: false });
    this.o.state.wait(action.url);
    return delay;
  }

  /**
   * Keeps `action` aside until `error.retryAfterMs` has passed, counting no attempt.
   * @returns the wait in ms.
   */
  defer(action: Action, attempt: number, error: DeferUrlError): number {
    const delayMs = Math.max(1, error.retryAfterMs ?? 1000);
    this.pending.push({
      action,
      attempt,
      notBeforeMs: this.o.clock.monotonicMs() + delayMs,
      isDeferred: true,
    });
    this.o.state.wait(action.url);
    return delayMs;
  }

  /**
   * The first URL that is due on a host `isHostFree` accepts; deferred URLs only when
   * `hasBudget` (they hold none). It no longer waits.
   */
  take(
    hasBudget: boolean,
    isHostFree: (host: string) => boolean,
  ): { action: Action; attempt: number } | undefined {
    const now = this.o.clock.monotonicMs();
    const i = this.pending.findIndex(
      (r) => r.notBeforeMs <= now && (hasBudget || !r.isDeferred) && isHostFree(r.action.host),
    );
    if (i < 0) return undefined;
    const [retry] = this.pending.splice(i, 1);
    if (retry) this.o.state.unwait(retry.action.url);
    return retry;
  }

  /** Retries waiting (they hold their share of the page budget). */
  get retryCount(): number {
    return this.pending.reduce((n, r) => n + (r.isDeferred ? 0 : 1), 0);
  }

  /** Deferred URLs waiting (they hold no budget). */
  get deferredCount(): number {
    return this.pending.reduce((n, r) => n + (r.isDeferred ? 1 : 0), 0);
  }

  /** URLs waiting, retried or deferred. */
  get size(): number {
    return this.pending.length;
  }

  /** Hosts of the retries waiting, and of the deferred URLs. */
  hosts(): { retry: Set<string>; deferred: Set<string> } {
    const retry = new Set<string>();
    const deferred = new Set<string>();
    for (const r of this.pending) (r.isDeferred ? deferred : retry).add(r.action.host);
    return { retry, deferred };
  }
}
