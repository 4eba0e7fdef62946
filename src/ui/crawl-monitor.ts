/**
 * What the dashboard shows of a crawl, sampled off the hot path: the crawl's own 'progress'
 * events (one a second by default) become chart samples in a bounded series, and each 'page'
 * event costs one map update and one ring-buffer write. Everything heavier (sorting domains,
 * building JSON) happens when the dashboard asks.
 */
import type { CrawlProgress, PageEvent } from '../crawl/index.js';
import { DecimatingSeries, RingBuffer } from './series.js';

/** Options of {@link CrawlMonitor}. */
export interface CrawlMonitorOptions {
  /** Chart samples kept (older ones are thinned out, never dropped from the span). @default 1000 */
  maxSamples?: number;
  /** Recent pages kept for the live table. @default 100 */
  recentPages?: number;
  /** Failure reasons charted by name; the rest are summed as `other`. @default 6 */
  maxFailureReasons?: number;
}

/** Defaults of {@link CrawlMonitorOptions}. */
export const DEFAULT_MONITOR_OPTIONS: Required<CrawlMonitorOptions> = {
  maxSamples: 1000,
  recentPages: 100,
  maxFailureReasons: 6,
};

/** One point of the charts. */
export interface MonitorSample {
  /** Fetch attempts so far (the x axis). */
  step: number;
  elapsedMs: number;
  /** `crawl/harvest_rate` by the judge. */
  harvestRate: number;
  /** `crawl/relevant_domains`. */
  relevantDomains: number;
  /** Attempts per second since the previous sample (`crawl/pages_per_sec`, instantaneous). */
  pagesPerSec: number;
  /** `frontier/size`. */
  frontierSize: number;
  /** `frontier/leaves` (Tree-Frontier), or null for strategies without it. */
  leaves: number | null;
  /** Failed attempts so far by reason (error code or HTTP status). */
  failures: Record<string, number>;
}

/** A page in the recent-pages table. */
export interface RecentPage {
  step: number;
  url: string;
  title: string;
  domain: string;
  status: number;
  isPage: boolean;
  probability: number;
  reward: number;
  errorCode?: string;
}

/** Pages and relevant pages of one domain. */
export interface DomainCount {
  domain: string;
  pages: number;
  relevant: number;
}

/** Listens to a crawl's events and keeps what the dashboard charts. */
export class CrawlMonitor {
  private readonly o: Required<CrawlMonitorOptions>;
  private readonly series: DecimatingSeries<MonitorSample>;
  private readonly recent: RingBuffer<RecentPage>;
  private readonly domains = new Map<string, { pages: number; relevant: number }>();
  private readonly failures = new Map<string, number>();
  private latest: CrawlProgress | undefined;
  /** The attached source's figures as they are now, when it can give them. */
  private current: (() => CrawlProgress) | undefined;
  private previous: { step: number; elapsedMs: number } | undefined;

  constructor(options: CrawlMonitorOptions = {}) {
    this.o = { ...DEFAULT_MONITOR_OPTIONS, ...options };
    this.series = new DecimatingSeries(this.o.maxSamples);
    this.recent = new RingBuffer(this.o.recentPages);
  }

  /**
   * Attaches to an event source with 'progress' and 'page' events (a Crawler). With a
   * `progress()` method, {@link CrawlMonitor.progress} reads the source's figures as they are
   * now, not the last event's (up to a second old): the counts the dashboard and /metrics show
   * then agree with the failures by reason, which each page event updates at once.
   */
  attach(source: {
    on(event: 'progress', fn: (p: CrawlProgress) => void): unknown;
    on(event: 'page', fn: (p: PageEvent) => void): unknown;
    progress?: () => CrawlProgress;
  }): this {
    source.on('progress', (p) => this.onProgress(p));
    source.on('page', (p) => this.onPage(p));
    if (source.progress) this.current = source.progress.bind(source);
    return this;
  }

