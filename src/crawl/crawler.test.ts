import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { tempDir } from 'tres-testing/temp-dir';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../common/index.js';
import type { CrawlerOptions } from '../index.js';
import { Crawler } from '../index.js';
import {
  FAULT_INDEX_URL,
  keywordsOf,
  type Sandbox,
  sandboxResolveRules,
  serveSandbox,
} from '../sandbox/index.js';

interface Row {
  url: string;
  status: number;
  error_code: string | null;
  reward: number;
}

function rows(dir: string): Row[] {
  const db = new Database(join(dir, 'crawl.sqlite'), { readonly: true });
  try {
    return db.prepare('SELECT url, status, error_code, reward FROM pages ORDER BY id').all() as Row[];
  } finally {
    db.close();
  }
}

describe('Crawler on a generated topical web', () => {
  let sandbox: Sandbox;
  const base = tempDir('tres-crawl-');
  const topic = 'astronomy telescopes';

  beforeAll(async () => {
    sandbox = await serveSandbox({
      web: {
        seed: 7,
        hostCount: 40,
        pageCount: 4000,
        topics: [topic, 'cooking recipes', 'football league'],
        relevantTopic: topic,
      },
    });
  });
  afterAll(async () => {
    await sandbox.close();
  });

  function options(name: string, extra: Partial<CrawlerOptions> = {}): CrawlerOptions {
    return {
      outDir: join(base, name),
      keywords: keywordsOf(topic),
      maxPages: 300,
      maxConcurrency: 4,
      net: { minDelayMs: 0, resolveRules: sandboxResolveRules(sandbox.server), allowLoopback: true },
      progressIntervalMs: 50,
      ...extra,
    };
  }

  it('crawls exactly the page budget, records every page once, and reports progress', async () => {
    const crawler = new Crawler(options('bfs', { strategy: 'bfs' }));
    let progressEvents = 0;
    let pageEvents = 0;
    crawler.on('progress', () => progressEvents++);
    crawler.on('page', () => pageEvents++);
    const summary = await crawler.run(sandbox.web!.seedUrls(3, { relevant: true }));
    expect({ reason: summary.stopReason, steps: summary.steps, frontier: summary.frontierSize }).toEqual({
      reason: 'max-pages',
      steps: 300,
      frontier: summary.frontierSize,
    });
    expect(summary.steps).toBe(300);
    expect(pageEvents).toBe(300);
    expect(progressEvents).toBeGreaterThan(0);
    const stored = rows(join(base, 'bfs'));
    expect(stored).toHaveLength(300);
    expect(new Set(stored.map((r) => r.url)).size).toBe(300);
    expect(stored.filter((r) => r.status === 200).length).toBeGreaterThan(250);
    expect(summary.relevant).toBe(stored.filter((r) => r.reward === 1).length);
    expect(summary.relevant).toBeGreaterThan(0);
  });

  it('respects the domain limit b', async () => {
    const crawler = new Crawler(options('limit', { strategy: 'bfs', maxPagesPerDomain: 5, maxPages: 100 }));
    const perDomain = new Map<string, number>();
    crawler.on('page', (p) => perDomain.set(p.domain, (perDomain.get(p.domain) ?? 0) + 1));
    await crawler.run(sandbox.web!.seedUrls(5));
    expect(Math.max(...perDomain.values())).toBeLessThanOrEqual(5);
  });

  it('repeats a seeded random crawl exactly with K = 1', async () => {
    const order = async (name: string) => {
      const crawler = new Crawler(
        options(name, { strategy: 'random', maxConcurrency: 1, maxPages: 60, seed: 42 }),
      );
      await crawler.run(sandbox.web!.seedUrls(3));
      return rows(join(base, name)).map((r) => r.url);
    };
    const a = await order('random-a');
    const b = await order('random-b');
    expect(a).toHaveLength(60);
    expect(b).toEqual(a);
  });

  it('refuses an output folder that already holds a crawl, with a clear message', async () => {
    await expect(new Crawler(options('bfs')).run(['http://x.test/'])).rejects.toThrow(ConfigError);
  });

  it('refuses loopback targets unless allowed', async () => {
    const crawler = new Crawler(
      options('guarded', {
        net: { minDelayMs: 0, resolveRules: [`*=127.0.0.1:${sandbox.server.port}`] },
        maxPages: 5,
      }),
    );
    const summary = await crawler.run(sandbox.web!.seedUrls(2));
    expect(summary.pages).toBe(0);
    expect(rows(join(base, 'guarded')).map((r) => r.error_code)).toEqual([
      'TRES_ADDRESS_BLOCKED',
      'TRES_ADDRESS_BLOCKED',
    ]);
  });
});

