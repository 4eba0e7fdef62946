/**
 * Prometheus `/metrics` of a crawl with prom-client: the namespaced metric names of STYLE.md in
 * Prometheus form (`crawl/harvest_rate` -> `tres_crawl_harvest_rate`), read from the monitor when
 * Prometheus scrapes, never on the crawl's hot path. Strategy stats (`rl/td_loss`,
 * `frontier/leaves`, ...) get a gauge each the first time they appear.
 */
import { Gauge, Registry } from 'prom-client';
import type { CrawlMonitor } from './crawl-monitor.js';

/** `crawl/harvest_rate` -> `tres_crawl_harvest_rate` (anything but [a-zA-Z0-9_] becomes `_`). */
export function prometheusName(name: string): string {
  return `tres_${name.replace(/[^a-zA-Z0-9_]/g, '_')}`;
}

/** Numbers that are not the crawl's progress: relevance feedback and pause state. */
export interface ExtraMetrics {
  /** `feedback/labels`, `feedback/judge_version`, `crawl/is_paused`, ... */
  values(): Record<string, number>;
}

const CRAWL_METRICS: Record<string, string> = {
  'crawl/steps': 'fetch attempts recorded (the step t)',
  'crawl/pages': 'HTML pages fetched and parsed',
  'crawl/relevant': 'pages judged relevant',
  'crawl/harvest_rate': 'relevant pages / attempts, by the judge',
  'crawl/relevant_domains': 'domains with at least one relevant page',
  'crawl/failures': 'failed attempts',
  'crawl/duplicates': 'pages that copy a page fetched before',
  'crawl/pages_per_sec': 'attempts per second since the start',
  'crawl/in_flight': 'fetches in flight',
  'frontier/size': 'URLs in the frontier',
};

/** A registry whose gauges read `monitor` (and `extra`) at scrape time. */
export function createMetricsRegistry(monitor: CrawlMonitor, extra?: ExtraMetrics): Registry {
  const registry = new Registry();
  const read = (): Record<string, number> => {
    const p = monitor.progress;
    const out: Record<string, number> = {};
    if (p) {
      Object.assign(out, {
        'crawl/steps': p.steps,
        'crawl/pages': p.pages,
        'crawl/relevant': p.relevant,
        'crawl/harvest_rate': p.harvestRate,
        'crawl/relevant_domains': p.relevantDomains,
        'crawl/failures': p.failures,
        'crawl/duplicates': p.duplicates,
        'crawl/pages_per_sec': p.pagesPerSec,
        'crawl/in_flight': p.inFlight,
        'frontier/size': p.frontierSize,
      });
      for (const [k, v] of Object.entries(p.strategyStats)) if (Number.isFinite(v)) out[k] = v;
    }
    if (extra) Object.assign(out, extra.values());
    return out;
  };
  const gauges = new Map<string, Gauge>();
  const ensure = (name: string, help: string) => {
    if (gauges.has(name)) return;
    const gauge = new Gauge({ name: prometheusName(name), help: `${name}: ${help}`, registers: [registry] });
    gauges.set(name, gauge);
  };
  for (const [name, help] of Object.entries(CRAWL_METRICS)) ensure(name, help);
  const failures = new Gauge({
    name: prometheusName('crawl/failures_by_reason'),
    help: 'crawl/failures_by_reason: failed attempts by error code or HTTP status',
    labelNames: ['reason'],
    registers: [registry],
    collect() {
      this.reset();
      for (const r of monitor.failureReasons()) this.set({ reason: r.reason }, r.count);
    },
  });
  void failures;
  // One collector sets every plain gauge from one read, and adds gauges for new stats names.
  const originalMetrics = registry.metrics.bind(registry);
  registry.metrics = async () => {
    const values = read();
    for (const name of Object.keys(values)) ensure(name, 'strategy or feedback statistic');
    for (const [name, gauge] of gauges) {
      const v = values[name];
      if (v === undefined) gauge.reset();
      else gauge.set(v);
    }
    return originalMetrics();
  };
  return registry;
}
