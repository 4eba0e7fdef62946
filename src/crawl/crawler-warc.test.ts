import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { Crawler } from '../index.js';
import { sendHtml, startServer, type TestServer } from '../net/test-servers.js';
import { CrawlStore } from '../store/index.js';
import { readWarc } from '../store/test-helpers.js';

/** Page i of site.test: pages 1-3 are over 32 KB (gzipped for the WARC file in the thread pool). */
function page(i: number): string {
  const links = i === 0 ? [1, 2, 3, 4, 5, 6].map((k) => `<a href="/p${k}.html">page ${k}</a>`).join(' ') : '';
  const filler = i >= 1 && i <= 3 ? `<p>${`storage hardware words ${i} `.repeat(1600)}</p>` : '';
  return `<html><title>page ${i}</title><body>about hardware ${links}${filler}</body></html>`;
}

describe('Crawler WARC records', () => {
  let base: string;
  let server: TestServer;
  beforeAll(() => {
    base = mkdtempSync(join(tmpdir(), 'tres-warc-'));
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await server?.close();
  });
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  it('gzips large bodies in the thread pool when fetches overlap, and every page reads back whole', async () => {
    server = await startServer((req, res) => {
      if (req.url === '/robots.txt') return sendHtml(res, '', 404);
      const i = req.url === '/' ? 0 : Number(/\/p(\d)\.html/.exec(req.url ?? '')?.[1]);
      sendHtml(res, page(i));
    });
    const prepared = vi.spyOn(CrawlStore.prototype, 'prepareWarc');
    const outDir = join(base, 'k2');
    await new Crawler({
      outDir,
      strategy: 'bfs',
      keywords: ['hardware'],
      maxPages: 7,
      maxConcurrency: 2,
      net: { minDelayMs: 0, resolveRules: [server.rule], allowLoopback: true },
    }).run(['http://site.test/']);
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
});
