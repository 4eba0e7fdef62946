import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from 'tres-testing/temp-dir';
import { describe, expect, it } from 'vitest';
import { runCrawlBench } from './crawl-bench.js';
import { parseBenchJudge } from './crawl-bench-options.js';
import { writeSyntheticTopic } from './crawl-bench-test-utils.js';

const dir = tempDir('tres-user-judge-');

describe('--judge user:...', () => {
  it('reads keywords and user specs, and names the setting that is wrong', () => {
    expect(parseBenchJudge('keywords')).toBeUndefined();
    expect(parseBenchJudge('user:examples=10,answers=50')).toEqual({
      examples: 10,
      answers: 50,
      settings: {},
    });
    expect(parseBenchJudge('user:examples=3,first=50')).toEqual({
      examples: 3,
      answers: 0,
      settings: { first: 50 },
    });
    expect(() => parseBenchJudge('sample')).toThrow(/judge: unknown judge in "sample"/);
    expect(() => parseBenchJudge('user:examples=ten')).toThrow(/"examples=ten" is not NAME=NUMBER/);
    expect(() => parseBenchJudge('user:exemples=1')).toThrow(/unknown setting "exemples"/);
    expect(() => parseBenchJudge('user:examples=1.5')).toThrow(/whole numbers/);
  });

  it('runs the cold-start judge with examples drawn by run seed, and repeats a run exactly', async () => {
    const topicFile = writeSyntheticTopic(dir, 'synthetic-astronomy', 1200);
    const run = (out: string) =>
      runCrawlBench({
        topicFile,
        strategies: ['best-first'],
        maxPages: 250,
        runs: 1,
        judge: 'user:examples=2,answers=0,first=50',
        outDir: join(dir, out),
        log: false,
      });
    const [a, b] = [await run('a'), await run('b')];
    expect(a.runs[0]!.harvestRate).toBe(b.runs[0]!.harvestRate);
    expect(a.runs[0]!.classifierRelevant).toBe(b.runs[0]!.classifierRelevant);
    expect(readFileSync(join(dir, 'a', 'report.md'), 'utf8')).toContain(
      'the cold-start judge (user:examples=2,answers=0,first=50)',
    );
    // Answers from the ground truth change what the judge says of the pages after them.
    const asked = await runCrawlBench({
      topicFile,
      strategies: ['best-first'],
      maxPages: 250,
      runs: 1,
      judge: 'user:examples=2,answers=5,first=50',
      outDir: join(dir, 'c'),
      log: false,
    });
    expect(asked.runs[0]!.classifierRelevant).not.toBe(a.runs[0]!.classifierRelevant);
  }, 180_000);
});
