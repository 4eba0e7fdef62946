/**
 * Prometheus `/metrics` of a crawl with prom-client: the namespaced metric names of STYLE.md in
 * Prometheus form (`crawl/harvest_rate` -> `tres_crawl_harvest_rate`, counts as counters
 * `tres_crawl_steps_total`), read from the monitor when Prometheus scrapes, never on the crawl's
 * hot path. Strategy stats get a metric each the first time they appear: a counter `_total` for
 * those that only grow (`learn/updates`, `coverage/rechecks`), a gauge for the others
 * (`rl/td_loss`, `frontier/leaves`). `promtool check metrics` passes on the output (metrics-promtool.test.ts).
 */
import { Counter, Gauge, Registry } from 'prom-client';
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

/**
 * Monotonic counts of a crawl: Prometheus counters named `_total` (`crawl/steps` ->
 * `tres_crawl_steps_total`). Rates are Prometheus's job: `rate(tres_crawl_steps_total[1m])` is
 * the crawl's pages per second, so no rate is exported.
 */
const CRAWL_COUNTERS: Record<string, string> = {
  'crawl/steps': 'fetch attempts recorded (the step t)',
  'crawl/pages': 'HTML pages fetched and parsed',
  'crawl/relevant': 'pages judged relevant',
  'crawl/failures': 'failed attempts',
  'crawl/duplicates': 'pages that copy a page fetched before',
};

/**
 * Strategy statistics that only grow while a crawl runs: counters named `_total`, each with its
 * own help (a resume starts some of them again from 0, which Prometheus reads as a reset).
 */
const STRATEGY_COUNTERS: Record<string, string> = {
  'learn/updates': 'updates of the online link model',
  'learn/trainings': 'trainings of the link classifier',
  'coverage/rechecks': 'drawn links whose value had fallen, queued again with the new value',
  'coverage/kept-as-queued': 'links found again and kept at the value they were queued with',
  'coverage/rescorings': 'rescorings of the whole frontier',
  'rl/updates': 'updates of the learned value function',
  'rl/train_steps': 'gradient steps of the Q-network',
  'rl/target_updates': 'copies of the online Q-network into the target network',
  'rl/q_evaluations': 'Q-values computed to choose actions',
  'rl/explore_steps': 'actions chosen at random (exploration)',
  'lim/parses': 'pages whose outlinks were followed',
  'lim/skips': 'pages whose outlinks were skipped',
  'lim/explorations': 'parse/skip decisions made at random',
  'rlwcs/trainings': 'trainings of the link classifiers',
  'apprentice/batches': 'training batches of the apprentice',
};

/** Help of the strategy statistics that go up and down, where a name says too little. */
const STRATEGY_GAUGES: Record<string, string> = {
  'frontier/leaves': 'leaves of the Tree-Frontier',
  'frontier/hosts': 'hosts with URLs in the frontier',
  'rl/td_loss': 'mean temporal-difference loss of the latest updates',
  'rl/replay_size': 'transitions in the replay buffer',
  'coverage/lambda': "value of a site's first relevant page (lambda)",
  'coverage/sites': 'web sites with a fetched page',
  'feedback/labels': 'pages labelled in the dashboard',
  'feedback/judge_version': 'version of the judge (0: the crawl started with it)',
  'feedback/is_training': '1 while a judge is being retrained',
  'crawl/is_paused': '1 while the crawl is paused',
};

/** Values that go up and down (or are ratios): gauges. */
const CRAWL_GAUGES: Record<string, string> = {
  'crawl/harvest_rate': 'relevant pages / attempts, by the judge (a ratio from 0 to 1)',
  'crawl/relevant_domains': 'domains with at least one relevant page',
  'crawl/in_flight': 'fetches in flight',
  'frontier/size': 'URLs in the frontier',
};

/** The Prometheus name of a counter: `tres_crawl_steps_total`. */
export function prometheusCounterName(name: string): string {
  return `${prometheusName(name)}_total`;
}

