import { join } from 'node:path';
import Database from 'better-sqlite3';
import { tempDir } from 'tres-testing/temp-dir';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Crawler } from '../index.js';
import { sendHtml, startServer, type TestServer } from '../net/test-servers.js';

interface Row {
  url: string;
  error_code: string | null;
}

function rows(dir: string): Row[] {
  const db = new Database(join(dir, 'crawl.sqlite'), { readonly: true });
  try {
    return db.prepare('SELECT url, error_code FROM pages ORDER BY id').all() as Row[];
  } finally {
    db.close();
  }
}

/**
 * Two sites: ok.test links to ten pages of flaky.test, whose robots.txt answers 503 for its first
 * `robotsFailures` requests (Infinity: always).
 */
function twoSites(robotsFailures: number) {
  let robotsRequests = 0;
  const handler = (req: { url?: string }, res: Parameters<typeof sendHtml>[0], host: string) => {
    const path = req.url ?? '/';
    if (path === '/robots.txt') {
      if (host === 'flaky.test' && robotsRequests++ < robotsFailures) {
        res.writeHead(503, { 'content-type': 'text/plain' });
        res.end('busy');
        return;
      }
      res.writeHead(404).end();
      return;
    }
    if (host === 'ok.test') {
      const links = Array.from({ length: 10 }, (_, i) => `<a href="http://flaky.test/p${i}.html">p${i}</a>`);
      const own = Array.from({ length: 10 }, (_, i) => `<a href="/o${i}.html">o${i}</a>`);
      sendHtml(res, `<html><body>${links.join(' ')} ${own.join(' ')}</body></html>`);
      return;
    }
    sendHtml(res, `<html><title>${path}</title><body>page ${path} of ${host}</body></html>`);
  };
  return { handler, robotsRequests: () => robotsRequests };
}

describe('Crawler when an origin cannot serve its robots.txt for a while', () => {
  const base = tempDir('tres-robots-');
  let server: TestServer | undefined;
  beforeAll(() => {});
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('defers the origin\u2019s URLs while robots.txt answers 503, then fetches them, finishing on budget', async () => {
    const sites = twoSites(2);
    server = await startServer(sites.handler);
    const outDir = join(base, 'transient');
    const crawler = new Crawler({
      outDir,
      strategy: 'bfs',
      keywords: ['page'],
      maxPages: 21,
      maxConcurrency: 2,
      // As the benchmark harness runs: a deferral must not need (or use up) a URL's retries.
      maxRetries: 0,
      net: { minDelayMs: 0, resolveRules: [server.rule], allowLoopback: true, errorTtlMs: 100 },
      progressIntervalMs: 20,
    });
    let deferrals = 0;
    crawler.on('retry', (r) => {
      if (r.isDeferred) deferrals++;
    });
    const summary = await crawler.run(['http://ok.test/']);
    const stored = rows(outDir);
    expect(summary.stopReason).toBe('max-pages');
    expect(stored).toHaveLength(21);
    expect(stored.filter((r) => r.error_code !== null)).toEqual([]);
    expect(stored.filter((r) => r.url.startsWith('http://flaky.test/')).length).toBe(10);
    expect(deferrals).toBeGreaterThan(0);
    expect(sites.robotsRequests()).toBe(3);
  });

  it('records the origin\u2019s URLs as TRES_ROBOTS_UNAVAILABLE once it stayed unreachable past maxUnreachableMs', async () => {
    const sites = twoSites(Number.POSITIVE_INFINITY);
    server = await startServer(sites.handler);
    const outDir = join(base, 'down');
    const crawler = new Crawler({
      outDir,
      strategy: 'bfs',
      keywords: ['page'],
      maxPages: 100,
      maxConcurrency: 2,
      net: {
        minDelayMs: 0,
        resolveRules: [server.rule],
        allowLoopback: true,
        errorTtlMs: 100,
        maxUnreachableMs: 400,
      },
    });
    const started = Date.now();
    const summary = await crawler.run(['http://ok.test/']);
    expect(Date.now() - started).toBeLessThan(10_000);
    const flaky = rows(outDir).filter((r) => r.url.startsWith('http://flaky.test/'));
    expect(summary.stopReason).toBe('frontier-empty');
    expect(flaky).toHaveLength(10);
    expect(new Set(flaky.map((r) => r.error_code))).toEqual(new Set(['TRES_ROBOTS_UNAVAILABLE']));
    expect(summary.steps).toBe(21);
  });

  it('fails the URLs of a host that never answered (connections reset) after their retries, without deferring them', async () => {
    let deadRequests = 0;
    server = await startServer((req, res, host) => {
      const path = req.url ?? '/';
      if (host === 'dead.test') {
        deadRequests++;
        req.socket.destroy();
        return;
      }
      if (path === '/robots.txt') {
        res.writeHead(404).end();
        return;
      }
      const links = Array.from({ length: 10 }, (_, i) => `<a href="http://dead.test/p${i}.html">p${i}</a>`);
      sendHtml(res, `<html><body>${path === '/' ? links.join(' ') : 'page'}</body></html>`);
    });
    const outDir = join(base, 'dead');
    const crawler = new Crawler({
      outDir,
      strategy: 'bfs',
      keywords: ['page'],
      maxPages: 100,
      maxConcurrency: 2,
      maxRetries: 1,
      net: { minDelayMs: 0, resolveRules: [server.rule], allowLoopback: true, errorTtlMs: 50 },
      maxRetryDelayMs: 200,
    });
    let deferrals = 0;
    crawler.on('retry', (r) => {
      if (r.isDeferred) deferrals++;
    });
    const summary = await crawler.run(['http://ok.test/']);
    const dead = rows(outDir).filter((r) => r.url.startsWith('http://dead.test/'));
    expect(summary.stopReason).toBe('frontier-empty');
    expect(dead).toHaveLength(10);
    expect(new Set(dead.map((r) => r.error_code))).toEqual(new Set(['TRES_ROBOTS_UNAVAILABLE']));
    expect(deferrals).toBe(0);
    // Only robots.txt was ever requested from it: at most one request a try of each URL.
    expect(deadRequests).toBeGreaterThan(0);
    expect(deadRequests).toBeLessThanOrEqual(20);
  });
});
