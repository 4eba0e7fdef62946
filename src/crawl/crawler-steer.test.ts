import { join } from 'node:path';
import Database from 'better-sqlite3';
import { tempDir } from 'tres-testing/temp-dir';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CrawlerOptions } from '../index.js';
import { Crawler } from '../index.js';
import { keywordsOf, type Sandbox, sandboxResolveRules, serveSandbox } from '../sandbox/index.js';
import type { PageJudge } from './judge.js';

const always = (p: number): PageJudge => ({
  name: `always-${p}`,
  scorePages: async (pages) => new Float32Array(pages.length).fill(p),
  scoreAnchors: async (anchors) => new Float32Array(anchors.length).fill(p),
});

describe('steering a running crawl', () => {
  let sandbox: Sandbox;
  const base = tempDir('tres-steer-');
  const topic = 'astronomy telescopes';
  beforeAll(async () => {
    sandbox = await serveSandbox({
      web: {
        seed: 3,
        hostCount: 12,
        pageCount: 600,
        topics: [topic, 'cooking recipes'],
        relevantTopic: topic,
      },
    });
  });
  afterAll(async () => {
    await sandbox.close();
  });
  const options = (name: string, extra: Partial<CrawlerOptions> = {}): CrawlerOptions => ({
    outDir: join(base, name),
    keywords: keywordsOf(topic),
    maxPages: 60,
    maxConcurrency: 4,
    strategy: 'bfs',
    net: { minDelayMs: 0, resolveRules: sandboxResolveRules(sandbox.server), allowLoopback: true },
    progressIntervalMs: 20,
    ...extra,
  });

  it('starts no fetch while paused and finishes the budget after resume', async () => {
    const crawler = new Crawler(options('pause'));
    let pages = 0;
    let pagesWhilePaused = -1;
    let isStillPaused = false;
    crawler.on('page', () => {
      pages++;
      if (pages === 10) {
        crawler.pause();
        // Fetches in flight (at most K = 4) still land; once none is left, nothing until resume.
        const drained = setInterval(() => {
          if (crawler.progress().inFlight > 0) return;
          clearInterval(drained);
          pagesWhilePaused = pages;
          setTimeout(() => {
            isStillPaused = pages === pagesWhilePaused && crawler.isPaused;
            crawler.resume();
          }, 200);
        }, 10);
      }
    });
    const summary = await crawler.run(sandbox.web!.seedUrls(1, { relevant: true }));
    expect(isStillPaused).toBe(true);
    expect(pagesWhilePaused).toBeGreaterThanOrEqual(10);
    expect(pagesWhilePaused).toBeLessThanOrEqual(14);
    expect(summary.steps).toBe(60);
  });

  it('fetches seeds added while it runs and keeps them for a resume', async () => {
    const [first, added] = sandbox.web!.seedUrls(2, { relevant: true });
    const crawler = new Crawler(options('seeds', { maxPages: 30 }));
    let result: string[] = [];
    crawler.once('page', () => {
      result = crawler.addSeeds([added!, first!]);
    });
    await crawler.run([first!]);
    expect(result).toEqual([added]);
    const db = new Database(join(base, 'seeds', 'crawl.sqlite'), { readonly: true });
    const seeds = db.prepare('SELECT url FROM seeds ORDER BY rowid').all() as { url: string }[];
    const fetched = db.prepare('SELECT 1 FROM pages WHERE url = ?').get(added);
    db.close();
    expect(seeds.map((s) => s.url)).toEqual([first, added]);
    expect(fetched).toBeDefined();
  });

  it('judges pages with a swapped-in judge, records its version per page, and resumes with that version', async () => {
    const crawler = new Crawler(options('judge', { judge: always(0.1), maxPages: 40 }));
    crawler.on('page', (p) => {
      if (p.step === 10) crawler.setJudge(always(0.9), 1);
    });
    expect(() => crawler.setJudge(always(0.9), 1)).toThrow(/running crawl/);
    await crawler.run(sandbox.web!.seedUrls(1, { relevant: true }));
    const db = new Database(join(base, 'judge', 'crawl.sqlite'), { readonly: true });
    const rows = db
      .prepare('SELECT judge_version AS v, probability AS p FROM pages WHERE is_page = 1 ORDER BY id')
      .all() as { v: number; p: number }[];
    db.close();
    expect(rows[0]).toEqual({ v: 0, p: expect.closeTo(0.1, 5) });
    expect(rows.at(-1)).toEqual({ v: 1, p: expect.closeTo(0.9, 5) });
    // Pages fetched by one judge are never scored by the other.
    for (const r of rows) expect(r.p).toBeCloseTo(r.v === 0 ? 0.1 : 0.9, 5);

    const resumed = new Crawler(options('judge', { judge: always(0.9), maxPages: 50, isResume: true }));
    await resumed.run();
    expect(resumed.judgeVersion).toBe(1);
    expect(() => resumed.setJudge(always(0.5), 1)).toThrow();
  });
});