describe('Crawler on the fault sites', () => {
  let sandbox: Sandbox;
  let dir: string;
  let byPath: Map<string, Row>;

  beforeAll(async () => {
    sandbox = await serveSandbox({
      faults: { defaultSlowMs: 200, hugeBodyBytes: 8 * 1024 * 1024, bombBytes: 256 * 1024 ** 2 },
    });
    dir = join(mkdtempSync(join(tmpdir(), 'tres-faults-')), 'crawl');
    const crawler = new Crawler({
      outDir: dir,
      strategy: 'bfs',
      keywords: ['fault'],
      maxPages: 200,
      maxConcurrency: 8,
      maxRetries: 2,
      net: {
        minDelayMs: 0,
        resolveRules: sandboxResolveRules(sandbox.server),
        allowLoopback: true,
        headersTimeoutMs: 1500,
        bodyTimeoutMs: 1500,
        totalTimeoutMs: 4000,
        maxBodyBytes: 2 * 1024 * 1024,
      },
    });
    await crawler.run([FAULT_INDEX_URL]);
    byPath = new Map(rows(dir).map((r) => [r.url, r]));
  }, 120_000);
  afterAll(async () => {
    await sandbox.close();
  });

  const code = (url: string) => byPath.get(url)?.error_code ?? null;

  it('records each network fault with its code and never hangs', () => {
    expect(code('http://stall-body.fault.test/drip.html')).toMatch(/TRES_(BODY|TOTAL)_TIMEOUT/);
    expect(code('http://reset.fault.test/before-headers.html')).toMatch(
      /TRES_CONNECTION_(RESET|CLOSED)|TRES_NETWORK/,
    );
    expect(code('http://huge.fault.test/with-length.html')).toBe('TRES_BODY_TOO_LARGE');
    expect(code('http://huge.fault.test/chunked.html')).toBe('TRES_BODY_TOO_LARGE');
    expect(code('http://bomb.fault.test/bomb.html')).toBe('TRES_DECOMPRESSION_BOMB');
    expect(byPath.get('http://bomb.fault.test/small-gzip.html')?.status).toBe(200);
    const stalled = [...byPath.values()].filter(
      (r) =>
        r.url.startsWith('http://stall-headers.fault.test/') && r.url !== 'http://stall-headers.fault.test/',
    );
    expect(stalled.length).toBeGreaterThan(0);
    for (const r of stalled) expect(r.error_code).toMatch(/TRES_(HEADERS|TOTAL)_TIMEOUT/);
    expect(byPath.get('http://slow.fault.test/page?ms=200')?.status).toBe(200);
    expect(code('http://slow.fault.test/page?ms=60000')).toMatch(/TRES_(HEADERS|TOTAL)_TIMEOUT/);
    expect(code('http://reset.fault.test/mid-body.html')).toMatch(
      /TRES_CONNECTION_(RESET|CLOSED)|TRES_NETWORK|TRES_BODY/,
    );
  });

  it('retries 5xx and 429 and records the final answer', () => {
    const flaky = [...byPath.values()].filter(
      (r) => r.url.startsWith('http://flaky503.fault.test/') && r.url !== 'http://flaky503.fault.test/',
    );
    expect(flaky.length).toBeGreaterThan(0);
    for (const r of flaky) expect(r.status).toBe(200);
    const limited = [...byPath.values()].filter(
      (r) => r.url.startsWith('http://ratelimit.fault.test/') && r.url !== 'http://ratelimit.fault.test/',
    );
    for (const r of limited) expect(r.status).toBe(200);
    const errors = [...byPath.values()].filter(
      (r) => r.url.startsWith('http://error500.fault.test/') && r.url !== 'http://error500.fault.test/',
    );
    expect(errors.length).toBeGreaterThan(0);
    for (const r of errors) expect(r.error_code).toBe('TRES_HTTP_5XX');
  });

  it('records redirect loops and overlong chains, follows short chains', () => {
    expect(code('http://redirect-loop.fault.test/a')).toBe('TRES_REDIRECT_LOOP');
    expect(code('http://redirect-chain.fault.test/r/7')).toBe('TRES_TOO_MANY_REDIRECTS');
  });

  it('obeys robots.txt: nothing under /private/ is fetched', () => {
    const robots = [...byPath.keys()].filter((u) => u.startsWith('http://robots.fault.test/'));
    expect(robots.length).toBeGreaterThan(1);
    const privateRows = robots.filter((u) => u.includes('/private/')).map((u) => byPath.get(u)!);
    for (const r of privateRows) {
      expect(r.status).toBe(0);
      expect(r.error_code).toBe('TRES_ROBOTS_DISALLOWED');
    }
  });

  it('skips non-HTML bodies and survives broken HTML and odd charsets', () => {
    expect(code('http://binary.fault.test/image.png')).toBeNull(); // filtered by extension, never fetched
    expect(byPath.has('http://binary.fault.test/image.png')).toBe(false);
    const broken = [...byPath.values()].filter((r) => r.url.startsWith('http://broken-html.fault.test/'));
    expect(broken.length).toBeGreaterThan(1);
    for (const r of broken) expect(r.status).toBe(200);
    const charset = [...byPath.values()].filter((r) => r.url.startsWith('http://charset.fault.test/'));
    expect(charset.length).toBeGreaterThan(1);
    for (const r of charset) expect(r.status).toBe(200);
  });
});

