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
});
