import { join } from 'node:path';
import { tempDir } from 'tres-testing/temp-dir';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CrawlerOptions } from '../index.js';
import { Crawler } from '../index.js';
import { keywordsOf, type Sandbox, sandboxResolveRules, serveSandbox } from '../sandbox/index.js';
import { fetchedUrls } from '../store/test-helpers.js';
import { strategyNames } from './registry.js';

const TOPIC = 'astronomy telescopes';
/**
 * Pages per crawl. 60 crosses what a short crawl can (lim-dfs plans every 50 decisions; the
 * learning strategies' warm-ups and retrainings, 300 and 500 pages, lie past 120 too, so the 120
 * this test once used exercised no more); half the time on a machine where this file was the
 * slowest of the suite.
 */
const BUDGET = 60;

describe('every strategy on the crawl loop', () => {
  let sandbox: Sandbox;
  const base = tempDir('tres-every-');
  beforeAll(async () => {
    sandbox = await serveSandbox({
      web: {
        seed: 5,
        hostCount: 12,
        pageCount: 1200,
        topics: [TOPIC, 'cooking recipes'],
        relevantTopic: TOPIC,
      },
    });
  });
  afterAll(async () => {
    await sandbox.close();
  });

  const options = (
    outDir: string,
    strategy: string,
    extra: Partial<CrawlerOptions> = {},
  ): CrawlerOptions => ({
    outDir,
    strategy,
    seed: 9,
    keywords: keywordsOf(TOPIC),
    maxPages: BUDGET,
    maxConcurrency: 1,
    net: { minDelayMs: 0, resolveRules: sandboxResolveRules(sandbox.server), allowLoopback: true },
    ...extra,
  });
  const seeds = () => sandbox.web!.seedUrls(2, { relevant: true });

  for (const { name } of strategyNames()) {
    it(`${name}: a seeded crawl repeats exactly, and a stopped crawl resumes to its budget without refetching`, async () => {
      const runA = join(base, `${name}-a`);
      const runB = join(base, `${name}-b`);
      const summary = await new Crawler(options(runA, name)).run(seeds());
      await new Crawler(options(runB, name)).run(seeds());
      expect(summary.steps).toBe(BUDGET);
      expect(fetchedUrls(runB)).toEqual(fetchedUrls(runA));

      const stopped = join(base, `${name}-stopped`);
      const first = new Crawler(options(stopped, name, { maxConcurrency: 3 }));
      first.on('page', (p) => {
        if (p.step === BUDGET / 2) first.abortNow();
      });
      await first.run(seeds());
      const resumed = await new Crawler(options(stopped, name, { isResume: true, maxConcurrency: 3 })).run();
      const urls = fetchedUrls(stopped);
      expect(resumed.steps).toBe(BUDGET);
      expect(urls).toHaveLength(BUDGET);
      expect(new Set(urls).size).toBe(BUDGET);
    }, 60_000);
  }
});
