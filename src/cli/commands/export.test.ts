/**
 * `tres export`, the outlinks table and the crawl command `sandbox serve` prints. In-process runs against a small sandbox web on loopback.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { tempDir } from 'tres-testing/temp-dir';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keywordsOf, type Sandbox, serveSandbox } from '../../sandbox/index.js';
import { CrawlStore, decodeOutlinks } from '../../store/index.js';
import { runMain } from '../test-cli.js';
import { crawlCommandFor } from './sandbox.js';

const TOPIC = 'jazz music';

function folderHash(dir: string): string {
  const hash = createHash('sha256');
  for (const name of readdirSync(dir).sort()) hash.update(name).update(readFileSync(join(dir, name)));
  return hash.digest('hex');
}

/**
 * The argument list of the `tres crawl` command in a shell line, run by sh with `tres` and
 * `npx tres` (what the README's set-up gives) stubbed.
 */
function shellArgs(line: string, cwd: string): string[] {
  const stubs = `tres() { printf '%s\\0' "$@"; }; npx() { [ "$1" = tres ] && shift && tres "$@"; };`;
  const out = execFileSync('sh', ['-c', `${stubs} ${line}`], {
    cwd,
    encoding: 'utf8',
  });
  return out.split('\0').slice(0, -1);
}

