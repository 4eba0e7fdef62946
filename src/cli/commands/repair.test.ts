/**
 * `tres repair` on real damage: a crawl.sqlite cut short and one with bytes
 * overwritten in the middle of its pages, each made by a real crawl of a sandbox web. The store
 * comes back from pages.jsonl and pages.warc.gz with every page, the damaged file is kept aside
 * byte for byte, and `tres crawl --resume` goes on from it.
 */
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeOutlinks, REPAIR_EXIT_CODES, STORAGE_EXIT_CODES } from '../../store/index.js';
import { runMain } from '../test-cli.js';
import { type SandboxCrawl, startSandboxCrawl } from '../test-sandbox-crawl.js';

const PAGES = 200;

interface Row {
  id: number;
  url: string;
  reward: number;
  warc_end: number | null;
  jsonl_end: number | null;
  outlinks: Buffer | null;
}

function readRows(dir: string): Row[] {
  const db = new Database(join(dir, 'crawl.sqlite'), { readonly: true });
  try {
    return db
      .prepare('SELECT id, url, reward, warc_end, jsonl_end, outlinks FROM pages ORDER BY id')
      .all() as Row[];
  } finally {
    db.close();
  }
}

const sha1 = (path: string) => createHash('sha1').update(readFileSync(path)).digest('hex');
const linkUrls = (row: Row) => decodeOutlinks(row.outlinks).map((l) => l.url);

/** The one file named crawl.sqlite.damaged-* in `dir`. */
function keptFile(dir: string): string {
  // Its WAL and shared-memory files, if any, are kept beside it under the same name plus -wal/-shm.
  const kept = readdirSync(dir).filter((f) => /^crawl\.sqlite\.damaged-\d{8}T\d{6}Z(-\d+)?$/.test(f));
  expect(kept, readdirSync(dir).join(' ')).toHaveLength(1);
  return join(dir, kept[0]!);
}

