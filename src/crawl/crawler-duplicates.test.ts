import { join } from 'node:path';
import Database from 'better-sqlite3';
import { tempDir } from 'tres-testing/temp-dir';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRng } from '../common/index.js';
import type { CrawlerOptions } from '../index.js';
import { Crawler } from '../index.js';
import { sendHtml, startServer, type TestServer } from '../net/test-servers.js';
import { sandboxResolveRules, startReplayServer } from '../sandbox/index.js';

interface Row {
  url: string;
  reward: number;
  duplicate_of: number | null;
  outlinks: Buffer | null;
}

function rows(dir: string): Row[] {
  const db = new Database(join(dir, 'crawl.sqlite'), { readonly: true });
  try {
    return db.prepare('SELECT url, reward, duplicate_of, outlinks FROM pages ORDER BY id').all() as Row[];
  } finally {
    db.close();
  }
}

/** A long relevant text (GPU words throughout) with word `i` replaced when asked. */
function gpuText(change?: number): string {
  const rng = createRng(5);
  const words = Array.from({ length: 1500 }, (_, i) =>
    i % 10 === 0 ? 'gpu' : `w${Math.floor(rng.next() * 500).toString(36)}`,
  );
  if (change !== undefined) words[change] = 'different';
  return words.join(' ');
}

const PAGES: Record<string, string> = {
  '/': '<title>start</title><a href="/docs/">a</a> <a href="/docs/index.html">b</a> <a href="/copy.html">c</a> <a href="/near.html">d</a> <a href="/other.html">e</a>',
  '/docs/': `<title>GPU guide</title><p>${gpuText()}</p><a href="more.html">more</a>`,
  '/docs/index.html': `<title>GPU guide</title><p>${gpuText()}</p><a href="more.html">more</a>`,
  '/copy.html': `<html><title>gpu GUIDE</title><body><div>${gpuText().replaceAll(' ', '\n  ')}</div><b>More</b></body></html>`,
  '/near.html': `<title>GPU guide</title><p>${gpuText(700)}</p>`,
  '/other.html': '<title>GPU cooling</title><p>gpu fans gpu heat gpu paste gpu airflow and more gpu</p>',
  '/docs/more.html': '<title>more</title><p>gpu gpu gpu</p>',
};

describe('Crawler and duplicate pages', () => {
  const base = tempDir('tres-dups-');
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer((req, res) => {
      const html = PAGES[req.url ?? ''];
      if (html === undefined) res.writeHead(404).end();
      else sendHtml(res, html);
    });
  });
  afterAll(async () => {
    await server.close();
  });

  const options = (outDir: string, extra: Partial<CrawlerOptions> = {}): CrawlerOptions => ({
    outDir,
    strategy: 'bfs',
    keywords: ['gpu'],
    maxPages: 50,
    maxConcurrency: 1,
    net: { minDelayMs: 0, resolveRules: [server.rule], allowLoopback: true, respectRobotsTxt: false },
    ...extra,
  });

  it('records exact and near copies as duplicates with reward 0, and keeps them out of relevant pages', async () => {
    const outDir = join(base, 'all');
    const duplicateEvents: string[] = [];
    const crawler = new Crawler(options(outDir));
    crawler.on('page', (p) => {
      if (p.duplicateOf !== undefined) duplicateEvents.push(`${p.url} -> ${p.duplicateOf}`);
    });
    const summary = await crawler.run(['http://dup.test/']);
    const stored = rows(outDir);
    const byUrl = new Map(stored.map((r, i) => [r.url, { ...r, id: i + 1 }]));
    const original = byUrl.get('http://dup.test/docs/')!;
    expect(original.duplicate_of).toBeNull();
    expect(original.reward).toBe(1);
    for (const copy of ['/docs/index.html', '/copy.html', '/near.html']) {
      expect(byUrl.get(`http://dup.test${copy}`)).toMatchObject({ duplicate_of: original.id, reward: 0 });
    }
    expect(duplicateEvents).toEqual([
      'http://dup.test/docs/index.html -> http://dup.test/docs/',
      'http://dup.test/copy.html -> http://dup.test/docs/',
      'http://dup.test/near.html -> http://dup.test/docs/',
    ]);
    // docs/, other.html and docs/more.html are the distinct relevant pages.
    expect({ relevant: summary.relevant, duplicates: summary.duplicates, steps: summary.steps }).toEqual({
      relevant: 3,
      duplicates: 3,
      steps: 7,
    });
    // An exact copy hands on no links (they respell the original's); the original does.
    expect(byUrl.get('http://dup.test/docs/index.html')!.outlinks).toBeNull();
    expect(original.outlinks).not.toBeNull();
  });

  it('still knows the pages it holds after a resume', async () => {
    const outDir = join(base, 'resumed');
    await new Crawler(options(outDir, { maxPages: 2 })).run(['http://dup.test/']);
    const summary = await new Crawler(options(outDir, { isResume: true })).run();
    expect(summary.duplicates).toBe(3);
    expect(summary.relevant).toBe(3);
    expect(rows(outDir).filter((r) => r.duplicate_of !== null)).toHaveLength(3);
  });

  it('with nearDuplicateBits false counts only exact copies', async () => {
    const outDir = join(base, 'exact-only');
    const summary = await new Crawler(options(outDir, { nearDuplicateBits: false })).run([
      'http://dup.test/',
    ]);
    expect(summary.duplicates).toBe(2);
  });

  it('on a web with one scheme per host, reaches each page once whether its links say http or https', async () => {
    const replay = await startReplayServer({
      canonicalScheme: 'https',
      sites: [
        {
          host: 'one.test',
          handle: (req, res) => {
            const body =
              req.url === '/'
                ? '<a href="http://one.test/a.html">a</a> <a href="https://one.test/a.html">a</a> <a href="/b.html">b</a>'
                : `<title>${req.url}</title><p>gpu page ${req.url}</p>`;
            res.writeHead(200, { 'content-type': 'text/html' }).end(body);
          },
        },
      ],
    });
    try {
      const outDir = join(base, 'one-scheme');
      const summary = await new Crawler({
        ...options(outDir),
        net: {
          minDelayMs: 0,
          resolveRules: sandboxResolveRules(replay),
          allowLoopback: true,
          isHttpsAsHttp: true,
          respectRobotsTxt: false,
        },
      }).run(['http://one.test/']);
      const db = new Database(join(outDir, 'crawl.sqlite'), { readonly: true });
      const finals = (db.prepare('SELECT final_url FROM pages').all() as { final_url: string }[]).map(
        (r) => r.final_url,
      );
      db.close();
      expect(finals.sort()).toEqual([
        'https://one.test/',
        'https://one.test/a.html',
        'https://one.test/b.html',
      ]);
      expect(summary.duplicates).toBe(0);
      expect(replay.stats().schemeRedirects).toBeGreaterThan(0);
    } finally {
      await replay.close();
    }
  });
});