describe('TRES on the crawl loop', () => {
  let sandbox: Sandbox;
  const base = tempDir('tres-rl-');
  const topic = 'astronomy telescopes';

  beforeAll(async () => {
    sandbox = await serveSandbox({
      web: {
        seed: 11,
        hostCount: 40,
        pageCount: 6000,
        topics: [topic, 'cooking recipes', 'football league'],
        relevantTopic: topic,
      },
    });
  });
  afterAll(async () => {
    await sandbox.close();
  });

  it('repeats a seeded tres crawl exactly with K = 1, past warm-up and training', async () => {
    const run = async (name: string) => {
      const crawler = new Crawler({
        outDir: join(base, name),
        strategy: 'tres',
        seed: 5,
        keywords: keywordsOf(topic),
        maxPages: 420,
        maxConcurrency: 1,
        shouldWriteWarc: false,
        net: { minDelayMs: 0, resolveRules: sandboxResolveRules(sandbox.server), allowLoopback: true },
      });
      const summary = await crawler.run(sandbox.web!.seedUrls(1, { relevant: true }));
      return { urls: rows(join(base, name)).map((r) => r.url), stats: summary.strategyStats };
    };
    const a = await run('tres-a');
    const b = await run('tres-b');
    expect(a.urls).toHaveLength(420);
    expect(b.urls).toEqual(a.urls);
    expect(a.stats['rl/train_steps']).toBeGreaterThan(0);
    expect(a.stats['frontier/leaves']).toBeGreaterThan(1);
    expect(b.stats['rl/td_loss']).toBe(a.stats['rl/td_loss']);
  });

  it('resumes a tres crawl from its store: the frontier is rebuilt and nothing is fetched twice', async () => {
    const options = {
      outDir: join(base, 'tres-resume'),
      strategy: 'tres',
      seed: 9,
      keywords: keywordsOf(topic),
      maxConcurrency: 1,
      shouldWriteWarc: false,
      net: { minDelayMs: 0, resolveRules: sandboxResolveRules(sandbox.server), allowLoopback: true },
    };
    await new Crawler({ ...options, maxPages: 150 }).run(sandbox.web!.seedUrls(1, { relevant: true }));
    const resumed = new Crawler({ ...options, maxPages: 400, isResume: true });
    const summary = await resumed.run();
    expect(summary.steps).toBe(400);
    const urls = rows(join(base, 'tres-resume')).map((r) => r.url);
    expect(urls).toHaveLength(400);
    expect(new Set(urls).size).toBe(400);
    expect(summary.strategyStats['frontier/size']).toBeGreaterThan(1000);
  });
});
