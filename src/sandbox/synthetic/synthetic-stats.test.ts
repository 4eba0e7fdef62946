import { beforeAll, describe, expect, it } from 'vitest';
import { SYNTHETIC_WEB_DEFAULTS } from './synthetic-options.js';
import { type SyntheticWebStats, syntheticWebStats } from './synthetic-stats.js';
import { createSyntheticWeb } from './synthetic-web.js';

describe('synthetic web statistics (20k pages, defaults)', () => {
  let stats: SyntheticWebStats;
  beforeAll(() => {
    stats = syntheticWebStats(createSyntheticWeb({ pageCount: 20_000, hostCount: 200, seed: 'stats' }));
  });
  const d = SYNTHETIC_WEB_DEFAULTS;

  it('reports its measurements', () => {
    console.log('synthetic web, 20k pages:', JSON.stringify(stats, null, 1));
    expect(stats.pagesScanned).toBe(20_000);
  });

  it('has a mean out-degree near meanOutDegree and a heavy tail', () => {
    expect(stats.meanOutDegree).toBeGreaterThan(d.meanOutDegree * 0.9);
    expect(stats.meanOutDegree).toBeLessThan(d.meanOutDegree * 1.1);
    expect(stats.medianOutDegree).toBeLessThan(stats.meanOutDegree); // right-skewed
    expect(stats.maxOutDegree).toBeGreaterThan(10 * stats.meanOutDegree);
    expect(stats.p99OutDegree).toBeGreaterThan(4 * stats.meanOutDegree);
    expect(stats.maxInDegree).toBeGreaterThan(20 * stats.meanOutDegree);
  });

  it('keeps links on the host and in the topic at the target shares', () => {
    expect(stats.shareWithinHost).toBeGreaterThan(d.shareWithinHost - 0.04);
    expect(stats.shareWithinHost).toBeLessThan(d.shareWithinHost + 0.04);
    expect(stats.shareWithinHostAll).toBeLessThan(stats.shareWithinHost); // hubs link out
    expect(stats.shareWithinTopic).toBeGreaterThan(d.shareWithinTopic - 0.03);
    expect(stats.shareWithinTopic).toBeLessThan(d.shareWithinTopic + 0.03);
  });

  it('has hubs, broken links and dead-host links at about their shares', () => {
    expect(stats.hubCount).toBeGreaterThan(20_000 * d.hubShare * 0.5);
    expect(stats.hubCount).toBeLessThan(20_000 * d.hubShare * 1.5);
    expect(stats.brokenShare).toBeGreaterThan(d.brokenLinkShare * 0.7);
    expect(stats.brokenShare).toBeLessThan(d.brokenLinkShare * 1.3);
    expect(stats.deadHostShare).toBeGreaterThan(d.deadHostLinkShare * 0.6);
    expect(stats.deadHostShare).toBeLessThan(d.deadHostLinkShare * 1.4);
  });

  it('has Zipf host sizes, shared domains and about 1/topics relevant pages', () => {
    expect(stats.largestHostPages).toBeGreaterThan(50 * stats.smallestHostPages);
    expect(stats.subdomainHostCount).toBeGreaterThan(0);
    expect(stats.domainCount).toBeLessThan(stats.hostCount);
    const topicShare = 1 / d.topics.length;
    expect(stats.relevantShare).toBeGreaterThan(topicShare * 0.5);
    expect(stats.relevantShare).toBeLessThan(topicShare * 2);
    expect(stats.relevantHostCount).toBe(200 / d.topics.length);
  });
});
