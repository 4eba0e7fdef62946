/**
 * URLs held back from the frontier when a crawl ends (deferred while their origin's robots.txt
 * is unreachable) come back in the resume's frontier, so the frontier figure counts them: the
 * figure a crawl ends with is the one its resume starts with.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Crawler, type CrawlerOptions } from '../index.js';

describe('the frontier figure of a crawl with deferred URLs', () => {
  let server: Server;
  let port = 0;
  let base: string;
  beforeAll(async () => {
    // site.test: 60 pages, each linking to the next two and to two pages of down.test, whose
    // robots.txt always answers 503 (its URLs wait, deferred, holding no budget).
    server = createServer((req, res) => {
      const host = (req.headers.host ?? '').split(':')[0];
      const path = req.url ?? '/';
      if (host === 'down.test') {
        res.writeHead(503, { 'content-type': 'text/plain' }).end('down');
        return;
      }
      if (path === '/robots.txt') {
        res.writeHead(404).end();
        return;
      }
      const n = Number(/^\/(\d+)$/.exec(path)?.[1] ?? '0');
      const links = [n + 1, n + 2]
        .filter((k) => k < 60)
        .map((k) => `<a href="/${k}">page ${k}</a>`)
        .concat([`<a href="http://down.test/${n}a">a</a>`, `<a href="http://down.test/${n}b">b</a>`]);
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(
          `<html><head><title>Page ${n}</title></head><body><p>gpu cpu page ${n}</p>${links.join(' ')}</body></html>`,
        );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
    base = mkdtempSync(join(tmpdir(), 'tres-frontier-figure-'));
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(base, { recursive: true, force: true });
  });

  const options = (outDir: string, isResume: boolean): CrawlerOptions => ({
    outDir,
    strategy: 'bfs',
    keywords: ['gpu'],
    maxPages: 20,
    maxConcurrency: 2,
    isResume,
    net: { minDelayMs: 0, resolveRules: [`*=127.0.0.1:${port}`], allowLoopback: true },
    progressIntervalMs: 1,
  });

  it('counts the deferred URLs a crawl ends with, as its resume finds them', {
    timeout: 60_000,
  }, async () => {
    const outDir = join(base, 'crawl');
    const crawler = new Crawler(options(outDir, false));
    const ended = await crawler.run(['http://site.test/0']);
    expect(ended.stopReason).toBe('max-pages');
    expect(ended.deferred).toBeGreaterThan(0);

    const resumed = new Crawler(options(outDir, true));
    let first: number | undefined;
    resumed.on('progress', (p) => {
      first ??= p.frontierSize;
    });
    const again = await resumed.run([]);
    expect(first).toBe(ended.frontierSize);
    expect(again.frontierSize).toBe(ended.frontierSize);
  });
});