/**
 * A registry whose metrics read `monitor` (and `extra`) at scrape time. A value that is not a
 * finite number (a read-only view does not know its frontier) is left out, never sent as NaN.
 */
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
        'crawl/in_flight': p.inFlight,
        'frontier/size': p.frontierSize,
      });
      for (const [k, v] of Object.entries(p.strategyStats)) out[k] = v;
    }
    if (extra) Object.assign(out, extra.values());
    return out;
  };
  // Failures by reason only with the counters: before the crawl's first figures the counters
  // read 0, and failed attempts by reason must add up to the failures counter in every scrape.
  const reasons = () => (monitor.progress === undefined ? [] : monitor.failureReasons());
  // One scrape reads the crawl once: prom-client collects metric after metric with awaits in
  // between, and a page recorded meanwhile must not count in one counter and not in another.
  let scrape: { values: Record<string, number>; reasons: { reason: string; count: number }[] } | undefined;
  for (const [name, help] of Object.entries(CRAWL_COUNTERS)) {
    new Counter({
      name: prometheusCounterName(name),
      help: `${name}: ${help}`,
      registers: [registry],
      collect() {
        this.reset();
        const v = monitor.progress === undefined ? 0 : ((scrape?.values ?? read())[name] ?? 0);
        if (Number.isFinite(v) && v > 0) this.inc(v);
      },
    });
  }
  new Counter({
    name: prometheusCounterName('crawl/failures_by_reason'),
    help: 'crawl/failures_by_reason: failed attempts by error code or HTTP status',
    labelNames: ['reason'],
    registers: [registry],
    collect() {
      this.reset();
      for (const r of scrape?.reasons ?? reasons()) this.inc({ reason: r.reason }, r.count);
    },
  });
  // Strategy counters are made and registered when their value first appears (each strategy
  // has its own); a counter once shown stays, holding its last value.
  const strategyCounters = new Map<string, { last: number }>();
  const counterFor = (name: string) => {
    let entry = strategyCounters.get(name);
    if (!entry) {
      const state = { last: 0 };
      new Counter({
        name: prometheusCounterName(name),
        help: `${name}: ${STRATEGY_COUNTERS[name]}`,
        registers: [registry],
        collect() {
          this.reset();
          if (state.last > 0) this.inc(state.last);
        },
      });
      entry = state;
      strategyCounters.set(name, entry);
    }
    return entry;
  };
  // Gauges are made when their value first appears (strategy stats differ by strategy) and are
  // taken out of the registry while their value is not a finite number.
  const gauges = new Map<string, { gauge: Gauge; isRegistered: boolean }>();
  const gaugeFor = (name: string) => {
    let entry = gauges.get(name);
    if (!entry) {
      const help = CRAWL_GAUGES[name] ?? STRATEGY_GAUGES[name] ?? 'strategy or feedback statistic';
      entry = {
        gauge: new Gauge({ name: prometheusName(name), help: `${name}: ${help}`, registers: [] }),
        isRegistered: false,
      };
      gauges.set(name, entry);
    }
    return entry;
  };
  const originalMetrics = registry.metrics.bind(registry);
  registry.metrics = async () => {
    const values = read();
    scrape = { values, reasons: reasons() };
    const names = new Set([...Object.keys(CRAWL_GAUGES), ...Object.keys(values)]);
    for (const name of names) {
      if (Object.hasOwn(CRAWL_COUNTERS, name)) continue;
      if (Object.hasOwn(STRATEGY_COUNTERS, name)) {
        const v = values[name];
        if (v !== undefined && Number.isFinite(v)) counterFor(name).last = v;
        continue;
      }
      const entry = gaugeFor(name);
      const v = values[name];
      const isShown = v !== undefined && Number.isFinite(v);
      if (isShown) entry.gauge.set(v);
      if (isShown && !entry.isRegistered) registry.registerMetric(entry.gauge);
      if (!isShown && entry.isRegistered) registry.removeSingleMetric(prometheusName(name));
      entry.isRegistered = isShown;
    }
    try {
      return await originalMetrics();
    } finally {
      scrape = undefined;
    }
  };
  return registry;
}
