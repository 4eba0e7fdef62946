import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from 'tres-testing/temp-dir';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Crawler, type CrawlerOptions } from '../index.js';
import { sendHtml, startServer, type TestServer } from '../net/test-servers.js';
import type { JsonlPage } from '../store/index.js';
import { CrawlReader, exportCrawl } from '../store/index.js';

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('IHDR page words <a href="/from-png">x</a> '.repeat(20), 'latin1'),
]);

/** A site whose home links to pages each showing one indexing directive; each links to /leaf-<name>. */
function site(): Parameters<typeof startServer>[0] {
  return (req, res) => {
    const path = req.url ?? '/';
    // Words of its own on each page, so no page is a near copy of another (copies' links are dropped).
    const leaf = `${path.split(/[-/]/).join(' words ')} <a href="/leaf${path.replace(/\//g, '-')}">leaf</a>`;
    switch (path) {
      case '/robots.txt':
        res.writeHead(404).end();
        return;
      case '/':
        sendHtml(
          res,
          `<html><title>home page</title><body>${[
            'header-none',
            'header-for-us',
            'header-for-other',
            'meta-noindex',
            'canonical',
            'png',
            'long',
          ]
            .map((p) => `<a href="/${p}">${p}</a>`)
            .join(' ')}</body></html>`,
        );
        return;
      case '/header-none':
        sendHtml(res, `<html><title>secret page</title><body>page ${leaf}</body></html>`, 200, {
          'x-robots-tag': 'noindex, nofollow',
        });
        return;
      case '/header-for-us':
        sendHtml(res, `<html><title>t</title><body>page ${leaf}</body></html>`, 200, {
          'x-robots-tag': 'otherbot: noarchive, TRES: none',
        });
        return;
      case '/header-for-other':
        sendHtml(res, `<html><title>t</title><body>page ${leaf}</body></html>`, 200, {
          'x-robots-tag': 'otherbot: noindex, nofollow',
        });
        return;
      case '/meta-noindex':
        sendHtml(
          res,
          `<html><head><meta name="robots" content="noindex"><title>hidden</title></head><body>page ${leaf}</body></html>`,
        );
        return;
      case '/canonical':
        sendHtml(
          res,
          `<html><head><link rel="canonical" href="/the-original"><title>c</title></head><body>page ${leaf}</body></html>`,
        );
        return;
      case '/png':
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(PNG);
        return;
      case '/long':
        sendHtml(
          res,
          `<html><title>long</title><body>${'page words '.repeat(50)} ${Array.from({ length: 12 }, (_, i) => `<a href="/many${i}">m</a>`).join('')}</body></html>`,
        );
        return;
      default:
        sendHtml(res, `<html><title>${path}</title><body>page ${path}</body></html>`);
    }
  };
}

function lines(outDir: string): Map<string, JsonlPage & { directives?: string[]; canonicalUrl?: string }> {
  const text = readFileSync(join(outDir, 'pages.jsonl'), 'utf8').trim().split('\n');
  return new Map(text.map((l) => JSON.parse(l)).map((p) => [new URL(p.url).pathname, p]));
}

describe('Crawler and the indexing directives of pages', () => {
  const base = tempDir('tres-indexing-');
  let server: TestServer | undefined;
  beforeAll(() => {});
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  async function crawl(name: string, extra: Partial<CrawlerOptions> = {}) {
    server = await startServer(site());
    const outDir = join(base, name);
    const crawler = new Crawler({
      outDir,
      strategy: 'bfs',
      keywords: ['page'],
      maxPages: 100,
      maxConcurrency: 2,
      net: { minDelayMs: 0, resolveRules: [server.rule], allowLoopback: true },
      ...extra,
    });
    await crawler.run(['http://a.test/']);
    return lines(outDir);
  }

  it('honours X-Robots-Tag noindex/nofollow/none for our token or for all, and meta robots noindex', async () => {
    const pages = await crawl('directives');
    const none = pages.get('/header-none');
    expect(none?.directives).toEqual(['noindex', 'nofollow']);
    expect(none?.title).toBeUndefined(); // a noindex page's title is not kept
    expect(pages.has('/leaf-header-none')).toBe(false);
    expect(pages.get('/header-for-us')?.directives).toEqual(['noindex', 'nofollow']);
    expect(pages.has('/leaf-header-for-us')).toBe(false);
    expect(pages.get('/header-for-other')?.directives).toBeUndefined();
    expect(pages.has('/leaf-header-for-other')).toBe(true);
    // noindex alone: judged and its links followed, but not kept as a page of the index.
    expect(pages.get('/meta-noindex')?.directives).toEqual(['noindex']);
    expect(pages.has('/leaf-meta-noindex')).toBe(true);
    // The store keeps every attempt; the export leaves the noindex pages out.
    const reader = CrawlReader.open(join(base, 'directives'));
    let exported = '';
    try {
      await exportCrawl(reader, { format: 'jsonl' }, async (chunk) => {
        exported += chunk;
      });
    } finally {
      reader.close();
    }
    const urls = exported
      .trim()
      .split('\n')
      .map((l) => new URL(JSON.parse(l).url).pathname);
    expect(urls).toContain('/header-for-other');
    expect(urls).not.toContain('/header-none');
    expect(urls).not.toContain('/meta-noindex');
  });

  it('records <link rel=canonical>, refuses a binary body served as text/html, and records the caps hit', async () => {
    const pages = await crawl('caps', { maxTextChars: 100, maxLinksPerPage: 8 });
    expect(pages.get('/canonical')?.canonicalUrl).toBe('http://a.test/the-original');
    expect(pages.has('/the-original')).toBe(false); // recorded, not enqueued
    const png = pages.get('/png');
    expect(png?.isPage).toBe(false);
    expect(png?.errorCode).toBe('TRES_BINARY_BODY');
    expect(pages.has('/from-png')).toBe(false);
    const long = pages.get('/long');
    expect(long?.directives).toEqual(['text-capped', 'links-capped']);
    expect([...pages.keys()].filter((p) => p.startsWith('/many'))).toHaveLength(8);
  });

  it('follows every link and keeps every text with the caps and noindex turned off', async () => {
    const pages = await crawl('off', {
      maxTextChars: false,
      maxLinksPerPage: false,
      shouldObeyNoindex: false,
    });
    expect(pages.get('/long')?.directives).toBeUndefined();
    expect([...pages.keys()].filter((p) => p.startsWith('/many'))).toHaveLength(12);
    expect(pages.get('/meta-noindex')?.title).toBe('hidden');
  });
});
