import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { tempDir } from 'tres-testing/temp-dir';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SkipUrlError } from '../common/index.js';
import { Crawler } from '../index.js';
import type { PageFetch } from '../net/index.js';
import { type Sandbox, type SiteSource, sandboxResolveRules, serveSandbox } from '../sandbox/index.js';
import { processFetch } from './process-fetch.js';

/** 1,000,000 nested `<div>` (5 MB, under the 5 MiB body cap) froze a crawl for 12+ minutes. */
const DEEP_PAGE = `<html><body><a href="/after-deep.html">after</a>${'<div>'.repeat(1_000_000)}deep`;

function sendHtml(res: ServerResponse, html: string): void {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(html);
}

function page(title: string, links: string[]): string {
  return `<html><head><title>${title}</title></head><body><p>${title} page</p>${links
    .map((href) => `<a href="${href}">${href}</a>`)
    .join(' ')}</body></html>`;
}

/** deep.test serves the deep page among plain ones; other.test is another host with 6 pages. */
const SITES: SiteSource[] = [
  {
    host: 'deep.test',
    handle: (_req, res, relPath) => {
      if (relPath === 'deep.html') sendHtml(res, DEEP_PAGE);
      else if (relPath === '')
        sendHtml(res, page('index', ['/deep.html', '/a.html', 'http://other.test/0.html']));
      else sendHtml(res, page(relPath, []));
    },
  },
  {
    host: 'other.test',
    handle: (_req, res, relPath) => {
      const n = Number.parseInt(relPath, 10);
      sendHtml(res, page(`other ${n}`, n < 5 ? [`/${n + 1}.html`] : []));
    },
  },
];

interface Row {
  url: string;
  status: number;
  error_code: string | null;
}

describe('a crawl meeting a page of 1,000,000 nested divs', () => {
  let sandbox: Sandbox;
  const base = tempDir('tres-deep-');
  beforeAll(async () => {
    sandbox = await serveSandbox({ folders: SITES });
  });
  afterAll(async () => {
    await sandbox.close();
  });

  it('records the deep page and fetches every other page, in seconds', async () => {
    const outDir = join(base, 'crawl');
    const crawler = new Crawler({
      outDir,
      keywords: ['deep', 'other'],
      strategy: 'bfs',
      maxPages: 50,
      maxConcurrency: 4,
      timeLimitMs: 60_000,
      net: { minDelayMs: 0, resolveRules: sandboxResolveRules(sandbox.server), allowLoopback: true },
    });
    const start = performance.now();
    const summary = await crawler.run(['http://deep.test/']);
    const seconds = (performance.now() - start) / 1000;
    expect(summary.stopReason).toBe('frontier-empty');
    expect(seconds).toBeLessThan(30);
    const db = new Database(join(outDir, 'crawl.sqlite'), { readonly: true });
    const rows = db.prepare('SELECT url, status, error_code FROM pages').all() as Row[];
    db.close();
    const byUrl = new Map(rows.map((r) => [r.url, r]));
    // Parsed within its budget (its link followed), or recorded with TRES_PARSE_TIMEOUT.
    const deep = byUrl.get('http://deep.test/deep.html');
    expect(deep?.status).toBe(200);
    expect([null, 'TRES_PARSE_TIMEOUT']).toContain(deep?.error_code);
    if (deep?.error_code === null) expect(byUrl.get('http://deep.test/after-deep.html')?.status).toBe(200);
    for (const url of ['http://deep.test/', 'http://deep.test/a.html'])
      expect(byUrl.get(url)).toEqual({ url, status: 200, error_code: null });
    for (let n = 0; n <= 5; n++)
      expect(byUrl.get(`http://other.test/${n}.html`)?.status, `other.test/${n}.html`).toBe(200);
  }, 60_000);

  it('records the deep page as TRES_PARSE_TIMEOUT when the crawl\u2019s parseTimeBudgetMs is too short, and goes on', async () => {
    const outDir = join(base, 'short-budget');
    const crawler = new Crawler({
      outDir,
      keywords: ['deep', 'other'],
      strategy: 'bfs',
      maxPages: 50,
      maxConcurrency: 4,
      parseTimeBudgetMs: 1,
      net: { minDelayMs: 0, resolveRules: sandboxResolveRules(sandbox.server), allowLoopback: true },
    });
    const summary = await crawler.run(['http://deep.test/']);
    const db = new Database(join(outDir, 'crawl.sqlite'), { readonly: true });
    const rows = db.prepare('SELECT url, status, error_code FROM pages').all() as Row[];
    db.close();
    const deep = rows.find((r) => r.url === 'http://deep.test/deep.html');
    expect(deep).toEqual({
      url: 'http://deep.test/deep.html',
      status: 200,
      error_code: 'TRES_PARSE_TIMEOUT',
    });
    expect(summary.stopReason).toBe('frontier-empty');
    expect(rows.filter((r) => r.url.startsWith('http://other.test/'))).toHaveLength(6);
  }, 60_000);
});

describe('processFetch', () => {
  it('fails a page it cannot parse within parseTimeBudgetMs with TRES_PARSE_TIMEOUT and its status', async () => {
    const fetched = {
      finalUrl: 'http://deep.test/deep.html',
      result: {
        url: 'http://deep.test/deep.html',
        status: 200,
        contentType: 'text/html',
        text: DEEP_PAGE,
        body: Buffer.from(''),
      },
    } as unknown as PageFetch;
    const action = { url: 'http://deep.test/deep.html', host: 'deep.test', domain: 'deep.test', depth: 1 };
    const error = await processFetch(fetched, action as never, {
      judge: { scorePages: async () => [0], scoreAnchors: async () => [] } as never,
      threshold: 0.5,
      links: {} as never,
      shouldFollowNofollow: false,
      withLinkContext: false,
      shouldScoreAnchors: false,
      isKnown: () => false,
      parseTimeBudgetMs: 0.001,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SkipUrlError);
    expect(error).toMatchObject({
      code: 'TRES_PARSE_TIMEOUT',
      context: { url: 'http://deep.test/deep.html', status: 200 },
    });
  });
});
