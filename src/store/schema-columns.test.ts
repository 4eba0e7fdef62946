import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { CrawlStore } from './crawl-store.js';
import { removeTempDirs, tempDir, testRecord } from './test-helpers.js';

afterAll(removeTempDirs);

describe('crawl store columns added after version 1', () => {
  it('opens a store written before the duplicate columns existed and adds them', () => {
    const dir = tempDir();
    const store = CrawlStore.open(dir, { mode: 'create' });
    store.recordPage(testRecord(0));
    store.close();
    const db = new Database(join(dir, 'crawl.sqlite'));
    for (const column of ['duplicate_of', 'simhash', 'content_hash'])
      db.exec(`ALTER TABLE pages DROP COLUMN ${column}`);
    db.close();

    const resumed = CrawlStore.open(dir, { mode: 'resume' });
    resumed.recordPage({ ...testRecord(1), fingerprint: { exact: 'ab', simhash: [1, 2] } });
    expect(resumed.findDuplicate({ exact: 'ab', simhash: [7, 7] })).toEqual({ id: 2, isExact: true });
    expect([...resumed.replay()].map((p) => p.url)).toEqual([testRecord(0).url, testRecord(1).url]);
    resumed.close();
  });

  it('opens a store whose questions have no kind, adds the column, and reads those questions as informative', () => {
    const dir = tempDir();
    const store = CrawlStore.open(dir, { mode: 'create' });
    store.recordPage(testRecord(0));
    const question = {
      pageId: 1,
      url: testRecord(0).url,
      domain: 'example.test',
      title: '',
      text: 'a page',
      probability: 0.5,
      why: 'unsure',
      askedAt: 1,
    };
    store.addQuestion({ ...question, kind: 'random' });
    store.close();
    const db = new Database(join(dir, 'crawl.sqlite'));
    db.exec('ALTER TABLE questions DROP COLUMN kind');
    db.close();

    const resumed = CrawlStore.open(dir, { mode: 'resume' });
    expect(resumed.questions().map((q) => q.kind)).toEqual(['informative']);
    resumed.addQuestion({ ...question, kind: 'random' });
    expect(resumed.questions().map((q) => q.kind)).toEqual(['informative', 'random']);
    resumed.close();
  });
});
