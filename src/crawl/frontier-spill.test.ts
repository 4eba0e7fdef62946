import { join } from 'node:path';
import { tempDir } from 'tres-testing/temp-dir';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CrawlerOptions, CrawlSummary } from '../index.js';
import { Crawler } from '../index.js';
import { keywordsOf, type Sandbox, sandboxResolveRules, serveSandbox } from '../sandbox/index.js';
import { fetchedUrls } from '../store/test-helpers.js';

const TOPIC = 'astronomy telescopes';
/** A frontier bound far below what the web offers: most links wait on disk for most of the crawl. */
const TINY = 8;

/** A crawl's figures on the way: the largest frontier in memory, the most links a page brought. */
interface Watched {
  summary: CrawlSummary;
  maxFrontier: number;
  maxNewLinks: number;
  heldPages: number;
}

describe('a crawl whose frontier is over its memory bound', () => {
  let sandbox: Sandbox;
  const base = tempDir('tres-spill-');
  beforeAll(async () => {
    sandbox = await serveSandbox({
      web: {
        seed: 3,
        hostCount: 6,
        pageCount: 160,
        topics: [TOPIC, 'cooking recipes'],
        relevantTopic: TOPIC,
      },
    });
  });
  afterAll(async () => {
    await sandbox.close();
  });

  const options = (outDir: string, extra: Partial<CrawlerOptions> = {}): CrawlerOptions => ({
    outDir,
    strategy: 'bfs',
    seed: 4,
    keywords: keywordsOf(TOPIC),
    // The whole web: the crawl ends when nothing is left to fetch.
    maxPages: false,
    maxConcurrency: 1,
    maxFrontierUrls: false,
    net: { minDelayMs: 0, resolveRules: sandboxResolveRules(sandbox.server), allowLoopback: true },
    ...extra,
  });
  const seeds = () => sandbox.web!.seedUrls(2, { relevant: true });

  async function watch(crawler: Crawler, seedUrls: string[] = []): Promise<Watched> {
    let maxFrontier = 0;
    let maxNewLinks = 0;
    crawler.on('page', (p) => {
      maxNewLinks = Math.max(maxNewLinks, p.newLinks);
      maxFrontier = Math.max(maxFrontier, crawler.progress().strategyStats['frontier/size'] ?? 0);
    });
    const summary = await crawler.run(seedUrls);
    const heldPages = summary.strategyStats['frontier/held_pages_total'] ?? 0;
    return { summary, maxFrontier, maxNewLinks, heldPages };
  }

  it('bfs with a tiny bound holds links on disk and fetches the same pages in the same order as with none', async () => {
    // bfs fetches in the order links were found. Held links are handed back page by page in the
    // order the pages were recorded, after every link handed over before them, and before the
    // frontier runs dry (it is refilled whenever under the bound); with one fetch at a time the order of
    // fetches is then the unbounded crawl's exactly.
    const free = await watch(new Crawler(options(join(base, 'bfs-free'))), seeds());
    const bounded = await watch(
      new Crawler(options(join(base, 'bfs-tiny'), { maxFrontierUrls: TINY })),
      seeds(),
    );
    expect(free.summary.stopReason).toBe('frontier-empty');
    expect(bounded.summary.stopReason).toBe('frontier-empty');
    expect(free.heldPages).toBe(0);
    expect(free.maxFrontier).toBeGreaterThan(5 * TINY);
    expect(bounded.heldPages).toBeGreaterThan(10);
    // The frontier in memory passes the bound by at most the links of the last page handed over.
    expect(bounded.maxFrontier).toBeLessThan(TINY + bounded.maxNewLinks);
    expect(fetchedUrls(join(base, 'bfs-free')).length).toBeGreaterThan(50);
    expect(fetchedUrls(join(base, 'bfs-tiny'))).toEqual(fetchedUrls(join(base, 'bfs-free')));
  });

  for (const strategy of ['best-first', 'coverage', 'tres', 'ache', 'apprentice']) {
    it(`${strategy} with a tiny bound crawls the same whole web as with none`, async () => {
      // These value each link as it is handed over, so the order differs; crawled to the end,
      // both fetch every page reachable from the seeds, each once.
      const free = join(base, `${strategy}-free`);
      const tiny = join(base, `${strategy}-tiny`);
      await watch(new Crawler(options(free, { strategy })), seeds());
      const bounded = await watch(new Crawler(options(tiny, { strategy, maxFrontierUrls: TINY })), seeds());
      expect(bounded.summary.stopReason).toBe('frontier-empty');
      expect(bounded.heldPages).toBeGreaterThan(10);
      expect(bounded.maxFrontier).toBeLessThan(TINY + bounded.maxNewLinks);
      const urls = fetchedUrls(tiny);
      expect(new Set(urls).size).toBe(urls.length);
      expect([...urls].sort()).toEqual([...fetchedUrls(free)].sort());
    });
  }

  it('a crawl killed while links wait on disk resumes with them and fetches no page twice', async () => {
    const outDir = join(base, 'bfs-resume');
    const first = new Crawler(options(outDir, { maxFrontierUrls: TINY }));
    first.on('page', (p) => {
      if (p.step === 40) first.abortNow();
    });
    const stopped = await watch(first, seeds());
    expect(stopped.heldPages).toBeGreaterThan(0);
    expect(stopped.summary.frontierSize).toBeGreaterThan(stopped.summary.strategyStats['frontier/size'] ?? 0);
    const resumed = await watch(new Crawler(options(outDir, { maxFrontierUrls: TINY, isResume: true })));
    expect(resumed.summary.stopReason).toBe('frontier-empty');
    expect(resumed.heldPages).toBeGreaterThan(0);
    expect(resumed.maxFrontier).toBeLessThan(TINY + resumed.maxNewLinks);
    const urls = fetchedUrls(outDir);
    expect(new Set(urls).size).toBe(urls.length);
    expect([...urls].sort()).toEqual([...fetchedUrls(join(base, 'bfs-free'))].sort());
  });
});
