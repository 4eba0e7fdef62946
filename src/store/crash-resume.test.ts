import { type ChildProcess, spawn } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync, rmSync, statSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WARCParser } from 'warcio';
import { CrawlStore } from './crawl-store.js';
import { readJsonl, removeTempDirs, tempDir, testBody, testPayload, testRecord } from './test-helpers.js';

afterAll(removeTempDirs);

const CHILD = fileURLToPath(new URL('./test-kill-child.ts', import.meta.url));
let childJs = '';

/**
 * The child script compiled once to plain JavaScript with esbuild (packages left external, as
 * pdf/pdf-pool.ts does for its worker), so each child starts in Node at once: vite-node took
 * 12-15 s to compile the sources in every child under load.
 */
beforeAll(async () => {
  const esbuild = await import('esbuild');
  const cache = fileURLToPath(new URL('../../node_modules/.cache/tres-test/', import.meta.url));
  mkdirSync(cache, { recursive: true });
  childJs = join(cache, `test-kill-child-${process.pid}.mjs`);
  await esbuild.build({
    entryPoints: [CHILD],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    outfile: childJs,
    logLevel: 'silent',
  });
});
afterAll(() => rmSync(childJs, { force: true }));

interface Child {
  process: ChildProcess;
  /** Resolves with the first stdout line matching `pattern`. */
  waitFor(pattern: RegExp): Promise<RegExpMatchArray>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Runs the child store script (compiled above). */
function startChild(dir: string, mode: 'create' | 'resume', pace: 'tight' | 'gentle', count: number): Child {
  const child = spawn(process.execPath, [childJs, dir, mode, pace, String(count)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  const waiters: Array<{ pattern: RegExp; resolve: (m: RegExpMatchArray) => void }> = [];
  child.stderr!.on('data', (chunk) => {
    err += chunk;
  });
  child.stdout!.on('data', (chunk) => {
    out += chunk;
    for (const w of [...waiters]) {
      const match = out.match(w.pattern);
      if (match) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(match);
      }
    }
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return {
    process: child,
    exited,
    waitFor: (pattern) =>
      new Promise((resolve, reject) => {
        const match = out.match(pattern);
        if (match) return resolve(match);
        waiters.push({ pattern, resolve });
        exited.then(({ code }) => reject(new Error(`child exited (${code}) before ${pattern}: ${err}`)));
      }),
  };
}

interface Row {
  id: number;
  url: string;
  status: number;
  warc_end: number;
  jsonl_end: number;
}

/**
 * Checks a closed crawl folder: ids 1..n, every row's WARC bytes (from the previous row's end to
 * its own) parse as exactly its request and response with its body, every row's JSONL line ends at
 * its jsonl_end, and both files end exactly at the last committed offsets. Returns the rows.
 */
async function checkConsistent(dir: string): Promise<Row[]> {
  const db = new Database(join(dir, 'crawl.sqlite'), { readonly: true });
  const rows = db
    .prepare('SELECT id, url, status, warc_end, jsonl_end FROM pages ORDER BY id')
    .all() as Row[];
  const headerEnd = JSON.parse(
    (db.prepare("SELECT value FROM meta WHERE key = 'warcHeaderEnd'").get() as { value: string }).value,
  );
  db.close();
  expect(rows.map((r) => r.id)).toEqual(rows.map((_, k) => k + 1));
  expect(new Set(rows.map((r) => r.url)).size).toBe(rows.length);

  const warc = readFileSync(join(dir, 'pages.warc.gz'));
  const jsonl = readFileSync(join(dir, 'pages.jsonl'));
  expect(warc.byteLength).toBe(rows.at(-1)?.warc_end ?? headerEnd);
  expect(jsonl.byteLength).toBe(rows.at(-1)?.jsonl_end ?? 0);
  const lines = readJsonl(join(dir, 'pages.jsonl'));
  let warcStart = headerEnd;
  let jsonlStart = 0;
  for (const [k, row] of rows.entries()) {
    const i = k; // the test pages are recorded in index order
    expect(row.url).toBe(testRecord(i).url);
    expect(lines[k]).toMatchObject({ id: row.id, url: row.url });
    expect(jsonl.subarray(jsonlStart, row.jsonl_end).toString()).toBe(`${JSON.stringify(lines[k])}\n`);
    jsonlStart = row.jsonl_end;
    const records = [];
    for await (const record of new WARCParser([warc.subarray(warcStart, row.warc_end)])) {
      records.push({
        type: record.warcType,
        uri: record.warcTargetURI,
        body: Buffer.from(await record.readFully()),
      });
    }
    if (row.status === 0) expect(records).toEqual([]);
    else {
      expect(records.map((r) => [r.type, r.uri])).toEqual([
        ['request', row.url],
        ['response', row.url],
      ]);
      expect(records[1]?.body.equals(testBody(i, 30_000))).toBe(true);
    }
    warcStart = row.warc_end;
  }
  return rows;
}

describe('crash safety', () => {
  it('a crawl killed with SIGKILL mid-record resumes with no page lost and none recorded twice', async () => {
    const dir = join(tempDir(), 'crawl');
    const child = startChild(dir, 'create', 'tight', 1_000_000);
    await child.waitFor(/recorded (2\d\d|[3-9]\d\d)\n/);
    child.process.kill('SIGKILL');
    expect((await child.exited).signal).toBe('SIGKILL');

    // Whatever the kill left, add a torn tail as a kill inside a write would: half a gzip member
    // and half a JSON line. Resume must cut both off.
    const tail = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 1, 2, 3]);
    appendFileSync(join(dir, 'pages.warc.gz'), tail);
    appendFileSync(join(dir, 'pages.jsonl'), '{"id":99999,"url":"https://torn');

    const store = CrawlStore.open(dir, { mode: 'resume' });
    const pages = store.pageCount();
    expect(pages).toBeGreaterThanOrEqual(200);
    expect(store.resumeInfo).toMatchObject({ pages, previousStatus: 'running', rowsDropped: 0 });
    expect(store.resumeInfo!.warcBytesDiscarded).toBeGreaterThanOrEqual(tail.byteLength);
    expect(store.resumeInfo!.jsonlBytesDiscarded).toBeGreaterThanOrEqual(31);
    store.close({ status: 'interrupted' });
    await checkConsistent(dir);

    // The kill released the lock; a new process continues from the next page.
    const resumed = startChild(dir, 'resume', 'tight', 25);
    await resumed.waitFor(/ready (\d+)\n/).then((m) => expect(Number(m[1])).toBe(pages));
    expect((await resumed.exited).code).toBe(0);
    const rows = await checkConsistent(dir);
    expect(rows.length).toBe(pages + 25);
    const again = CrawlStore.open(dir, { mode: 'resume' });
    expect(() => again.recordPage(testRecord(pages), testPayload(pages))).toThrow(
      /already in the crawl store/,
    );
    again.close();
  });

  it('SIGINT closes the crawl cleanly with status interrupted', async () => {
    const dir = join(tempDir(), 'crawl');
    const child = startChild(dir, 'create', 'gentle', 1_000_000);
    await child.waitFor(/recorded 5\n/);
    child.process.kill('SIGINT');
    const closed = Number((await child.waitFor(/closed (\d+)\n/))[1]);
    expect((await child.exited).code).toBe(0);
    expect(statSync(join(dir, 'crawl.sqlite-wal'), { throwIfNoEntry: false })?.size ?? 0).toBe(0);
    expect((await checkConsistent(dir)).length).toBe(closed);
    const store = CrawlStore.open(dir, { mode: 'resume' });
    expect(store.resumeInfo).toEqual({
      pages: closed,
      previousStatus: 'interrupted',
      warcBytesDiscarded: 0,
      jsonlBytesDiscarded: 0,
      rowsDropped: 0,
    });
    store.close();
  });

  it('drops the committed rows whose records a file lost (power loss) so they are fetched again', async () => {
    const dir = join(tempDir(), 'crawl');
    const store = CrawlStore.open(dir, { mode: 'create' });
    for (let i = 0; i < 10; i++) store.recordPage(testRecord(i), testPayload(i, 30_000));
    store.close();
    const db = new Database(join(dir, 'crawl.sqlite'), { readonly: true });
    const ends = db.prepare('SELECT warc_end FROM pages ORDER BY id').pluck().all() as number[];
    db.close();
    truncateSync(join(dir, 'pages.warc.gz'), ends[5]! + 100); // into the records of row 7
    const resumed = CrawlStore.open(dir, { mode: 'resume' });
    expect(resumed.resumeInfo).toMatchObject({ pages: 6, rowsDropped: 4, warcBytesDiscarded: 100 });
    expect(resumed.isFetched(testRecord(6).url)).toBe(false);
    for (let i = 6; i < 8; i++) resumed.recordPage(testRecord(i), testPayload(i, 30_000));
    resumed.close();
    expect((await checkConsistent(dir)).length).toBe(8);
  });
});
