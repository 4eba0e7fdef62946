/**
 * The crawl's budgets: pages (`maxPages`; a URL waiting for its retry holds none), time
 * (`timeLimitMs`) and pages per domain (`maxPagesPerDomain`, which may grow with the crawl).
 */
import type { Clock } from '../common/index.js';
import type { ResolvedCrawlerOptions } from './crawl-options.js';
import type { CrawlState } from './crawl-state.js';
import { domainLimitAt } from './domain-limit.js';
import type { StopReason } from './events.js';

/** One run's budgets, counted from the moment it is made. */
export class CrawlBudgets {
  /** Monotonic ms the run started at. */
  readonly startedMs: number;

  constructor(
    private readonly options: Pick<ResolvedCrawlerOptions, 'maxPages' | 'timeLimitMs' | 'maxPagesPerDomain'>,
    private readonly clock: Clock,
    private readonly state: CrawlState,
  ) {
    this.startedMs = clock.monotonicMs();
  }

  /**
   * True if one more fetch may start with `inFlight` fetches. URLs waiting for a retry hold no
   * share: a crawl near its budget fetches what it can now rather than idle until their backoff
   * ends, and those still waiting at the end stay in the frontier for a resume.
   */
  hasBudgetFor(inFlight: number): boolean {
    const max = this.options.maxPages;
    return max === false || this.state.counters.steps + inFlight < max;
  }

  /** Why the crawl must stop now (time first, then pages), or undefined. */
  spent(): StopReason | undefined {
    const o = this.options;
    if (o.timeLimitMs !== false && this.clock.monotonicMs() - this.startedMs >= o.timeLimitMs)
      return 'time-limit';
    if (o.maxPages !== false && this.state.counters.steps >= o.maxPages) return 'max-pages';
    return undefined;
  }

  /** Pages a domain may have at this step (`maxPagesPerDomain`). */
  domainLimit(): number {
    const o = this.options;
    return domainLimitAt(
      o.maxPagesPerDomain,
      this.state.counters.steps,
      o.maxPages === false ? Number.POSITIVE_INFINITY : o.maxPages,
    );
  }
}
