import { describe, expect, it } from 'vitest';
import type { CrawlProgress, PageEvent } from '../crawl/index.js';
import { CrawlMonitor } from './crawl-monitor.js';
import { createMetricsRegistry, prometheusName } from './metrics.js';
import { PROMTOOL, promtoolCheck } from './test-promtool.js';

const page = (step: number, domain: string, extra: Partial<PageEvent> = {}): PageEvent => ({
  url: `http://${domain}/${step}`,
  finalUrl: `http://${domain}/${step}`,
  status: 200,
  isPage: true,
  reward: 0,
  probability: 0.1,
  domain,
  depth: 1,
  step,
  newLinks: 0,
  ...extra,
});

const progress = (steps: number, elapsedMs: number): CrawlProgress => ({
  steps,
  pages: steps,
  relevant: 1,
  relevantDomains: 1,
  failures: 1,
  duplicates: 0,
  harvestRate: 1 / steps,
  inFlight: 2,
  deferred: 0,
  frontierSize: 40,
  elapsedMs,
  stepsThisRun: steps,
  pagesPerSec: (steps * 1000) / elapsedMs,
  strategyStats: { 'frontier/size': 40, 'frontier/leaves': 3, 'rl/td_loss': 0.25 },
});

describe('crawl monitor and metrics', () => {
  it('maps namespaced metric names to Prometheus names', () => {
    expect(prometheusName('crawl/harvest_rate')).toBe('tres_crawl_harvest_rate');
    expect(prometheusName('rl/td-loss')).toBe('tres_rl_td_loss');
  });

  it('counts domains and failures by reason, and samples instantaneous pages/s', () => {
    const m = new CrawlMonitor({ recentPages: 2 });
    m.onPage(page(1, 'a.test', { reward: 1 }));
    m.onPage(page(2, 'a.test'));
    m.onPage(page(3, 'b.test', { isPage: false, status: 0, errorCode: 'TRES_DNS' }));
    m.onPage(page(4, 'b.test', { isPage: false, status: 404 }));
    m.onProgress(progress(4, 1000));
    m.onProgress(progress(14, 3000));
    expect(m.topDomains()).toEqual([
      { domain: 'a.test', pages: 2, relevant: 1 },
      { domain: 'b.test', pages: 2, relevant: 0 },
    ]);
    expect(m.recentPages().map((p) => p.step)).toEqual([4, 3]);
    const [first, second] = m.samples();
    expect(first).toMatchObject({
      step: 4,
      pagesPerSec: 4,
      leaves: 3,
      failures: { HTTP_404: 1, TRES_DNS: 1 },
    });
    expect(second?.pagesPerSec).toBe(5); // 10 pages in 2 s, not the average since the start
  });

  it('serves every progress number and strategy stat at scrape time', async () => {
    const m = new CrawlMonitor();
    const registry = createMetricsRegistry(m, { values: () => ({ 'feedback/labels': 7 }) });
    m.onPage(page(1, 'a.test', { isPage: false, status: 0, errorCode: 'TRES_DNS' }));
    m.onProgress(progress(10, 2000));
    const text = await registry.metrics();
    expect(text).toContain('tres_crawl_harvest_rate 0.1');
    expect(text).toContain('tres_frontier_leaves 3');
    expect(text).toContain('tres_rl_td_loss 0.25');
    expect(text).toContain('tres_feedback_labels 7');
    expect(text).toContain('tres_crawl_failures_by_reason_total{reason="TRES_DNS"} 1');
    expect(text).toContain('# TYPE tres_crawl_steps_total counter\ntres_crawl_steps_total 10');
  });

  it('shows failures by reason only with the counters they add up to', async () => {
    const m = new CrawlMonitor();
    const registry = createMetricsRegistry(m);
    // A failure recorded before the crawl's first figures: the counters read 0, and so must it.
    m.onPage(page(1, 'a.test', { isPage: false, status: 0, errorCode: 'TRES_DNS' }));
    const before = await registry.metrics();
    expect(before).toContain('tres_crawl_failures_total 0');
    expect(before).not.toContain('reason="TRES_DNS"');
    m.onProgress(progress(10, 2000));
    const after = await registry.metrics();
    expect(after).toContain('tres_crawl_failures_total 1');
    expect(after).toContain('tres_crawl_failures_by_reason_total{reason="TRES_DNS"} 1');
  });

  it.skipIf(!PROMTOOL)(
    'passes promtool check metrics, with counters named _total and no NaN for an unknown frontier',
    async () => {
      const m = new CrawlMonitor();
      const registry = createMetricsRegistry(m, { values: () => ({ 'crawl/is_paused': 0 }) });
      m.onPage(page(1, 'a.test', { isPage: false, status: 0, errorCode: 'TRES_DNS' }));
      m.onPage(page(2, 'a.test', { isPage: false, status: 404 }));
      // A read-only view knows no frontier (NaN) and no strategy stats.
      m.onProgress({
        ...progress(10, 2000),
        frontierSize: Number.NaN,
        strategyStats: { 'rl/td_loss': Number.NaN },
      });
      const text = await registry.metrics();
      expect(text).not.toMatch(/NaN/i);
      expect(text).not.toContain('tres_frontier_size');
      expect(text).not.toContain('per_sec');
      expect(promtoolCheck(text)).toEqual({ code: 0, output: '' });
      // The frontier comes back when it is known.
      m.onProgress(progress(12, 3000));
      const known = await registry.metrics();
      expect(known).toContain('tres_frontier_size 40');
      expect(promtoolCheck(known)).toEqual({ code: 0, output: '' });
    },
  );
});
