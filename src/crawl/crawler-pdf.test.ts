import { join } from 'node:path';
import Database from 'better-sqlite3';
import { makeHungryPdf, makePdf } from 'tres-testing';
import { tempDir } from 'tres-testing/temp-dir';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CrawlerOptions } from '../index.js';
import { Crawler } from '../index.js';
import { sendHtml, startServer, type TestServer } from '../net/test-servers.js';
import { CrawlReader, exportCrawl } from '../store/index.js';
import { readWarc } from '../store/test-helpers.js';

const PAPER = makePdf({
  title: 'Focused crawling with reinforcement learning',
  pages: [
    { lines: ['We study focused crawling of research data.'], links: ['/found-in-pdf.html'] },
    { lines: ['The crawler learns where to crawl.'] },
  ],
});

const HEAVY = makeHungryPdf('long-string', 2_000_000);
const BOMB = makeHungryPdf('inflating', 32 * 2 ** 20);

/**
 * papers.test: a home page linking to a PDF and a broken PDF; the PDF links to a page nothing
 * else links to. /heavy/ links to two small PDFs that need more memory than the test's caps.
 */
function handler(req: { url?: string }, res: Parameters<typeof sendHtml>[0]): void {
  const path = req.url ?? '/';
  const pdf = (body: Buffer) => {
    res.writeHead(200, { 'content-type': 'application/pdf' });
    res.end(body);
  };
  if (path === '/robots.txt') res.writeHead(404).end();
  else if (path === '/paper.pdf') pdf(PAPER);
  else if (path === '/heavy.pdf') pdf(HEAVY);
  else if (path === '/bomb.pdf') pdf(BOMB);
  else if (path === '/heavy/')
    sendHtml(
      res,
      '<html><title>heavy</title><body><a href="/heavy.pdf">a</a> <a href="/bomb.pdf">b</a> <a href="/paper.pdf">c</a></body></html>',
    );
  else if (path === '/broken.pdf') pdf(Buffer.from('%PDF-1.4\nthis is no PDF\n%%EOF\n'));
  else if (path === '/')
    sendHtml(
      res,
      '<html><title>home</title><body><a href="/paper.pdf">paper</a> <a href="/broken.pdf">x</a></body></html>',
    );
  else sendHtml(res, `<html><title>${path}</title><body>a crawling page at ${path}</body></html>`);
}

interface Row {
  url: string;
  is_page: number;
  title: string | null;
  reward: number;
  error_code: string | null;
}

function rows(dir: string): Row[] {
  const db = new Database(join(dir, 'crawl.sqlite'), { readonly: true });
  try {
    return db
      .prepare('SELECT url, is_page, title, reward, error_code FROM pages ORDER BY url')
      .all() as Row[];
  } finally {
    db.close();
  }
}

describe('Crawler with PDFs', () => {
  const base = tempDir('tres-pdf-');
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(handler);
  });
  afterAll(async () => {
    await server.close();
  });
  const options = (outDir: string, extra: Partial<CrawlerOptions> = {}): CrawlerOptions => ({
    outDir,
    strategy: 'bfs',
    keywords: ['crawling'],
    maxPages: 10,
    maxConcurrency: 2,
    net: { minDelayMs: 0, resolveRules: [server.rule], allowLoopback: true },
    progressIntervalMs: 20,
    ...extra,
  });

  it('follows a .pdf link, judges its text, follows its links, keeps it in the WARC and exports its text', async () => {
    const outDir = join(base, 'on');
    await new Crawler(options(outDir)).run(['http://papers.test/']);
    expect(rows(outDir)).toEqual([
      { url: 'http://papers.test/', is_page: 1, title: 'home', reward: 0, error_code: null },
      {
        url: 'http://papers.test/broken.pdf',
        is_page: 0,
        title: '',
        reward: 0,
        error_code: 'TRES_PDF_INVALID',
      },
      {
        url: 'http://papers.test/found-in-pdf.html',
        is_page: 1,
        title: '/found-in-pdf.html',
        reward: 0,
        error_code: null,
      },
      {
        url: 'http://papers.test/paper.pdf',
        is_page: 1,
        title: 'Focused crawling with reinforcement learning',
        reward: 1,
        error_code: null,
      },
    ]);
    const reader = CrawlReader.open(outDir);
    let out = '';
    try {
      await exportCrawl(reader, { format: 'jsonl', withText: true, withOutlinks: false }, async (c) => {
        out += c;
      });
    } finally {
      reader.close();
    }
    const exported = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { url: string; text: string; contentType: string });
    const paper = exported.find((p) => p.url.endsWith('/paper.pdf'));
    expect(paper?.text).toBe(
      'We study focused crawling of research data.\nThe crawler learns where to crawl.',
    );
    expect(paper?.contentType).toBe('application/pdf');
    // The unreadable PDF's bytes are archived too: it has a WARC range like any response.
    expect(exported.find((p) => p.url.endsWith('/broken.pdf'))).toBeDefined();
  });

  it('records a PDF past the heap or buffer cap as TRES_PDF_TOO_BIG, stores it, and goes on reading PDFs in a fresh child process', async () => {
    const outDir = join(base, 'heavy');
    const crawler = new Crawler(
      options(outDir, { maxConcurrency: 1, pdf: { maxHeapMb: 32, maxBufferMb: 4 } }),
    );
    const failures: string[] = [];
    crawler.on('failure', (f) => failures.push(`${f.url} ${f.code}`));
    await crawler.run(['http://papers.test/heavy/']);
    expect(rows(outDir).map((r) => [r.url, r.error_code, r.reward])).toEqual([
      ['http://papers.test/bomb.pdf', 'TRES_PDF_TOO_BIG', 0],
      ['http://papers.test/found-in-pdf.html', null, 0],
      ['http://papers.test/heavy.pdf', 'TRES_PDF_TOO_BIG', 0],
      ['http://papers.test/heavy/', null, 0],
      ['http://papers.test/paper.pdf', null, 1],
    ]);
    // Both are in the WARC file whole, unread, like any response the crawl fetched.
    const responses = (await readWarc(join(outDir, 'pages.warc.gz'))).filter((r) => r.type === 'response');
    const payload = (url: string) => responses.find((r) => r.headers.get('warc-target-uri') === url)?.payload;
    expect(payload('http://papers.test/heavy.pdf')?.equals(HEAVY)).toBe(true);
    expect(payload('http://papers.test/bomb.pdf')?.equals(BOMB)).toBe(true);
  });

  it('takes a .pdf seed', async () => {
    const outDir = join(base, 'seed');
    await new Crawler(options(outDir, { maxPages: 2 })).run(['http://papers.test/paper.pdf']);
    expect(rows(outDir).map((r) => [r.url, r.is_page])).toEqual([
      ['http://papers.test/found-in-pdf.html', 1],
      ['http://papers.test/paper.pdf', 1],
    ]);
  });

  it('with pdf: false, leaves .pdf links out and refuses a crawl whose only seed is a PDF, saying why', async () => {
    const outDir = join(base, 'off');
    await new Crawler(options(outDir, { pdf: false })).run(['http://papers.test/']);
    expect(rows(outDir).map((r) => r.url)).toEqual(['http://papers.test/']);
    await expect(
      new Crawler(options(join(base, 'off-seed'), { pdf: false })).run(['http://papers.test/a.pdf']),
    ).rejects.toThrow(
      "no seed is in the crawl's scope (http://papers.test/a.pdf: its extension .pdf is in excludedExtensions (files tres does not read)); change the seeds or the URL filter",
    );
  });
});
