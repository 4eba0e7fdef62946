import { appendFileSync, existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { Clock } from '../common/index.js';
import { ConfigError } from '../common/index.js';
import { CrawlStore } from './crawl-store.js';
import { readWarcResponse } from './page-text.js';
import { toReplayOutcome } from './replay-outcome.js';
import {
  pageUrl,
  readJsonl,
  readWarc,
  removeTempDirs,
  tempDir,
  testLinks,
  testPayload,
  testRecord,
} from './test-helpers.js';
import { buildExchangeRecords } from './warc-record.js';

afterAll(removeTempDirs);

const clock: Clock = { now: () => 1_800_000_000_000, monotonicMs: () => 0, sleep: async () => {} };
const open: CrawlStore[] = [];

function openStore(dir: string, mode: 'create' | 'resume', extra: { warc?: boolean; jsonl?: boolean } = {}) {
  const store = CrawlStore.open(dir, { mode, clock, ...extra });
  open.push(store);
  return store;
}

function recordPages(store: CrawlStore, from: number, to: number): void {
  for (let i = from; i < to; i++) store.recordPage(testRecord(i), testPayload(i));
}

afterEach(() => {
  for (const store of open.splice(0)) store.close();
});

describe('CrawlStore.open', () => {
  it('creates crawl.sqlite, pages.warc.gz and pages.jsonl in a new folder, WAL mode', () => {
    const dir = join(tempDir(), 'nested', 'out');
    openStore(dir, 'create');
    for (const name of ['crawl.sqlite', 'pages.warc.gz', 'pages.jsonl'])
      expect(existsSync(join(dir, name))).toBe(true);
    expect(existsSync(join(dir, 'crawl.sqlite-wal'))).toBe(true);
  });

  it('refuses to create over an existing crawl and tells the user about --resume and --out', () => {
    const dir = tempDir();
    openStore(dir, 'create').close();
    const error = (() => {
      try {
        CrawlStore.open(dir, { mode: 'create' });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(/already holds a crawl.*--resume.*--out/);
  });

  it('refuses to resume a folder that holds no crawl', () => {
    expect(() => CrawlStore.open(tempDir(), { mode: 'resume' })).toThrow(/holds no crawl to resume/);
  });

  it('rejects bad options with a ConfigError naming the field', () => {
    const dir = tempDir();
    expect(() => CrawlStore.open(dir, { mode: 'append' as never })).toThrow(
      /mode must be 'create' or 'resume'/,
    );
    expect(() => CrawlStore.open(dir, { mode: 'create', warc: 'yes' as never })).toThrow(
      expect.objectContaining({ context: { field: 'warc' } }),
    );
    expect(() => CrawlStore.open(dir, { mode: 'create', warcGzipLevel: 0 })).toThrow(
      expect.objectContaining({ context: { field: 'warcGzipLevel' } }),
    );
    expect(existsSync(join(dir, 'crawl.sqlite'))).toBe(false);
  });

  it('refuses a crawl that another open store holds', () => {
    const dir = tempDir();
    openStore(dir, 'create');
    expect(() => CrawlStore.open(dir, { mode: 'resume' })).toThrow(/in use by another tres process/);
  });

  it('resumes with status, counts and fetched URLs as they were', () => {
    const dir = tempDir();
    const first = openStore(dir, 'create');
    recordPages(first, 0, 12);
    first.close({ status: 'interrupted' });
    const store = openStore(dir, 'resume');
    expect(store.resumeInfo).toEqual({
      pages: 12,
      previousStatus: 'interrupted',
      warcBytesDiscarded: 0,
      jsonlBytesDiscarded: 0,
      rowsDropped: 0,
    });
    expect(store.pageCount()).toBe(12);
    expect(store.relevantCount()).toBe(3); // pages 0, 6, 9 (3 is a failure)
    expect(store.domainCounts()).toEqual(
      new Map([
        ['a0.example', 3],
        ['a1.example', 3],
        ['a2.example', 2],
        ['a3.example', 2],
        ['a4.example', 2],
      ]),
    );
    expect([...store.fetchedUrls()]).toEqual(Array.from({ length: 12 }, (_, i) => testRecord(i).url));
    expect(store.isFetched(testRecord(5).url)).toBe(true);
    expect(store.isFetched(testRecord(12).url)).toBe(false);
    expect(store.isRedirectTarget(`${testRecord(1).url}&redirected=1`)).toBe(true);
    expect(store.getMeta('status')).toBe('running');
    expect(store.getMeta('resumedAt')).toEqual([clock.now()]);
  });
});

describe('CrawlStore.recordPage', () => {
  it('persists every field and the outlinks, and replays them in fetch order', () => {
    const dir = tempDir();
    const first = openStore(dir, 'create');
    recordPages(first, 0, 8);
    first.close();
    const resumed = openStore(dir, 'resume');
    const pages = [...resumed.replay()];
    expect(pages.map((p) => p.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    for (const [i, page] of pages.entries()) {
      const { outlinks, finalUrl, ...rest } = testRecord(i);
      const expected = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
      expect(page).toEqual({
        ...expected,
        id: i + 1,
        finalUrl: finalUrl ?? rest.url,
        isPage: rest.status === 200,
        outlinks,
      });
    }
    const outcome = toReplayOutcome(pages[1]!);
    expect(outcome).toEqual({
      action: { url: pageUrl(1), host: 'a1.example', domain: 'a1.example', depth: 2, parentUrl: pageUrl(0) },
      finalUrl: `${pageUrl(1)}&redirected=1`,
      isPage: true,
      reward: 0,
      probability: 0.125,
      title: 'Title, "1"\nsecond line',
      links: testLinks(1, 3),
      isReplay: true,
    });
    expect(toReplayOutcome(pages[3]!)).toMatchObject({ isPage: false, errorCode: 'TRES_DNS', links: [] });
    // The resume's replay reads only an outcome's columns, to the same outcomes; those up to
    // the checkpoint's page are marked learned.
    expect([...resumed.replayOutcomes(3)]).toEqual(
      pages.map((p) => ({
        id: p.id,
        outcome: { ...toReplayOutcome(p), ...(p.id <= 3 ? { isLearned: true } : {}) },
      })),
    );
    expect(resumed.outcomesFrom(2, 3)).toEqual(
      pages.slice(1, 4).map((p) => ({ id: p.id, outcome: toReplayOutcome(p) })),
    );
  });

  it('writes WARC records for responses only, and one JSONL line per fetch, failures included', async () => {
    const dir = tempDir();
    const store = openStore(dir, 'create');
    recordPages(store, 0, 8);
    store.close();
    const records = await readWarc(join(dir, 'pages.warc.gz'));
    const responses = [0, 1, 2, 4, 5, 6]; // 3 and 7 are failures
    expect(records.map((r) => r.type)).toEqual([
      'warcinfo',
      ...responses.flatMap(() => ['request', 'response']),
    ]);
    for (const [k, i] of responses.entries()) {
      const response = records[2 + 2 * k];
      expect(response?.headers.get('warc-target-uri')).toBe(testRecord(i).url);
      expect(response?.payload.equals(testPayload(i).warc!.body as Buffer)).toBe(true);
      expect(response?.headers.get('warc-tres-relevance')).toBe(String(testRecord(i).probability));
    }
    const lines = readJsonl(join(dir, 'pages.jsonl'));
    expect(lines.map((l) => l.url)).toEqual(Array.from({ length: 8 }, (_, i) => testRecord(i).url));
    expect(lines[3]).toMatchObject({ id: 4, status: 0, isPage: false, errorCode: 'TRES_DNS', reward: 0 });
    expect(lines[0]).toMatchObject({
      id: 1,
      reward: 1,
      probability: 0.875,
      fetchedAt: '2023-11-14T22:13:20.000Z',
    });
  });

  it('records a WARC prepared off the main thread like one built in recordPage', async () => {
    const dir = tempDir();
    const store = openStore(dir, 'create');
    const prepared = await store.prepareWarc(testPayload(0).warc!, 0.875);
    store.recordPage(testRecord(0), { warc: prepared });
    store.recordPage(testRecord(1), testPayload(1));
    store.close();
    const records = await readWarc(join(dir, 'pages.warc.gz'));
    expect(records.map((r) => [r.type, r.headers.get('warc-target-uri')])).toEqual([
      ['warcinfo', undefined],
      ['request', testRecord(0).url],
      ['response', testRecord(0).url],
      ['request', testRecord(1).url],
      ['response', testRecord(1).url],
    ]);
    expect(records[2]?.payload.equals(testPayload(0).warc!.body as Buffer)).toBe(true);
    expect(records[2]?.headers.get('warc-tres-relevance')).toBe('0.875');
  });

  it('archives a response that is no page (a sitemap) in the WARC file with no row; a resume keeps it, and the next page still reads as itself', async () => {
    const dir = tempDir();
    const store = openStore(dir, 'create');
    recordPages(store, 0, 1);
    const sitemap = {
      ...testPayload(1).warc!,
      url: 'https://a1.example/sitemap.xml',
      body: Buffer.from('<urlset/>'),
    };
    store.archiveResponse(await store.prepareWarc(sitemap, undefined));
    store.close();
    // Reopened: the archived records are committed, so the repair keeps them.
    const resumed = openStore(dir, 'resume');
    expect(resumed.resumeInfo?.warcBytesDiscarded).toBe(0);
    recordPages(resumed, 2, 3);
    expect(resumed.pageCount()).toBe(2);
    const range = resumed.warcRange(2);
    resumed.close();
    const records = await readWarc(join(dir, 'pages.warc.gz'));
    expect(records.map((r) => [r.type, r.headers.get('warc-target-uri')])).toEqual([
      ['warcinfo', undefined],
      ['request', testRecord(0).url],
      ['response', testRecord(0).url],
      ['request', sitemap.url],
      ['response', sitemap.url],
      ['request', testRecord(2).url],
      ['response', testRecord(2).url],
    ]);
    expect(records[4]?.payload.toString()).toBe('<urlset/>');
    expect(records[4]?.headers.has('warc-tres-relevance')).toBe(false);
    // The page recorded after it: its range starts with the sitemap's records, its response is last.
    const page = readWarcResponse(range!.path, range!.range[0], range!.range[1]);
    expect(page?.targetUri).toBe(testRecord(2).url);
  });

  it('cuts off an archived response whose commit was lost (a kill between the write and the commit)', () => {
    const dir = tempDir();
    const store = openStore(dir, 'create');
    recordPages(store, 0, 1);
    store.close();
    const committed = statSync(join(dir, 'pages.warc.gz')).size;
    // What a kill right after the append leaves: records past every committed end.
    appendFileSync(join(dir, 'pages.warc.gz'), buildExchangeRecords(testPayload(1).warc!, undefined));
    const resumed = openStore(dir, 'resume');
    expect(resumed.resumeInfo?.warcBytesDiscarded).toBeGreaterThan(0);
    expect(statSync(join(dir, 'pages.warc.gz')).size).toBe(committed);
  });

  it('refuses a URL already recorded and writes nothing for it', () => {
    const dir = tempDir();
    const store = openStore(dir, 'create');
    recordPages(store, 0, 3);
    const sizes = () => ['pages.warc.gz', 'pages.jsonl'].map((f) => statSync(join(dir, f)).size);
    const before = sizes();
    expect(() => store.recordPage(testRecord(1), testPayload(1))).toThrow(
      expect.objectContaining({ code: 'TRES_STORE_DUPLICATE' }),
    );
    expect(sizes()).toEqual(before);
    expect(store.pageCount()).toBe(3);
  });

  it('cuts the files back when the row cannot be inserted, so they match the committed rows', () => {
    const dir = tempDir();
    const store = openStore(dir, 'create');
    recordPages(store, 0, 2);
    const sizes = () => ['pages.warc.gz', 'pages.jsonl'].map((f) => statSync(join(dir, f)).size);
    const before = sizes();
    const bad = { ...testRecord(2), host: null as unknown as string }; // NOT NULL fails after the writes
    expect(() => store.recordPage(bad, testPayload(2))).toThrow(
      expect.objectContaining({ code: 'TRES_STORE_WRITE' }),
    );
    expect(sizes()).toEqual(before);
    expect(store.pageCount()).toBe(2);
    store.recordPage(testRecord(2), testPayload(2));
    expect(store.pageCount()).toBe(3);
  });

  it('writes no WARC or JSONL file when they are turned off', () => {
    const dir = tempDir();
    const store = openStore(dir, 'create', { warc: false, jsonl: false });
    recordPages(store, 0, 4);
    expect(existsSync(join(dir, 'pages.warc.gz'))).toBe(false);
    expect(existsSync(join(dir, 'pages.jsonl'))).toBe(false);
    expect(store.pageCount()).toBe(4);
  });

  it('throws TRES_STORE_CLOSED after close', () => {
    const store = openStore(tempDir(), 'create');
    store.close();
    expect(() => store.recordPage(testRecord(0))).toThrow(
      expect.objectContaining({ code: 'TRES_STORE_CLOSED' }),
    );
  });
});

describe('CrawlStore meta, seeds and close', () => {
  it('keeps meta values and seeds across a reopen', () => {
    const dir = tempDir();
    const store = openStore(dir, 'create');
    store.setMeta('config', { strategy: 'tres', budget: 100, nested: [1, 'two'] });
    store.setMeta('gitCommit', 'abc123');
    store.setMeta('gitCommit', undefined);
    const seed = {
      url: 'https://s.example/',
      host: 's.example',
      domain: 's.example',
      anchorText: '',
      depth: 0,
    };
    store.addSeeds([seed, { ...seed, url: 'https://t.example/' }, seed]);
    store.close();
    const again = openStore(dir, 'resume');
    expect(again.getMeta('config')).toEqual({ strategy: 'tres', budget: 100, nested: [1, 'two'] });
    expect(again.getMeta('gitCommit')).toBeUndefined();
    expect(again.seeds().map((s) => s.url)).toEqual(['https://s.example/', 'https://t.example/']);
  });

  it('close records the status and end time and folds the WAL into the database', () => {
    const dir = tempDir();
    const store = openStore(dir, 'create');
    recordPages(store, 0, 5);
    store.close({ status: 'interrupted' });
    store.close();
    expect(statSync(join(dir, 'crawl.sqlite-wal'), { throwIfNoEntry: false })?.size ?? 0).toBe(0);
    const db = new Database(join(dir, 'crawl.sqlite'), { readonly: true });
    const meta = Object.fromEntries(
      (db.prepare('SELECT key, value FROM meta').all() as Array<{ key: string; value: string }>).map((r) => [
        r.key,
        JSON.parse(r.value),
      ]),
    );
    db.close();
    expect(meta).toMatchObject({ status: 'interrupted', endedAt: clock.now(), storeVersion: 1 });
  });
});

describe('CrawlStore.exportCsv', () => {
  it('writes every page, quoting titles with commas, quotes and line breaks', () => {
    const dir = tempDir();
    const store = openStore(dir, 'create');
    recordPages(store, 0, 4);
    const path = join(dir, 'pages.csv');
    expect(store.exportCsv(path)).toBe(4);
    const lines = readFileSync(path, 'utf8').split('\r\n');
    expect(lines[0]).toBe('url,status,reward,probability,title,domain,depth,fetched_at,error_code');
    expect(lines[1]).toBe(
      `${testRecord(0).url},200,1,0.875,"Title, ""0""\nsecond line",a0.example,1,2023-11-14T22:13:20.000Z,`,
    );
    expect(lines[4]).toBe(`${testRecord(3).url},0,0,0,,a3.example,1,2023-11-14T22:13:23.000Z,TRES_DNS`);
  });

  it('exports only relevant pages when asked', () => {
    const dir = tempDir();
    const store = openStore(dir, 'create');
    recordPages(store, 0, 10);
    const path = join(dir, 'relevant.csv');
    expect(store.exportCsv(path, { onlyRelevant: true })).toBe(3);
    const urls = readFileSync(path, 'utf8')
      .trimEnd()
      .split('\r\n')
      .slice(1)
      .map((l) => l.split(',')[0]);
    expect(urls).toEqual([0, 6, 9].map((i) => testRecord(i).url));
  });
});
