import { join } from 'node:path';
import { tempDir } from 'tres-testing/temp-dir';
import { describe, expect, it } from 'vitest';
import { createRng } from '../../common/index.js';
import type { CrawlerOptions } from '../../crawl/index.js';
import { Crawler } from '../../crawl/index.js';
import { keywordsOf, sandboxResolveRules } from '../../sandbox/index.js';
import { twoTopicSandbox } from '../../sandbox/test-helpers.js';
import { AcheStrategy } from './ache-strategy.js';

const TOPIC = 'astronomy telescopes';
const BUDGET = 90;

describe('ache on the crawl loop', () => {
  const sandbox = twoTopicSandbox(TOPIC);
  const base = tempDir('tres-ache-');

  const options = (strategy: AcheStrategy, extra: Partial<CrawlerOptions> = {}): CrawlerOptions => ({
    outDir: join(base, 'run'),
    strategy,
    seed: 9,
    keywords: keywordsOf(TOPIC),
    maxPages: BUDGET,
    maxConcurrency: 2,
    net: { minDelayMs: 0, resolveRules: sandboxResolveRules(sandbox().server), allowLoopback: true },
    ...extra,
  });
  const ache = () => new AcheStrategy({ rng: createRng(3), overrides: { learnEveryPages: 20 } });

  it('retrains during the crawl and, stopped mid-way, relearns from the replay and resumes to its budget', async () => {
    const first = ache();
    const crawler = new Crawler(options(first));
    crawler.on('page', (p) => {
      if (p.step === 50) crawler.abortNow();
    });
    await crawler.run(sandbox().web!.seedUrls(2, { relevant: true }));
    expect(first.stats()['learn/trainings']).toBeGreaterThanOrEqual(2);

    const resumed = ache();
    const summary = await new Crawler(options(resumed, { isResume: true })).run();
    expect(summary.steps).toBe(BUDGET);
    // Trainings at 20, 40 (from the replay) and 60, 80 (new pages), when both classes are present.
    expect(resumed.stats()['learn/trainings']).toBeGreaterThanOrEqual(3);
    expect(resumed.stats()['learn/examples']).toBeGreaterThan(BUDGET / 2);
  }, 60_000);
});
