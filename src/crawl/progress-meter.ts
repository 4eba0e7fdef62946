/**
 * The crawl's figures as it runs (the `progress` events, the summary, `Crawler.progress()`):
 * counters, harvest rate, fetches in flight, URLs and hosts waiting, frontier size and speed.
 */
import type { Clock } from '../common/index.js';
import type { Strategy } from '../strategies/index.js';
import type { CrawlState } from './crawl-state.js';
import type { CrawlProgress } from './events.js';
import type { FrontierSpill } from './frontier-spill.js';
import type { RetryQueue } from './retry-queue.js';

/** What {@link ProgressMeter} needs of the crawl. */
export interface ProgressMeterOptions {
  clock: Clock;
  state: CrawlState;
  retries: RetryQueue;
  strategy: Strategy;
  /** Links held back from the strategy, counted in the frontier. */
  spill: FrontierSpill;
  /** Monotonic ms the run started at. */
  startedMs: number;
  /** Attempts recorded before this run (a resume): speed counts this run's attempts only. */
  stepsBeforeRun: number;
  /** Minimum ms between two `progress` events (a forced one excepted). */
  intervalMs: number;
  /** Origins whose robots.txt this process is fetching now (none under a fetch runner). */
  pendingRobotsOrigins: () => Iterable<string>;
  onProgress: (progress: CrawlProgress) => void;
}

/** One run's figures. */
export class ProgressMeter {
  private lastProgressMs = 0;

  constructor(private readonly o: ProgressMeterOptions) {}

  /** Emits the figures when `intervalMs` has passed since the last emission, or when `force`. */
  maybeEmit(force: boolean): void {
    const now = this.o.clock.monotonicMs();
    if (!force && now - this.lastProgressMs < this.o.intervalMs) return;
    this.lastProgressMs = now;
    this.o.onProgress(this.progress());
  }

  /** Current numbers of the crawl. */
  progress(): CrawlProgress {
    const { state, retries, stepsBeforeRun } = this.o;
    const c = state.counters;
    const elapsedMs = this.o.clock.monotonicMs() - this.o.startedMs;
    const spill = this.o.spill;
    const strategyStats = this.o.strategy.stats();
    // The spill's figures once it has held something: a crawl under its bound reports the strategy's alone.
    const stats =
      spill.stats()['frontier/held_pages_total'] === 0
        ? strategyStats
        : { ...strategyStats, ...spill.stats() };
    return {
      ...c,
      harvestRate: c.steps === 0 ? 0 : c.relevant / c.steps,
      inFlight: state.inFlightCount,
      deferred: retries.deferredCount,
      ...this.waitingHosts(),
      // URLs waiting for a retry or for their robots.txt are out of the strategy's frontier, and
      // back in it on a resume: counted here, the figure a crawl ends with is the one it resumes with.
      // So are links held back from the strategy (as found: some may be fetched or queued since).
      frontierSize: stats['frontier/size'] + retries.size + spill.heldLinks,
      elapsedMs,
      stepsThisRun: c.steps - stepsBeforeRun,
      pagesPerSec: elapsedMs > 0 ? ((c.steps - stepsBeforeRun) * 1000) / elapsedMs : 0,
      strategyStats: stats,
    };
  }

  /** Hosts waiting for a retry, and for their robots.txt (deferred, or its fetch under way). */
  private waitingHosts(): { retryHosts: number; robotsHosts: number } {
    const { retries } = this.o;
    const fetching = new Set<string>();
    for (const origin of this.o.pendingRobotsOrigins()) {
      const host = new URL(origin).host;
      if (!retries.hasDeferred(host)) fetching.add(host);
    }
    return { retryHosts: retries.retryHostCount, robotsHosts: retries.deferredHostCount + fetching.size };
  }
}
