import { join } from 'node:path';
import { tempDir } from 'tres-testing/temp-dir';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Crawler, crawlStrategy } from '../index.js';
import { keywordsOf, type Sandbox, sandboxResolveRules, serveSandbox } from '../sandbox/index.js';

const TOPIC = 'astronomy telescopes';

describe('a crawl whose question budget is spent', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await serveSandbox({
      web: {
        seed: 7,
        hostCount: 20,
        pageCount: 400,
        topics: [TOPIC, 'cooking recipes'],
        relevantTopic: TOPIC,
      },
    });
  });
  afterAll(async () => {
    await sandbox.close();
  });

  it("reads the strategy's link expectation for no page after its last question", async () => {
    const keywords = keywordsOf(TOPIC);
    const strategy = crawlStrategy({ strategy: 'coverage', keywords });
    const linkProbability = strategy.linkProbability?.bind(strategy);
    let reads = 0;
    strategy.linkProbability = (action) => {
      reads++;
      return linkProbability?.(action);
    };
    let readsAtLastQuestion = -1;
    let questions = 0;
    const crawler = new Crawler({
      outDir: join(tempDir('tres-question-budget-'), 'crawl'),
      strategy,
      keywords,
      maxPages: 120,
      maxConcurrency: 2,
      shouldWriteWarc: false,
      net: { minDelayMs: 0, allowLoopback: true, resolveRules: sandboxResolveRules(sandbox.server) },
      progressIntervalMs: 60_000,
      maxQuestions: 3,
      questions: { everyPages: 5, minInformativeness: 0 },
      ask: (q) => Promise.resolve(sandbox.web?.labelOf(q.url) === true),
    });
    crawler.on('question', () => {
      questions++;
      if (questions === 3) readsAtLastQuestion = reads;
    });
    const summary = await crawler.run(sandbox.web?.seedUrls(2, { relevant: true }) ?? []);
    expect(questions).toBe(3);
    expect(summary.steps).toBe(120);
    expect(readsAtLastQuestion).toBeGreaterThan(0);
    expect(reads).toBe(readsAtLastQuestion);
  });
});