  /**
   * Sets the failures by reason recorded before this monitor attached (earlier runs of a resumed
   * crawl, pages recorded while the dashboard started), so they add up to the crawl's failures.
   */
  loadFailures(counts: readonly { reason: string; count: number }[]): void {
    this.failures.clear();
    for (const { reason, count } of counts) this.failures.set(reason, count);
  }

  /** Records one page event: O(1). */
  onPage(p: PageEvent): void {
    const d = this.domains.get(p.domain);
    if (d) {
      d.pages++;
      d.relevant += p.reward > 0 ? 1 : 0;
    } else this.domains.set(p.domain, { pages: 1, relevant: p.reward > 0 ? 1 : 0 });
    if (!p.isPage) {
      const reason = p.errorCode ?? (p.status > 0 ? `HTTP_${p.status}` : 'NOT_A_PAGE');
      this.failures.set(reason, (this.failures.get(reason) ?? 0) + 1);
    }
    const page: RecentPage = {
      step: p.step,
      url: p.url,
      title: p.title ?? '',
      domain: p.domain,
      status: p.status,
      isPage: p.isPage,
      probability: p.probability,
      reward: p.reward,
    };
    if (p.errorCode !== undefined) page.errorCode = p.errorCode;
    this.recent.push(page);
  }

  /**
   * Records one progress event as a chart sample (`isChartSample` false: the latest figures only,
   * no chart point, for a stretch too short to give a rate).
   */
  onProgress(p: CrawlProgress, isChartSample = true): void {
    this.latest = p;
    if (!isChartSample) return;
    const prev = this.previous;
    const dt = prev === undefined ? p.elapsedMs : p.elapsedMs - prev.elapsedMs;
    // The first sample of a resume counts this run's attempts, not those of the runs before.
    const ds = prev === undefined ? p.stepsThisRun : p.steps - prev.step;
    if (prev !== undefined && ds === 0 && dt < 1000) return; // a forced duplicate (end of a loop)
    this.previous = { step: p.steps, elapsedMs: p.elapsedMs };
    this.series.push({
      step: p.steps,
      elapsedMs: p.elapsedMs,
      harvestRate: p.harvestRate,
      relevantDomains: p.relevantDomains,
      pagesPerSec: dt > 0 ? (ds * 1000) / dt : 0,
      frontierSize: p.frontierSize,
      leaves: p.strategyStats['frontier/leaves'] ?? null,
      failures: this.failureSnapshot(),
    });
  }

  /** The attached source's figures now (see {@link CrawlMonitor.attach}), else the last progress event, if any. */
  get progress(): CrawlProgress | undefined {
    return this.latest === undefined ? undefined : (this.current?.() ?? this.latest);
  }

  /** Chart samples, oldest first. */
  samples(): MonitorSample[] {
    return this.series.values();
  }

  /** Recent pages, newest first. */
  recentPages(): RecentPage[] {
    return this.recent.values().reverse();
  }

  /** Domains with the most attempts (ties by name). */
  topDomains(limit = 20): DomainCount[] {
    return [...this.domains]
      .map(([domain, c]) => ({ domain, ...c }))
      .sort((a, b) => b.pages - a.pages || (a.domain < b.domain ? -1 : 1))
      .slice(0, limit);
  }

  /** Failed attempts by reason, most frequent first. */
  failureReasons(): { reason: string; count: number }[] {
    return [...this.failures]
      .map(([reason, count]) => ({ reason, count }))
      .sort((a, b) => b.count - a.count || (a.reason < b.reason ? -1 : 1));
  }

  private failureSnapshot(): Record<string, number> {
    const out: Record<string, number> = {};
    const reasons = this.failureReasons();
    reasons.slice(0, this.o.maxFailureReasons).forEach((r) => {
      out[r.reason] = r.count;
    });
    const other = reasons.slice(this.o.maxFailureReasons).reduce((n, r) => n + r.count, 0);
    if (other > 0) out.other = other;
    return out;
  }
}
