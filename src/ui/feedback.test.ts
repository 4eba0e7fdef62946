import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { feedbackModelDir, resumeModelDir } from './feedback.js';
import { startTestCrawl, type TestCrawl } from './test-crawl.js';

describe('relevance feedback on a running crawl', () => {
  let t: TestCrawl;
  beforeAll(async () => {
    t = await startTestCrawl({
      pauseAtStep: 70,
      crawler: { maxPages: 90, maxConcurrency: 1 },
      feedback: { retrainAfterLabels: false },
    });
    while (!t.crawler.isPaused || t.crawler.progress().inFlight > 0)
      await new Promise((r) => setTimeout(r, 20));
  });
  afterAll(() => t.close());

  it('refuses to retrain with fewer than two labels of each class, and says why', async () => {
    const page = t.crawler.openStore!.queryPages({ relevance: 'relevant', limit: 1 }).pages[0]!;
    t.feedback.label(page.id, true);
    await expect(t.feedback.retrain()).rejects.toThrow(/at least 2 relevant and 2 irrelevant labels/);
    expect(t.feedback.status().history.at(-1)).toMatchObject({
      error: expect.stringContaining('at least 2'),
    });
  });

  it('retrains in a worker on the labels, swaps the model in when not worse, and records its version per page', async () => {
    const store = t.crawler.openStore!;
    const pages = store.queryPages({ limit: 500 }).pages.filter((p) => p.isPage && p.domain !== 'evil.test');
    // Labels from the web's ground truth, where the keyword judge is wrong first.
    const wrong = pages.filter((p) => t.isRelevant(p.url) !== p.reward > 0);
    const right = pages.filter((p) => t.isRelevant(p.url) === p.reward > 0);
    const chosen = [...wrong.slice(0, 8), ...right.slice(0, 12 - Math.min(8, wrong.length))];
    for (const p of chosen) t.feedback.label(p.id, t.isRelevant(p.url));
    const report = await t.feedback.retrain();
    const labelled = store.labels().length;
    expect(labelled).toBeGreaterThanOrEqual(12);
    expect(report.userLabels).toBe(labelled);
    expect(report.folds).toBeGreaterThanOrEqual(2);
    expect(report.trainingDocuments).toBeGreaterThan(0); // the keyword judge's confident pages
    expect(report.pages).toHaveLength(labelled);
    expect(report.isAccepted).toBe(report.after.macroF1 >= report.before.macroF1);
    expect(report.isAccepted).toBe(true);
    expect(t.crawler.judgeVersion).toBe(1);
    expect(existsSync(join(feedbackModelDir(t.outDir, 1), 'model.json'))).toBe(true);
    expect(t.feedback.status()).toMatchObject({ judgeVersion: 1, model: 'svm', isTraining: false });

    t.crawler.resume();
    await t.done;
    const db = new Database(join(t.outDir, 'crawl.sqlite'), { readonly: true });
    const versions = db
      .prepare('SELECT judge_version AS v FROM pages WHERE is_page = 1 ORDER BY id')
      .all() as { v: number }[];
    const meta = JSON.parse(
      (db.prepare("SELECT value FROM meta WHERE key = 'feedback'").get() as { value: string }).value,
    );
    db.close();
    expect(versions.at(0)?.v).toBe(0);
    expect(versions.at(-1)?.v).toBe(1);
    // A resume finds the model to judge with.
    expect(resumeModelDir(t.outDir, meta)).toBe(feedbackModelDir(t.outDir, 1));
  });
});