describe('tres export', () => {
  let sandbox: Sandbox;
  const base = tempDir('tres-export-');
  let crawl: string;

  beforeAll(async () => {
    sandbox = await serveSandbox({
      web: { seed: 11, hostCount: 6, pageCount: 500, topics: [TOPIC, 'gardening plants'] },
    });
    // The crawl command `sandbox serve` prints, run as printed (seeds file made by its printf).
    const line = crawlCommandFor(sandbox, base);
    expect(line).toContain('npx tres crawl --seeds'); // `tres` is not on the PATH after `npm install`
    const args = shellArgs(line, base);
    const seeds = 'crawls/sandbox1-seeds.txt';
    expect(args.slice(0, 5)).toEqual(['crawl', '--seeds', seeds, '--out', 'crawls/sandbox1']);
    expect(args).toContain(keywordsOf(TOPIC).join(','));
    crawl = join(base, 'crawls/sandbox1');
    const run = await runMain([
      ...args.map((a) => (a === seeds ? join(base, a) : a === 'crawls/sandbox1' ? crawl : a)),
      '--max-pages',
      '40',
      '--concurrency',
      '4',
      '--quiet',
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
  });
  afterAll(async () => {
    await sandbox.close();
  });

  it('writes JSON lines with decoded outlinks and page text, and leaves the crawl folder byte-identical', async () => {
    const before = folderHash(crawl);
    const out = join(base, 'pages.jsonl');
    const run = await runMain(['export', crawl, '--with-text', '--out', out]);
    expect(run.code).toBe(0);
    expect(run.stderr.trim()).toBe(`exported 40 pages of ${crawl} to ${out} (jsonl)`);
    expect(folderHash(crawl)).toBe(before);
    const lines = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const db = new Database(join(crawl, 'crawl.sqlite'), { readonly: true });
    const stored = db.prepare('SELECT id, url, title, outlinks FROM pages ORDER BY id').all() as {
      id: number;
      url: string;
      title: string | null;
      outlinks: Buffer | null;
    }[];
    db.close();
    expect(lines.map((l) => l.url)).toEqual(stored.map((r) => r.url));
    for (const [i, row] of stored.entries()) {
      expect(lines[i].outlinks.map((l: { url: string }) => l.url)).toEqual(
        decodeOutlinks(row.outlinks).map((l) => l.url),
      );
    }
    const page = lines.find((l) => l.isPage && l.reward === 1);
    expect(page.text.length).toBeGreaterThan(100);
    expect(page.text).toContain(page.title);
    expect(keywordsOf(TOPIC).some((w) => page.text.toLowerCase().includes(w))).toBe(true);
  });

  it('writes CSV of the relevant pages only, with a header', async () => {
    const out = join(base, 'relevant.csv');
    const run = await runMain(['export', crawl, '--relevant-only', '--no-outlinks', '--out', out]);
    expect(run.code).toBe(0);
    const rows = readFileSync(out, 'utf8').trim().split('\r\n');
    expect(rows[0]).toBe(
      'id,url,final_url,status,is_page,reward,probability,title,host,domain,depth,parent_url,fetched_at,error_code',
    );
    const db = new Database(join(crawl, 'crawl.sqlite'), { readonly: true });
    const relevant = (db.prepare('SELECT COUNT(*) AS n FROM pages WHERE reward > 0').get() as { n: number })
      .n;
    db.close();
    expect(relevant).toBeGreaterThan(0);
    expect(rows).toHaveLength(relevant + 1);
  });

  it('keeps the outlinks in a table and view that plain SQL can query', () => {
    const db = new Database(join(crawl, 'crawl.sqlite'), { readonly: true });
    try {
      checkOutlinksTable(db);
    } finally {
      db.close();
    }
  });

  function checkOutlinksTable(db: Database.Database): void {
    const pages = db.prepare('SELECT id, url, outlinks FROM pages ORDER BY id').all() as {
      id: number;
      url: string;
      outlinks: Buffer | null;
    }[];
    const total = pages.reduce((n, p) => n + decodeOutlinks(p.outlinks).length, 0);
    expect(total).toBeGreaterThan(0);
    expect((db.prepare('SELECT COUNT(*) AS n FROM outlinks').get() as { n: number }).n).toBe(total);
    const rich = pages.find((p) => decodeOutlinks(p.outlinks).length > 2)!;
    const viaSql = db
      .prepare('SELECT target_url, anchor_text FROM links WHERE source_url = ? ORDER BY position')
      .all(rich.url) as { target_url: string; anchor_text: string }[];
    expect(viaSql).toEqual(
      decodeOutlinks(rich.outlinks).map((l) => ({ target_url: l.url, anchor_text: l.anchorText })),
    );
  }

  it('exports a running crawl from its pages.jsonl, and says why there is no text without WARC', async () => {
    const store = CrawlStore.open(crawl, { mode: 'resume' });
    try {
      const out = join(base, 'running.jsonl');
      const running = await runMain(['export', crawl, '--relevant-only', '--out', out]);
      expect(running.code).toBe(0);
      expect(running.stderr).toContain(
        `tres: note: a crawl is running in ${crawl}: exporting what pages.jsonl holds so far, without outlinks or text`,
      );
      const jsonl = (path: string) =>
        readFileSync(path, 'utf8')
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l));
      const rows = jsonl(out);
      const relevant = jsonl(join(crawl, 'pages.jsonl')).filter((r) => r.reward > 0);
      expect(relevant.length).toBeGreaterThan(0);
      expect(rows.map((r) => r.url)).toEqual(relevant.map((r) => r.url));
      expect(rows.every((r) => r.outlinks === undefined)).toBe(true);
      const text = await runMain(['export', crawl, '--with-text']);
      expect(text.code).toBe(2);
      expect(text.stderr).toContain('page text can be exported once the crawl stops');
    } finally {
      store.close({ status: 'finished' });
    }
    const noWarc = join(base, 'nowarc');
    const seeds = join(base, 'seeds.txt');
    writeFileSync(seeds, sandbox.seedUrls.join('\n'));
    // Pasted again after the first crawl, the printed command writes a new folder and seeds file.
    const again = crawlCommandFor(sandbox, base);
    expect(again).toContain('> crawls/sandbox2-seeds.txt');
    expect(again).toContain('--out crawls/sandbox2 ');
    const firstSeeds = readFileSync(join(base, 'crawls/sandbox1-seeds.txt'), 'utf8');
    const args = shellArgs(again, base).slice(5);
    expect(readFileSync(join(base, 'crawls/sandbox1-seeds.txt'), 'utf8')).toBe(firstSeeds);
    expect(
      (
        await runMain([
          'crawl',
          '--seeds',
          seeds,
          '--out',
          noWarc,
          ...args,
          '--max-pages',
          '3',
          '--no-warc',
          '--quiet',
        ])
      ).code,
    ).toBe(0);
    const text = await runMain(['export', noWarc, '--with-text']);
    expect(text.code).toBe(2);
    expect(text.stderr).toContain('keeps no WARC records (crawled with --no-warc)');
  });

  it('prints a complete crawl command with the topic keywords when serving a sandbox', async () => {
    const before = new Set(process.listeners('SIGINT'));
    const serving = runMain([
      'sandbox',
      'serve',
      '--pages',
      '200',
      '--hosts',
      '4',
      '--topics',
      'astronomy telescopes,jazz music',
      '--no-faults',
    ]);
    // Stop it as Ctrl-C would, once it waits for one.
    let stop: (() => void) | undefined;
    for (let i = 0; i < 500 && !stop; i++) {
      await new Promise((r) => setTimeout(r, 10));
      stop = process.listeners('SIGINT').find((l) => !before.has(l)) as (() => void) | undefined;
    }
    stop?.();
    const run = await serving;
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /crawl it with \(copy and paste into another terminal\):\n {2}mkdir -p crawls && printf '%s\\n' 'http:\/\/[^']+'/,
    );
    expect(run.stdout).toContain("--keywords 'astronomy,telescopes' --resolve '");
    expect(run.stdout).toContain('--allow-loopback --min-delay-ms 0');
  });
});
