import { join } from 'node:path';
import Database from 'better-sqlite3';
import { tempDir } from 'tres-testing/temp-dir';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { Crawler } from '../index.js';
import { sendHtml, startServer, type TestServer } from '../net/test-servers.js';
import { CrawlStore, decodeOutlinks } from '../store/index.js';
import { readWarc } from '../store/test-helpers.js';

/** Page i of site.test: pages 1-3 are over 32 KB (gzipped for the WARC file in the thread pool). */
function page(i: number): string {
  const links = i === 0 ? [1, 2, 3, 4, 5, 6].map((k) => `<a href="/p${k}.html">page ${k}</a>`).join(' ') : '';
  const filler = i >= 1 && i <= 3 ? `<p>${`storage hardware words ${i} `.repeat(1600)}</p>` : '';
  return `<html><title>page ${i}</title><body>about hardware ${links}${filler}</body></html>`;
}

/** A bfs crawl of `maxPages` pages from site.test, two fetches at a time, into `outDir`. */
function crawl(server: TestServer, outDir: string, maxPages: number): Promise<unknown> {
  return new Crawler({
    outDir,
    strategy: 'bfs',
    keywords: ['hardware'],
    maxPages,
    maxConcurrency: 2,
    net: { minDelayMs: 0, resolveRules: [server.rule], allowLoopback: true },
  }).run(['http://site.test/']);
}

describe('Crawler WARC records', () => {
  const base = tempDir('tres-warc-');
  let server: TestServer;
  beforeAll(() => {});
  afterEach(async () => {
    vi.restoreAllMocks();
    await server?.close();
  });

  it('gzips large bodies in the thread pool when fetches overlap, and every page reads back whole', async () => {
    server = await startServer((req, res) => {
      if (req.url === '/robots.txt') return sendHtml(res, '', 404);
      const i = req.url === '/' ? 0 : Number(/\/p(\d)\.html/.exec(req.url ?? '')?.[1]);
      sendHtml(res, page(i));
    });
    const prepared = vi.spyOn(CrawlStore.prototype, 'prepareWarc');
    const outDir = join(base, 'k2');
    await crawl(server, outDir, 7);
    expect(prepared.mock.calls.map(([exchange]) => exchange.url).sort()).toEqual(
      [1, 2, 3].map((k) => `http://site.test/p${k}.html`),
    );
    const db = new Database(join(outDir, 'crawl.sqlite'), { readonly: true });
    const rows = db.prepare('SELECT url, probability FROM pages').all() as {
      url: string;
      probability: number;
    }[];
    db.close();
    expect(rows).toHaveLength(7);
    const responses = (await readWarc(join(outDir, 'pages.warc.gz'))).filter((r) => r.type === 'response');
    for (const row of rows) {
      const record = responses.find((r) => r.headers.get('warc-target-uri') === row.url);
      const i = row.url.endsWith('/') ? 0 : Number(/p(\d)/.exec(row.url)?.[1]);
      expect(record?.payload.toString('utf8')).toBe(page(i));
      expect(Number(record?.headers.get('warc-tres-relevance'))).toBe(row.probability);
    }
  });

  it("records a large page's links without the pages recorded while its WARC records were gzipped", async () => {
    // The seed links to big.test (over 32 KB) and a.html on another site; a.html links to b.html,
    // as big.test does. big.test's gzip waits until a.html and b.html are recorded (one fetch at a
    // time per host: they are on site.test, big.test on its own): its row comes after b's.
    const big = `<html><body>hardware <a href="http://site.test/b.html">b</a> ${'<p>hardware words</p>'.repeat(2500)}</body></html>`;
    const bodies: Record<string, string> = {
      'site.test/':
        '<html><body>hardware <a href="http://big.test/">big</a> <a href="/a.html">a</a></body></html>',
      'big.test/': big,
      'site.test/a.html': '<html><body>hardware <a href="/b.html">b</a></body></html>',
      'site.test/b.html': '<html><body>hardware</body></html>',
    };
    server = await startServer((req, res) => {
      const body = bodies[`${req.headers.host?.replace(/:\d+$/, '')}${req.url}`];
      if (body === undefined) return sendHtml(res, '', 404);
      // a.html comes late, so that big.test is parsed before b.html is known to the crawl.
      if (req.url === '/a.html') setTimeout(() => sendHtml(res, body), 300);
      else sendHtml(res, body);
    });
    const prepare = CrawlStore.prototype.prepareWarc;
    vi.spyOn(CrawlStore.prototype, 'prepareWarc').mockImplementation(async function (
      this: CrawlStore,
      ...args
    ) {
      for (let waited = 0; this.lastPageId < 3 && waited < 5000; waited += 10)
        await new Promise((resolve) => setTimeout(resolve, 10));
      return prepare.apply(this, args);
    });
    const outDir = join(base, 'late');
    await crawl(server, outDir, 4);
    const db = new Database(join(outDir, 'crawl.sqlite'), { readonly: true });
    const rows = db.prepare('SELECT url, outlinks FROM pages ORDER BY id').all() as {
      url: string;
      outlinks: Buffer | null;
    }[];
    db.close();
    expect(rows.map((r) => r.url)).toEqual([
      'http://site.test/',
      'http://site.test/a.html',
      'http://site.test/b.html',
      'http://big.test/',
    ]);
    // Before the fix big.test's row held b.html, recorded before it: a resumed crawl's replay and
    // `tres repair` (which leaves out links to pages recorded before a row) disagreed.
    for (const [i, row] of rows.entries()) {
      const earlier = new Set(rows.slice(0, i).map((r) => r.url));
      expect(decodeOutlinks(row.outlinks).filter((l) => earlier.has(l.url))).toEqual([]);
    }
  });
});
