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
});