describe('tres repair', () => {
  let web: SandboxCrawl;
  let base: string;
  let common: string[];
  /** A finished crawl of PAGES pages, never changed: each test damages a copy. */
  let original: string;
  let originalRows: Row[];

  beforeAll(async () => {
    web = await startSandboxCrawl({ seed: 31, pageCount: 3_000, prefix: 'tres-repair-test-' });
    base = web.base;
    common = [...web.flags, '--concurrency', '2'];
    original = join(base, 'original');
    const made = await runMain([
      'crawl',
      '--out',
      original,
      '--seeds',
      web.seedsFile,
      '--max-pages',
      String(PAGES),
      ...common,
    ]);
    expect(made.code).toBe(0);
    originalRows = readRows(original);
    expect(originalRows).toHaveLength(PAGES);
  }, 120_000);
  afterAll(async () => {
    await web.close();
  });

  /** A copy of the original crawl, damaged by `damage`. */
  function damagedCopy(name: string, damage: (sqlite: string) => void): { dir: string; sqlite: string } {
    const dir = join(base, name);
    cpSync(original, dir, { recursive: true });
    const sqlite = join(dir, 'crawl.sqlite');
    damage(sqlite);
    return { dir, sqlite };
  }

  it('rebuilds a crawl.sqlite cut to a quarter, keeps the cut file aside, and the crawl resumes', async () => {
    const { dir, sqlite } = damagedCopy('truncated', (path) =>
      truncateSync(path, Math.floor(statSync(path).size / 4)),
    );
    const damagedHash = sha1(sqlite);
    const refused = await runMain(['crawl', '--resume', dir, '--quiet']);
    expect(refused.code).toBe(STORAGE_EXIT_CODES.corrupt);
    expect(refused.stderr).toContain(`tres repair ${dir}`);

    const repaired = await runMain(['repair', dir]);
    expect(repaired.code, repaired.stderr).toBe(0);
    expect(repaired.stderr).toContain('crawl.sqlite was damaged');
    expect(repaired.stderr).toContain(`next: tres crawl --resume ${dir}`);
    expect(sha1(keptFile(dir))).toBe(damagedHash); // never deleted, never changed
    const rows = readRows(dir);
    expect(rows.map((r) => r.url)).toEqual(originalRows.map((r) => r.url));
    // The offsets come back exactly as the crawl committed them.
    expect(rows.map((r) => [r.warc_end, r.jsonl_end])).toEqual(
      originalRows.map((r) => [r.warc_end, r.jsonl_end]),
    );
    expect(rows.map((r) => r.reward)).toEqual(originalRows.map((r) => r.reward));

    const resumed = await runMain(['crawl', '--resume', dir, '--max-pages', String(PAGES + 40), ...common]);
    expect(resumed.code).toBe(0);
    const after = readRows(dir);
    expect(after).toHaveLength(PAGES + 40);
    expect(new Set(after.map((r) => r.url)).size).toBe(PAGES + 40);
    // pages.jsonl and pages.warc.gz went on where the rows end: every row's line is whole.
    const lines = readFileSync(join(dir, 'pages.jsonl'), 'utf8').trimEnd().split('\n');
    expect(lines.map((l) => (JSON.parse(l) as { url: string }).url)).toEqual(after.map((r) => r.url));
    expect(statSync(join(dir, 'pages.warc.gz')).size).toBe(after[after.length - 1]!.warc_end);
  }, 120_000);

  it('rebuilds rows overwritten in the middle of the file, reading their outlinks again from the WARC', async () => {
    const { dir } = damagedCopy('overwritten', (path) => {
      // Garbage over 16 pages in the middle of the pages table (after the first pages of rows).
      const bytes = readFileSync(path);
      const start = 4096 * Math.floor(bytes.length / 4096 / 3);
      for (let i = start; i < start + 16 * 4096 && i < bytes.length; i++) bytes[i] = (i * 7919) & 0xff;
      writeFileSync(path, bytes);
    });
    const repaired = await runMain(['repair', dir]);
    expect(repaired.code, repaired.stderr).toBe(0);
    const summary = /\((\d+) rows read back from the old file, (\d+) rebuilt/.exec(repaired.stderr);
    expect(summary).not.toBeNull();
    const rebuilt = Number(summary![2]);
    expect(rebuilt).toBeGreaterThan(0);
    expect(existsSync(keptFile(dir))).toBe(true);
    const rows = readRows(dir);
    expect(rows.map((r) => [r.url, r.warc_end, r.jsonl_end])).toEqual(
      originalRows.map((r) => [r.url, r.warc_end, r.jsonl_end]),
    );
    // Each page's outlinks come back: those the crawl stored are all there (re-reading also finds
    // links that were in flight when the page was recorded; the crawl skips them as fetched).
    for (const [i, row] of rows.entries()) {
      expect(linkUrls(row)).toEqual(expect.arrayContaining(linkUrls(originalRows[i]!)));
    }
  }, 120_000);

  it('takes the configuration from the WARC when the first pages (the schema and the meta table) are overwritten', async () => {
    const { dir } = damagedCopy('no-meta', (path) => {
      const bytes = readFileSync(path);
      for (let i = 0; i < 2 * 4096; i++) bytes[i] = (i * 31) & 0xff;
      writeFileSync(path, bytes);
    });
    const repaired = await runMain(['repair', dir]);
    expect(repaired.code, repaired.stderr).toBe(0);
    expect(repaired.stderr).toContain('(file is not a database)');
    expect(repaired.stderr).toContain('configuration taken from the WARC');
    expect(readRows(dir).map((r) => [r.url, r.warc_end, r.jsonl_end])).toEqual(
      originalRows.map((r) => [r.url, r.warc_end, r.jsonl_end]),
    );
    const resumed = await runMain(['crawl', '--resume', dir, '--max-pages', String(PAGES + 20), ...common]);
    expect(resumed.code).toBe(0);
    expect(readRows(dir)).toHaveLength(PAGES + 20);
  }, 120_000);

  it('leaves a whole store alone, and refuses without pages.jsonl or with a WARC damaged mid-file', async () => {
    const healthy = damagedCopy('healthy', () => {});
    const before = sha1(join(healthy.dir, 'crawl.sqlite'));
    const left = await runMain(['repair', healthy.dir]);
    expect(left.code).toBe(0);
    expect(left.stderr).toContain('nothing to repair');
    expect(sha1(join(healthy.dir, 'crawl.sqlite'))).toBe(before);

    const noJsonl = damagedCopy('no-jsonl', (path) => truncateSync(path, 8192));
    rmSync(join(noJsonl.dir, 'pages.jsonl'));
    const missing = await runMain(['repair', noJsonl.dir]);
    expect(missing.code).toBe(REPAIR_EXIT_CODES.noSource);
    expect(missing.stderr).toContain('pages.jsonl is missing');

    const badWarc = damagedCopy('bad-warc', (path) => truncateSync(path, 8192));
    const warc = join(badWarc.dir, 'pages.warc.gz');
    const bytes = readFileSync(warc);
    bytes.fill(0x55, Math.floor(bytes.length / 2), Math.floor(bytes.length / 2) + 64);
    writeFileSync(warc, bytes);
    const files = readdirSync(badWarc.dir).map((f) => [f, sha1(join(badWarc.dir, f))]);
    const refused = await runMain(['repair', badWarc.dir]);
    expect(refused.code).toBe(REPAIR_EXIT_CODES.sourceDamaged);
    expect(refused.stderr).toContain(`${warc} cannot be read past byte`);
    expect(readdirSync(badWarc.dir).map((f) => [f, sha1(join(badWarc.dir, f))])).toEqual(files);
  }, 60_000);
});
