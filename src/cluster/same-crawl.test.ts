import { join } from 'node:path';
import { type LocalRedis, startLocalRedis } from 'tres-testing';
import { tempDir } from 'tres-testing/temp-dir';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CrawlerOptions } from '../index.js';
import { Crawler } from '../index.js';
import { keywordsOf, type Sandbox, sandboxResolveRules, serveSandbox } from '../sandbox/index.js';
import { fetchedUrls } from '../store/test-helpers.js';
import { strategyNames } from '../strategies/index.js';
import { ClusterCoordinator } from './coordinator.js';
import { ClusterWorker } from './worker.js';

const TOPIC = 'astronomy telescopes';
const BUDGET = 60;

describe('a cluster crawl with one worker and K = 1', () => {
  let sandbox: Sandbox;
  let redis: LocalRedis;
  const base = tempDir('tres-cluster-same-');
  beforeAll(async () => {
    [sandbox, redis] = await Promise.all([
      serveSandbox({
        web: {
          seed: 5,
          hostCount: 30,
          pageCount: 3000,
          topics: [TOPIC, 'cooking recipes'],
          relevantTopic: TOPIC,
        },
      }),
      startLocalRedis(),
    ]);
  });
  afterAll(async () => {
    await Promise.all([sandbox?.close(), redis?.stop()]);
  });

  const options = (outDir: string, strategy: string): CrawlerOptions => ({
    outDir,
    strategy,
    seed: 9,
    keywords: keywordsOf(TOPIC),
    maxPages: BUDGET,
    maxConcurrency: 1,
    net: { minDelayMs: 0, resolveRules: sandboxResolveRules(sandbox.server), allowLoopback: true },
  });
  const seeds = () => sandbox.web!.seedUrls(2, { relevant: true });

  for (const { name } of strategyNames()) {
    it(`${name}: fetches the same pages in the same order as a local crawl`, async () => {
      const local = join(base, `${name}-local`);
      await new Crawler(options(local, name)).run(seeds());
      const cluster = join(base, `${name}-cluster`);
      const worker = new ClusterWorker({
        url: redis.url,
        name,
        id: `w-${name}`,
        warcDir: join(base, `${name}-warc`),
      });
      const working = worker.run();
      const coordinator = new ClusterCoordinator({ url: redis.url, name });
      const summary = await new Crawler({
        ...options(cluster, name),
        fetchRunner: coordinator,
        shouldWriteWarc: false,
      }).run(seeds());
      worker.stop();
      const done = await working;
      expect(summary.steps).toBe(BUDGET);
      expect(fetchedUrls(cluster)).toEqual(fetchedUrls(local));
      expect(done.fetched + done.failed).toBe(BUDGET);
    }, 60_000);
  }

  it('coverage with a frontier bound: the coordinator holds links in its store as a local crawl does', async () => {
    // The bound on the frontier in memory (--max-frontier-urls) is the crawl loop's, which the
    // coordinator runs: past it a page's links wait in the coordinator's store.
    const bounded = (outDir: string): CrawlerOptions => ({
      ...options(outDir, 'coverage'),
      maxFrontierUrls: 20,
    });
    const local = join(base, 'bounded-local');
    const localSummary = await new Crawler(bounded(local)).run(seeds());
    const cluster = join(base, 'bounded-cluster');
    const worker = new ClusterWorker({
      url: redis.url,
      name: 'bounded',
      id: 'w-bounded',
      warcDir: join(base, 'bounded-warc'),
    });
    const working = worker.run();
    const crawler = new Crawler({
      ...bounded(cluster),
      fetchRunner: new ClusterCoordinator({ url: redis.url, name: 'bounded' }),
      shouldWriteWarc: false,
    });
    let maxFrontier = 0;
    let maxNewLinks = 0;
    crawler.on('page', (p) => {
      maxNewLinks = Math.max(maxNewLinks, p.newLinks);
      maxFrontier = Math.max(maxFrontier, crawler.progress().strategyStats['frontier/size'] ?? 0);
    });
    const summary = await crawler.run(seeds());
    worker.stop();
    await working;
    expect(summary.steps).toBe(BUDGET);
    const held = summary.strategyStats['frontier/held_pages_total'] ?? 0;
    expect(held).toBeGreaterThan(5);
    expect(held).toBe(localSummary.strategyStats['frontier/held_pages_total']);
    expect(maxFrontier).toBeLessThan(20 + maxNewLinks);
    expect(fetchedUrls(cluster)).toEqual(fetchedUrls(local));
  }, 60_000);
});
