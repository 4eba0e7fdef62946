import { join } from 'node:path';
import Database from 'better-sqlite3';
import { tempDir } from 'tres-testing/temp-dir';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../common/index.js';
import type { CrawlerOptions } from '../index.js';
import { Crawler } from '../index.js';
import { sendHtml, startServer, type TestServer } from '../net/test-servers.js';
import { CrawlStore } from '../store/index.js';
import { fetchedUrls } from '../store/test-helpers.js';

/** Five seeds on five hosts whose pages link nowhere: a seed lost on resume is never fetched. */
const SEEDS = ['a', 'b', 'c', 'd', 'e'].map((h) => `http://${h}.test/`);

describe('Crawler resume keeps its seeds', () => {
  const base = tempDir('tres-resume-');
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer((_req, res, host) => sendHtml(res, `<title>${host}</title><p>alone</p>`));
  });
  afterAll(async () => {
    await server.close();
  });

  const options = (outDir: string, extra: Partial<CrawlerOptions> = {}): CrawlerOptions => ({
    outDir,
    strategy: 'bfs',
    keywords: ['alone'],
    maxPages: 20,
    maxConcurrency: 1,
    net: { minDelayMs: 0, resolveRules: [server.rule], allowLoopback: true, respectRobotsTxt: false },
    ...extra,
  });

  it('fetches on resume the seeds a stopped crawl had not fetched yet', async () => {
    const outDir = join(base, 'stopped');
    const first = new Crawler(options(outDir));
    first.on('page', (p) => {
      if (p.step === 2) first.abortNow();
    });
    await first.run(SEEDS);
    expect(fetchedUrls(outDir)).toHaveLength(2);

    const summary = await new Crawler(options(outDir, { isResume: true })).run();
    expect(summary.stopReason).toBe('frontier-empty');
    expect(fetchedUrls(outDir).sort()).toEqual([...SEEDS].sort());
  });

  it('adds seeds given on resume that the crawl did not have', async () => {
    const outDir = join(base, 'more-seeds');
    await new Crawler(options(outDir, { maxPages: 2 })).run(SEEDS.slice(0, 2));
    await new Crawler(options(outDir, { isResume: true })).run(['http://f.test/', SEEDS[0]!]);
    expect(fetchedUrls(outDir)).toEqual([...SEEDS.slice(0, 2), 'http://f.test/']);
  });

  it('stores the options of a resume (a raised page budget) as the crawl\u2019s config', async () => {
    const outDir = join(base, 'raised-budget');
    await new Crawler(options(outDir, { maxPages: 2 })).run(SEEDS);
    await new Crawler(options(outDir, { isResume: true, maxPages: 4 })).run();
    const db = new Database(join(outDir, 'crawl.sqlite'), { readonly: true });
    const row = db.prepare("SELECT value FROM meta WHERE key = 'config'").get() as { value: string };
    db.close();
    expect(JSON.parse(row.value)).toMatchObject({ maxPages: 4, strategy: 'bfs' });
    expect(fetchedUrls(outDir)).toHaveLength(4);
  });

  it('refuses to resume a crawl that holds neither seeds nor pages, and says to give the seeds again', async () => {
    const outDir = join(base, 'never-started');
    // What a crawl killed while being created leaves at worst: a store without seeds.
    CrawlStore.open(outDir, { mode: 'create' }).close({ status: 'running' });
    const resume = new Crawler(options(outDir, { isResume: true }));
    await expect(resume.run()).rejects.toThrow(ConfigError);
    await expect(new Crawler(options(outDir, { isResume: true })).run()).rejects.toThrow(
      /give the seeds again/,
    );
    const summary = await new Crawler(options(outDir, { isResume: true })).run(SEEDS);
    expect(summary.steps).toBe(5);
  });

  it('stores the seeds and the config in the transaction that creates the crawl', async () => {
    const outDir = join(base, 'atomic');
    CrawlStore.open(outDir, {
      mode: 'create',
      seeds: [{ url: SEEDS[0]!, host: 'a.test', domain: 'a.test', anchorText: '', depth: 0 }],
      meta: { config: { strategy: 'bfs' } },
    }).close({ status: 'running' });
    const db = new Database(join(outDir, 'crawl.sqlite'), { readonly: true });
    const seeds = db.prepare('SELECT url FROM seeds').all();
    const config = db.prepare("SELECT value FROM meta WHERE key = 'config'").get() as { value: string };
    db.close();
    expect(seeds).toEqual([{ url: SEEDS[0] }]);
    expect(JSON.parse(config.value)).toEqual({ strategy: 'bfs' });
  });
});
