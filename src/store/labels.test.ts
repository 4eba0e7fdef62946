import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../common/index.js';
import { CrawlStore } from './crawl-store.js';
import { withCrawlReader } from './read-crawl.js';
import { removeTempDirs, tempDir, testRecord } from './test-helpers.js';

afterAll(removeTempDirs);

describe('relevance labels in the crawl store', () => {
  it('keeps the newest label of each page across a resume and refuses labels of failures', () => {
    const dir = tempDir();
    const store = CrawlStore.open(dir, { mode: 'create' });
    for (let i = 0; i < 5; i++) store.recordPage(testRecord(i));
    store.addLabel(1, true);
    store.addLabel(2, false);
    store.addLabel(1, false);
    // testRecord(3) is a failure: nothing to judge.
    expect(() => store.addLabel(4, true)).toThrow(ConfigError);
    expect(() => store.addLabel(99, true)).toThrow(/not a fetched page/);
    store.close();

    const resumed = CrawlStore.open(dir, { mode: 'resume' });
    expect(resumed.labels().map((l) => [l.pageId, l.isRelevant])).toEqual([
      [2, false],
      [1, false],
    ]);
    expect(resumed.labelCount()).toBe(3);
    resumed.close();
    expect(withCrawlReader(dir, (r) => r.labels().length)).toBe(2);
  });

  it('records the judge version of each page and lists pages filtered by relevance, domain and text', () => {
    const dir = tempDir();
    const store = CrawlStore.open(dir, { mode: 'create' });
    for (let i = 0; i < 12; i++) store.recordPage({ ...testRecord(i), judgeVersion: i < 6 ? 0 : 2 });
    store.addLabel(7, true);
    const relevant = store.queryPages({ relevance: 'relevant' });
    expect(relevant.pages.every((p) => p.reward > 0)).toBe(true);
    expect(relevant.total).toBe(3);
    const one = store.queryPages({ domain: 'a1.example', limit: 1 });
    expect(one.pages).toHaveLength(1);
    expect(one.total).toBe(3);
    expect(one.pages[0]?.domain).toBe('a1.example');
    const found = store.queryPages({ search: 'PAGE/7?' });
    expect(found.pages.map((p) => [p.id, p.judgeVersion, p.label])).toEqual([[8, 2, undefined]]);
    expect(store.queryPages({ search: 'page/6?' }).pages[0]?.label).toBe(true);
    // Newest first, with the WARC-less range absent.
    expect(store.queryPages({}).pages[0]?.id).toBe(12);
    store.close();
  });
});
