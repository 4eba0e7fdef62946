import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { tempDir } from 'tres-testing/temp-dir';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CrawlerOptions } from '../index.js';
import { Crawler } from '../index.js';
import { sendHtml, startServer, type TestServer } from '../net/test-servers.js';
import { CrawlReader, readPageText } from '../store/index.js';
import { readWarc } from '../store/test-helpers.js';
import type { SitemapEvent } from './sitemap-source.js';

const urlset = (urls: string[]) =>
  `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls
    .map((u) => `<url><loc>${u}</loc></url>`)
    .join('')}</urlset>`;

/**
 * site.test: a home page with no links; its pages are listed only in sitemaps that robots.txt
 * names (an index, a gzip'd sitemap, a plain one). One listed page is disallowed by robots.txt
 * and one is on another host (a sitemap cannot speak for another host).
 */
function handler(req: { url?: string }, res: Parameters<typeof sendHtml>[0], host: string): void {
  const path = req.url ?? '/';
  const xml = (body: string | Buffer, type = 'application/xml') => {
    res.writeHead(200, { 'content-type': type });
    res.end(body);
  };
  if (path === '/robots.txt') {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(`User-agent: *\nDisallow: /private/\nSitemap: http://${host}/sitemap_index.xml\n`);
  } else if (path === '/sitemap_index.xml') {
    xml(
      `<sitemapindex><sitemap><loc>http://${host}/s1.xml.gz</loc></sitemap><sitemap><loc>http://${host}/s2.xml</loc></sitemap></sitemapindex>`,
    );
  } else if (path === '/s1.xml.gz') {
    xml(
      gzipSync(
        urlset(['http://site.test/a.html', 'http://site.test/b.html', 'http://site.test/private/p.html']),
      ),
      'application/octet-stream',
    );
  } else if (path === '/s2.xml') {
    xml(urlset(['http://site.test/c.html', 'http://other.test/x.html']));
  } else {
    sendHtml(res, `<html><title>${path}</title><body>a page about crawling at ${path}</body></html>`);
  }
}

function fetchedUrls(dir: string): { url: string; error_code: string | null }[] {
  const db = new Database(join(dir, 'crawl.sqlite'), { readonly: true });
  try {
    return db.prepare('SELECT url, error_code FROM pages ORDER BY url').all() as never;
  } finally {
    db.close();
  }
}

describe('Crawler with sitemaps', () => {
  const base = tempDir('tres-sitemaps-');
  let server: TestServer;
  beforeAll(async () => {});
  afterEach(async () => server?.close());

  const options = (outDir: string, extra: Partial<CrawlerOptions>): CrawlerOptions => ({
    outDir,
    strategy: 'bfs',
    keywords: ['crawling'],
    maxPages: 20,
    maxConcurrency: 2,
    net: { minDelayMs: 40, resolveRules: [server.rule], allowLoopback: true },
    progressIntervalMs: 20,
    ...extra,
  });

  it('crawls the pages listed in robots.txt sitemaps (index, gzip), politely, same host only, robots obeyed', async () => {
    server = await startServer(handler);
    const outDir = join(base, 'on');
    const crawler = new Crawler(options(outDir, { sitemaps: {} }));
    const events: SitemapEvent[] = [];
    crawler.on('sitemap', (e) => events.push(e));
    await crawler.run(['http://site.test/']);
    expect(fetchedUrls(outDir)).toEqual([
      { url: 'http://site.test/', error_code: null },
      { url: 'http://site.test/a.html', error_code: null },
      { url: 'http://site.test/b.html', error_code: null },
      { url: 'http://site.test/c.html', error_code: null },
      { url: 'http://site.test/private/p.html', error_code: 'TRES_ROBOTS_DISALLOWED' },
    ]);
    expect(events.map((e) => [e.url.replace(/^http:\/\/site\.test/, ''), e.kind, e.urls])).toEqual([
      ['/sitemap_index.xml', 'index', 2],
      ['/s1.xml.gz', 'urlset', 3],
      ['/s2.xml', 'urlset', 1],
    ]);
    // The sitemaps are in the WARC file like every response the crawl fetched, bytes as served.
    const responses = (await readWarc(join(outDir, 'pages.warc.gz'))).filter((r) => r.type === 'response');
    const archived = new Map(responses.map((r) => [r.headers.get('warc-target-uri'), r.payload]));
    expect([...archived.keys()].sort()).toEqual([
      'http://site.test/',
      'http://site.test/a.html',
      'http://site.test/b.html',
      'http://site.test/c.html',
      'http://site.test/s1.xml.gz',
      'http://site.test/s2.xml',
      'http://site.test/sitemap_index.xml',
    ]);
    expect(responses).toHaveLength(7);
    expect(gunzipSync(archived.get('http://site.test/s1.xml.gz')!).toString()).toContain(
      '<loc>http://site.test/a.html</loc>',
    );
    // Each page's own range still reads as that page, sitemap records between pages or not.
    const reader = CrawlReader.open(outDir);
    try {
      for (const page of reader.pages()) {
        if (!page.isPage || !page.warcRange) continue;
        const text = readPageText(join(outDir, 'pages.warc.gz'), page.warcRange[0], page.warcRange[1]);
        expect(text).toContain(`a page about crawling at ${new URL(page.url).pathname}`);
      }
    } finally {
      reader.close();
    }
    const seen = server.requests.filter((r) => r.host === 'site.test');
    expect(seen.some((r) => r.path.startsWith('/private/'))).toBe(false);
    expect(server.requests.some((r) => r.host === 'other.test')).toBe(false);
    // One politeness for pages and sitemaps: no two requests to the host closer than minDelayMs.
    for (let i = 1; i < seen.length; i++)
      expect(
        (seen[i] as { atMs: number }).atMs - (seen[i - 1] as { atMs: number }).atMs,
      ).toBeGreaterThanOrEqual(35);
  });

  it('stops at maxSitemaps documents, and reads none when off', async () => {
    server = await startServer(handler);
    const bounded = join(base, 'bounded');
    await new Crawler(options(bounded, { sitemaps: { maxSitemaps: 2 } })).run(['http://site.test/']);
    expect(fetchedUrls(bounded).map((r) => r.url)).not.toContain('http://site.test/c.html');
    expect(fetchedUrls(bounded).map((r) => r.url)).toContain('http://site.test/a.html');
    const off = join(base, 'off');
    await new Crawler(options(off, {})).run(['http://site.test/']);
    expect(fetchedUrls(off).map((r) => r.url)).toEqual(['http://site.test/']);
  });

  it('refuses a bad bound, naming the field', () => {
    expect(
      () => new Crawler({ outDir: join(base, 'bad'), keywords: ['x'], sitemaps: { maxUrls: 0 } }),
    ).toThrow(/sitemaps\.maxUrls must be an integer >= 1/);
  });
});
