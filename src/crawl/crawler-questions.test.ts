import { join } from 'node:path';
import { tempDir } from 'tres-testing/temp-dir';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CrawlerOptions, PageJudge, Question } from '../index.js';
import { Crawler, KeywordJudge } from '../index.js';
import { keywordsOf, type Sandbox, sandboxResolveRules, serveSandbox } from '../sandbox/index.js';
import { CrawlStore, type StoredQuestion } from '../store/index.js';
import { fetchedUrls } from '../store/test-helpers.js';

const TOPIC = 'astronomy telescopes';

describe('a crawl that asks its user', () => {
  let sandbox: Sandbox;
  const base = tempDir('tres-ask-');
  let seeds: string[];
  beforeAll(async () => {
    sandbox = await serveSandbox({
      web: {
        seed: 5,
        hostCount: 30,
        pageCount: 900,
        topics: [TOPIC, 'cooking recipes'],
        relevantTopic: TOPIC,
      },
    });
    seeds = sandbox.web!.seedUrls(2, { relevant: true });
  });
  afterAll(async () => {
    await sandbox.close();
  });

  const options = (outDir: string, extra: Partial<CrawlerOptions> = {}): CrawlerOptions => ({
    outDir,
    strategy: 'best-first',
    keywords: keywordsOf(TOPIC),
    maxPages: 150,
    maxConcurrency: 2,
    shouldWriteWarc: false,
    net: { minDelayMs: 0, allowLoopback: true, resolveRules: sandboxResolveRules(sandbox.server) },
    progressIntervalMs: 60_000,
    ...extra,
  });
  /** The user: answers from the generated web's ground truth. */
  const truth = (q: Question) => Promise.resolve(sandbox.web!.labelOf(q.url) === true);
  const storedQuestions = (outDir: string): StoredQuestion[] => {
    const store = CrawlStore.open(outDir, { mode: 'resume' });
    try {
      return store.questions();
    } finally {
      store.close();
    }
  };
  const storedLabels = (outDir: string) => {
    const store = CrawlStore.open(outDir, { mode: 'resume' });
    try {
      return store.labels();
    } finally {
      store.close();
    }
  };

  it('retrains the judge from the answers while the crawl runs, and stores them as labels', async () => {
    const outDir = join(base, 'retrain');
    const crawler = new Crawler(
      options(outDir, {
        maxPages: 300,
        shouldWriteWarc: true, // the keyword judge's confident pages are read back from it
        ask: truth,
        // Every answer decides whether a retrained judge is taken (no random questions).
        questions: { everyPages: 6, minInformativeness: 0, randomShare: 0 },
        retrain: { retrainAfterLabels: 8 },
      }),
    );
    const answers: boolean[] = [];
    let report: Promise<unknown> | undefined;
    crawler.on('answer', (a) => {
      answers.push(a.isRelevant);
      expect(a.label).toMatchObject({
        pageId: a.question.pageId,
        source: 'answer',
        isRelevant: a.isRelevant,
      });
      const relevant = answers.filter(Boolean).length;
      if (report === undefined && answers.length >= 8 && relevant >= 2 && answers.length - relevant >= 2) {
        // Hold the crawl until a retraining on these answers has finished.
        crawler.pause();
        // One under way may have started on fewer answers, of one class only: then once more.
        report = crawler.relevanceFeedback.then((f) => f!.retrain().catch(() => f!.retrain()));
        report.then(
          () => crawler.resume(),
          () => crawler.resume(),
        );
      }
    });
    const summary = await crawler.run(seeds);
    expect(summary.stopReason).toBe('max-pages');
    expect(report).toBeDefined();
    const done = (await report) as { isAccepted: boolean; userLabels: number; version: number };
    expect(done.userLabels).toBeGreaterThanOrEqual(8);
    expect(done.isAccepted).toBe(true);
    // A retraining started by the answers themselves may also have been accepted meanwhile.
    expect(crawler.judgeVersion).toBeGreaterThanOrEqual(1);
    const labels = storedLabels(outDir);
    expect(labels.length).toBe(answers.length);
    expect(labels.every((l) => l.source === 'answer')).toBe(true);
    expect(labels.map((l) => l.isRelevant)).toEqual(answers);
    expect(labels.map((l) => l.isRelevant === (sandbox.web!.labelOf(l.url) === true))).not.toContain(false);
  }, 120_000);

  it('hands the answers to a judge that learns, with no retraining beside it', async () => {
    const outDir = join(base, 'learner');
    const learnt: { url: string; isRelevant: boolean }[] = [];
    const judge = new KeywordJudge({ keywords: keywordsOf(TOPIC) });
    const learner: PageJudge = {
      name: 'learner',
      scorePages: (pages) => judge.scorePages(pages),
      scoreAnchors: (anchors) => judge.scoreAnchors(anchors),
      learn: (page, isRelevant) => learnt.push({ url: page.url, isRelevant }),
    };
    const crawler = new Crawler(
      options(outDir, {
        judge: learner,
        ask: truth,
        maxQuestions: 5,
        questions: { everyPages: 6, minInformativeness: 0 },
      }),
    );
    const answers: { url: string; isRelevant: boolean }[] = [];
    crawler.on('answer', (a) => answers.push({ url: a.question.url, isRelevant: a.isRelevant }));
    await crawler.run(seeds);
    expect(answers).toHaveLength(5);
    expect(learnt).toEqual(answers);
    expect(await crawler.relevanceFeedback).toBeUndefined();
  }, 60_000);

  it('never asks more than its budget, and a resume keeps the answers and asks no page or site twice', async () => {
    const outDir = join(base, 'budget');
    const asked: Question[] = [];
    const ask = (q: Question) => {
      asked.push(q);
      return truth(q);
    };
    const questions = { everyPages: 5, minInformativeness: 0 };
    await new Crawler(options(outDir, { ask, maxQuestions: 4, questions, retrain: false })).run(seeds);
    expect(asked).toHaveLength(4);
    const first = storedQuestions(outDir);
    expect(first.map((q) => q.status)).toEqual(['answered', 'answered', 'answered', 'answered']);

    await new Crawler(
      options(outDir, { isResume: true, maxPages: 300, ask, maxQuestions: 9, questions, retrain: false }),
    ).run();
    const all = storedQuestions(outDir);
    expect(all.length).toBeGreaterThan(4);
    expect(all.length).toBeLessThanOrEqual(9);
    expect(all.slice(0, 4)).toEqual(first);
    expect(new Set(all.map((q) => q.pageId)).size).toBe(all.length);
    // Pages drawn at random may share a site; the questions chosen to teach never do.
    const informative = all.filter((q) => q.kind === 'informative');
    expect(all.filter((q) => q.kind === 'random').length).toBe(Math.floor(all.length / 2));
    expect(new Set(informative.map((q) => q.domain)).size).toBe(informative.length);
    expect(storedLabels(outDir)).toHaveLength(all.length);
  }, 60_000);

  it('finishes its page budget when ask never answers; the questions expire', async () => {
    const outDir = join(base, 'silent');
    let calls = 0;
    const crawler = new Crawler(
      options(outDir, {
        ask: () => {
          calls++;
          return new Promise(() => {});
        },
        questions: { everyPages: 5, maxOpen: 50, minInformativeness: 0 },
      }),
    );
    const summary = await crawler.run(seeds);
    expect(summary.stopReason).toBe('max-pages');
    expect(summary.steps).toBe(150);
    expect(calls).toBeGreaterThan(3);
    expect(crawler.openQuestions()).toEqual([]);
    const stored = storedQuestions(outDir);
    expect(stored).toHaveLength(calls);
    expect(stored.every((q) => q.status === 'expired')).toBe(true);
  });

  // coverage: its link model is read for every candidate page (Strategy.linkProbability).
  it.each(['best-first', 'coverage'])(
    '%s takes answers through answerQuestion when ask is true, and fetches in the same order as a crawl that asks nothing',
    async (strategy) => {
      const silent = join(base, `no-ask-${strategy}`);
      const asking = join(base, `ask-true-${strategy}`);
      const sequential = { maxConcurrency: 1, maxPages: 80, strategy };
      await new Crawler(options(silent, sequential)).run(seeds);
      const crawler = new Crawler(
        options(asking, {
          ...sequential,
          ask: true,
          retrain: false,
          questions: { everyPages: 5, minInformativeness: 0 },
        }),
      );
      const results: boolean[] = [];
      crawler.on('question', (q) => {
        expect(crawler.openQuestions().map((o) => o.id)).toContain(q.id);
        // Answered on the next turn, as a dashboard would; skipping every other one.
        setImmediate(() => results.push(crawler.answerQuestion(q.id, q.id % 2 === 0 ? undefined : true)));
      });
      await crawler.run(seeds);
      expect(fetchedUrls(asking)).toEqual(fetchedUrls(silent));
      expect(storedQuestions(silent)).toEqual([]);
      const stored = storedQuestions(asking);
      expect(stored.length).toBeGreaterThan(2);
      expect(results.filter(Boolean).length).toBeGreaterThan(1);
      expect(stored.filter((q) => q.status === 'skipped').every((q) => q.id % 2 === 0)).toBe(true);
      expect(crawler.answerQuestion(stored[0]!.id, true)).toBe(false); // the crawl has ended
    },
  );
});
