import { join } from 'node:path';
import Database from 'better-sqlite3';
import { tempDir } from 'tres-testing/temp-dir';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Crawler } from '../index.js';
import { sendHtml, startServer, type TestServer } from '../net/test-servers.js';

describe('a URL waiting for a retry', () => {
  const base = tempDir('tres-retry-relink-');
  let server: TestServer;
  const hits = new Map<string, number>();
  beforeAll(async () => {
    server = await startServer((req, res, host) => {
      const key = `${host}${req.url}`;
      const n = (hits.get(key) ?? 0) + 1;
      hits.set(key, n);
      // The start page links x (on a slow host) and p; p is relevant and links x again.
      if (key === 'a.test/')
        return sendHtml(
          res,
          '<title>start</title><a href="http://b.test/x">x</a> <a href="http://c.test/p">p</a>',
        );
      // x answers 503 once: it waits for its retry while p is fetched.
      if (key === 'b.test/x')
        return n === 1 ? res.writeHead(503).end() : sendHtml(res, '<title>x</title><p>gpu</p>');
      if (key === 'c.test/p')
        return sendHtml(res, '<title>gpu</title><p>gpu gpu gpu gpu</p><a href="http://b.test/x">x</a>');
      res.writeHead(404).end();
    });
  });
  afterAll(async () => {
    await server.close();
  });

  it('is not queued again by a link found meanwhile: requested twice (503, retry), recorded once', async () => {
    const outDir = join(base, 'crawl');
    const crawler = new Crawler({
      outDir,
      strategy: 'best-first',
      keywords: ['gpu'],
      maxPages: 10,
      maxConcurrency: 1,
      net: { minDelayMs: 0, resolveRules: [server.rule], allowLoopback: true, respectRobotsTxt: false },
    });
    const summary = await crawler.run(['http://a.test/']);
    expect(summary.stopReason).toBe('frontier-empty');
    const db = new Database(join(outDir, 'crawl.sqlite'), { readonly: true });
    const rows = db.prepare('SELECT url, status FROM pages ORDER BY id').all() as Array<{
      url: string;
      status: number;
    }>;
    db.close();
    expect(rows).toEqual([
      { url: 'http://a.test/', status: 200 },
      { url: 'http://c.test/p', status: 200 },
      { url: 'http://b.test/x', status: 200 },
    ]);
    // The 503 and the retry: no third request.
    expect(hits.get('b.test/x')).toBe(2);
  });

  it('holds none of the page budget: a crawl near its end fetches what it can instead of waiting for it', async () => {
    // y answers 503 with Retry-After: 30 s, and the crawl has budget for 3 pages: a, y and two
    // others are linked. The crawl fetches the two others and ends; y stays in the frontier.
    const outDir = join(base, 'budget');
    const waiting = await startServer((req, res, host) => {
      const key = `${host}${req.url}`;
      if (key === 'a.test/')
        return sendHtml(
          res,
          '<title>start</title><a href="http://b.test/y">y gpu</a> <a href="http://c.test/1">1</a> <a href="http://c.test/2">2</a>',
        );
      if (key === 'b.test/y') return res.writeHead(503, { 'retry-after': '30' }).end();
      if (key.startsWith('c.test/')) return sendHtml(res, '<title>gpu</title><p>gpu gpu gpu</p>');
      res.writeHead(404).end();
    });
    try {
      const startedMs = performance.now();
      const summary = await new Crawler({
        outDir,
        strategy: 'best-first',
        keywords: ['gpu'],
        maxPages: 3,
        maxConcurrency: 1,
        net: { minDelayMs: 0, resolveRules: [waiting.rule], allowLoopback: true, respectRobotsTxt: false },
      }).run(['http://a.test/']);
      expect(summary.stopReason).toBe('max-pages');
      expect(summary.steps).toBe(3);
      // Waiting for y's Retry-After would take 30 s.
      expect(performance.now() - startedMs).toBeLessThan(20_000);
      const db = new Database(join(outDir, 'crawl.sqlite'), { readonly: true });
      const urls = (db.prepare('SELECT url FROM pages ORDER BY id').all() as { url: string }[]).map(
        (r) => r.url,
      );
      db.close();
      expect(urls).toEqual(['http://a.test/', 'http://c.test/1', 'http://c.test/2']);
      // y, waiting for its retry, is left in the frontier (a resume fetches it).
      expect(summary.frontierSize).toBe(1);
    } finally {
      await waiting.close();
    }
  }, 60_000);
});
