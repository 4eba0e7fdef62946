import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { tempDir } from 'tres-testing/temp-dir';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CrawlerOptions } from '../index.js';
import { Crawler, crawlStrategy } from '../index.js';
import { startServer, type TestServer } from '../net/test-servers.js';
import { scriptSiteHandler } from '../sandbox/index.js';
import { CrawlReader, decodeOutlinks, exportCrawl, rebuildStore } from '../store/index.js';
import { readWarc } from '../store/test-helpers.js';
import { createPageRereader } from './reread-page.js';

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium)
  console.warn(`render crawl test skipped: ${CHROMIUM} is not installed (apt-get install chromium)`);

function rows(dir: string): { url: string; warc_end: number; links: string[] }[] {
  const db = new Database(join(dir, 'crawl.sqlite'), { readonly: true });
  try {
    return (
      db.prepare('SELECT url, warc_end, outlinks FROM pages ORDER BY id').all() as {
        url: string;
        warc_end: number;
        outlinks: Buffer | null;
      }[]
    ).map((r) => ({ url: r.url, warc_end: r.warc_end, links: decodeOutlinks(r.outlinks).map((l) => l.url) }));
  } finally {
    db.close();
  }
}

function urls(dir: string): string[] {
  const db = new Database(join(dir, 'crawl.sqlite'), { readonly: true });
  try {
    return (
      db.prepare('SELECT url FROM pages WHERE is_page = 1 ORDER BY url').all() as { url: string }[]
    ).map((r) => r.url);
  } finally {
    db.close();
  }
}

describe.skipIf(!hasChromium)('Crawler with render', () => {
  const base = tempDir('tres-render-');
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(scriptSiteHandler(5));
  });
  afterAll(async () => {
    await server?.close();
  });
  const options = (outDir: string, extra: Partial<CrawlerOptions>): CrawlerOptions => ({
    outDir,
    strategy: 'bfs',
    keywords: ['crawling'],
    maxPages: 10,
    maxConcurrency: 2,
    net: { minDelayMs: 0, resolveRules: [server.rule], allowLoopback: true },
    progressIntervalMs: 20,
    ...extra,
  });

  it('finds the links a script makes only when rendering, for the listed hosts only', async () => {
    const plain = join(base, 'plain');
    await new Crawler(options(plain, {})).run(['http://js.test/']);
    expect(urls(plain)).toEqual(['http://js.test/']);
    const rendered = join(base, 'rendered');
    await new Crawler(options(rendered, { render: { hosts: ['js.test'] } })).run(['http://js.test/']);
    expect(urls(rendered)).toEqual([
      'http://js.test/',
      'http://js.test/?p=1',
      'http://js.test/?p=2',
      'http://js.test/?p=3',
      'http://js.test/?p=4',
    ]);
    const other = join(base, 'other-host');
    await new Crawler(options(other, { render: { hosts: ['elsewhere.test'] } })).run(['http://js.test/']);
    expect(urls(other)).toEqual(['http://js.test/']);
  }, 120_000);

  it("keeps each rendered document in the WARC file as a conversion record of the page's response, exports its text, and repair reads its links from it", async () => {
    const outDir = join(base, 'exported');
    const crawlOptions = options(outDir, { render: {}, maxPages: 2 });
    await new Crawler(crawlOptions).run(['http://js.test/']);
    const records = await readWarc(join(outDir, 'pages.warc.gz'));
    const responses = records.filter((r) => r.type === 'response');
    const conversions = records.filter((r) => r.type === 'conversion');
    expect(conversions).toHaveLength(2);
    for (const conversion of conversions) {
      const uri = conversion.headers.get('warc-target-uri');
      const response = responses.find((r) => r.headers.get('warc-target-uri') === uri);
      // The response is the page as fetched (no link in it); the conversion its document after the script.
      expect(conversion.headers.get('warc-refers-to')).toBe(response?.headers.get('warc-record-id'));
      expect(conversion.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response?.payload.toString()).toContain('<p id="state">shell</p>');
      expect(conversion.payload.toString()).toContain('<p id="state">rendered</p>');
    }
    const reader = CrawlReader.open(outDir);
    let out = '';
    try {
      await exportCrawl(reader, { format: 'jsonl', withText: true, withOutlinks: false }, async (c) => {
        out += c;
      });
    } finally {
      reader.close();
    }
    const root = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { url: string; text: string })
      .find((p) => p.url === 'http://js.test/');
    expect(root?.text).toContain('crawling page /?p=1');
    expect(root?.text).toContain('rendered');
    // tres repair: each row's WARC range ends after its conversion record, its links come back.
    const before = rows(outDir);
    expect(before[0]?.links).toEqual(['http://js.test/?p=1', 'http://js.test/?p=2']);
    for (const file of ['crawl.sqlite', 'crawl.sqlite-wal', 'crawl.sqlite-shm'])
      rmSync(join(outDir, file), { force: true });
    const result = await rebuildStore(outDir, {
      rereaderFor: async () =>
        createPageRereader({
          ...crawlOptions,
          strategy: crawlStrategy({ strategy: 'bfs', seed: 0, keywords: ['crawling'] }),
        }),
    });
    expect([result.status, result.rereadRows]).toEqual(['rebuilt', 2]);
    expect(rows(outDir)).toEqual(before);
  }, 120_000);
});
