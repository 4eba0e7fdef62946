import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { CrawlStore } from './crawl-store.js';
import { indexOutlinks } from './outlinks-table.js';
import { readPageText } from './page-text.js';
import { CrawlReader } from './read-crawl.js';
import { removeTempDirs, tempDir, testPayload, testRecord } from './test-helpers.js';

afterAll(removeTempDirs);

/** Every file of `dir` with a hash of its bytes. */
function snapshot(dir: string): Record<string, string> {
  return Object.fromEntries(
    readdirSync(dir)
      .sort()
      .map((name) => [
        name,
        createHash('sha256')
          .update(readFileSync(join(dir, name)))
          .digest('hex'),
      ]),
  );
}

function crawlOf(pages: number): string {
  const dir = tempDir();
  const store = CrawlStore.open(dir, { mode: 'create' });
  for (let i = 0; i < pages; i++) store.recordPage(testRecord(i, 4), testPayload(i, 3000));
  store.setMeta('config', { strategy: 'bfs', maxPages: 10 });
  store.close();
  return dir;
}

describe('CrawlReader', () => {
  it('reads a closed crawl and leaves its folder byte-identical', () => {
    const dir = crawlOf(8);
    const before = snapshot(dir);
    const reader = CrawlReader.open(dir);
    expect(reader.meta('config')).toEqual({ strategy: 'bfs', maxPages: 10 });
    expect(reader.counts()).toEqual({ attempts: 8, pages: 6, relevant: 2, failures: 2 });
    expect([...reader.pages()].map((p) => p.url)).toEqual(
      Array.from({ length: 8 }, (_, i) => testRecord(i).url),
    );
    reader.close();
    expect(snapshot(dir)).toEqual(before);
  });

  it('reads the committed pages of a killed crawl from its WAL and leaves no file behind', () => {
    const dir = crawlOf(4);
    // A writer with the store's settings commits one more row and is killed before it closes.
    const script = `
      const Database = require(${JSON.stringify(createRequire(import.meta.url).resolve('better-sqlite3'))});
      const db = new Database(${JSON.stringify(join(dir, 'crawl.sqlite'))});
      db.pragma('locking_mode = EXCLUSIVE'); db.pragma('journal_mode = WAL');
      db.exec("CREATE TEMP TABLE one AS SELECT * FROM pages WHERE id = 1");
      db.exec("UPDATE one SET id = 5, url = url || '&killed'");
      db.exec("INSERT INTO pages SELECT * FROM one");
      process.stdout.write('committed');
      process.kill(process.pid, 'SIGKILL');`;
    let stdout = '';
    try {
      execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' });
    } catch (error) {
      stdout = String((error as { stdout?: string }).stdout); // killed, as intended
    }
    expect(stdout).toBe('committed');
    const before = snapshot(dir);
    expect(Object.keys(before)).toContain('crawl.sqlite-wal');
    const reader = CrawlReader.open(dir);
    expect(reader.counts().attempts).toBe(5);
    reader.close();
    expect(snapshot(dir)).toEqual(before);
  });

  it('refuses a crawl that a running store holds, in one line', () => {
    const dir = crawlOf(2);
    const store = CrawlStore.open(dir, { mode: 'resume' });
    try {
      expect(() => CrawlReader.open(dir)).toThrow(`${dir} is being written by a running tres crawl`);
    } finally {
      store.close();
    }
  });

  it('groups failures by code with their first URL, and reads page text back from the WARC', () => {
    const dir = crawlOf(12);
    const reader = CrawlReader.open(dir);
    expect(reader.failureReasons()).toEqual([{ code: 'TRES_DNS', count: 3, exampleUrl: testRecord(3).url }]);
    const pages = [...reader.pages()];
    reader.close();
    const warc = join(dir, 'pages.warc.gz');
    const text = readPageText(warc, pages[4]!.warcRange![0], pages[4]!.warcRange![1]);
    expect(text).toMatch(/^(lorem ipsum dolor ){100}/);
    expect(text).toBe(readPageText(warc, pages[0]!.warcRange![0], pages[0]!.warcRange![1]));
    // A failure has no records: its range is empty.
    expect(pages[3]!.warcRange![0]).toBe(pages[3]!.warcRange![1]);
    expect(readPageText(warc, pages[3]!.warcRange![0], pages[3]!.warcRange![1])).toBe('');
  });

  it('indexes outlinks once, and again from the start after rows were replaced', () => {
    const dir = crawlOf(6);
    // Pages 0-2 and 4-5 have 4 outlinks each; page 3 is a failure without any.
    expect(indexOutlinks(dir)).toEqual({ pages: 6, links: 20 });
    expect(indexOutlinks(dir)).toEqual({ pages: 0, links: 0 });
    // As a repair after a power loss does: the last row goes, another takes its id.
    const db = new Database(join(dir, 'crawl.sqlite'));
    db.exec("UPDATE pages SET url = url || '&other', outlinks = NULL WHERE id = 6");
    db.close();
    expect(indexOutlinks(dir)).toEqual({ pages: 6, links: 16 });
  });
});
