import { describe, expect, it } from 'vitest';
import type { RunResult } from './crawl-bench-run.js';
import { pageIdentity } from './crawl-bench-run.js';
import { bestWithTies, meanCurve, paretoFront, spread, summarizeRuns } from './crawl-bench-stats.js';
import { outcomeSentences } from './report-crawl.js';

function run(over: Partial<RunResult>): RunResult {
  return {
    topic: 't',
    strategy: 'bfs',
    domainLimit: 'none',
    run: 0,
    seedUrl: 'https://a.example/',
    maxPages: 100,
    stopReason: 'max-pages',
    steps: 100,
    pages: 100,
    failures: 0,
    relevant: 0,
    harvestRate: 0,
    relevantDomains: 0,
    classifierRelevant: 0,
    classifierHarvestRate: 0,
    classifierRelevantDomains: 0,
    bothRelevant: 0,
    finalStats: { 'frontier/size': 0 },
    curve: [],
    timing: { elapsedMs: 1000, pagesPerSec: 100 },
    ...over,
  };
}

describe('spread', () => {
  it('gives the mean and the sample standard deviation (n - 1)', () => {
    const s = spread([2, 4, 4, 4, 5, 5, 7, 9]);
    expect(s.mean).toBe(5);
    expect(s.std).toBeCloseTo(Math.sqrt(32 / 7), 12);
    expect(spread([3])).toEqual({ mean: 3, std: 0 });
    expect(spread([]).mean).toBeNaN();
  });
});

describe('paretoFront', () => {
  it('keeps the points no other point beats in both coordinates, ties included', () => {
    const points = [
      { x: 1, y: 9 }, // front: best y
      { x: 5, y: 5 }, // front
      { x: 4, y: 4 }, // dominated by (5, 5)
      { x: 9, y: 1 }, // front: best x
      { x: 5, y: 5 }, // equal to a front point: not dominated, stays
      { x: 9, y: 0.5 }, // dominated by (9, 1)
    ];
    expect(paretoFront(points)).toEqual([0, 1, 3, 4]);
  });
});

describe('paretoFront with spreads', () => {
  it('calls a difference within the spread over seeds a tie: neither point dominates', () => {
    const close = [
      { x: 10, y: 0.5, dx: 1, dy: 0.05 },
      { x: 10.5, y: 0.52, dx: 1, dy: 0.05 },
    ];
    expect(paretoFront(close)).toEqual([0, 1]);
    const apart = [
      { x: 10, y: 0.5, dx: 1, dy: 0.01 },
      { x: 10, y: 0.6, dx: 1, dy: 0.01 },
    ];
    expect(paretoFront(apart)).toEqual([1]);
  });
});

describe('bestWithTies', () => {
  it('marks the best mean and every mean within the larger standard deviation of it', () => {
    expect(
      bestWithTies([
        { mean: 0.8, std: 0.05 },
        { mean: 0.77, std: 0.01 },
        { mean: 0.6, std: 0.1 },
      ]),
    ).toEqual([0, 1]);
    expect(
      bestWithTies([
        { mean: 0.8, std: 0.01 },
        { mean: 0.7, std: 0.01 },
      ]),
    ).toEqual([0]);
  });
});

describe('summarizeRuns', () => {
  const runs = [
    run({
      run: 0,
      harvestRate: 0.5,
      classifierHarvestRate: 0.6,
      relevantDomains: 2,
      relevant: 50,
      classifierRelevant: 60,
      bothRelevant: 45,
    }),
    run({
      run: 1,
      harvestRate: 0.3,
      classifierHarvestRate: 0.2,
      relevantDomains: 4,
      relevant: 30,
      classifierRelevant: 20,
      bothRelevant: 15,
    }),
    run({ strategy: 'random', run: 0, harvestRate: 0.1, relevantDomains: 1, relevant: 10 }),
    run({
      strategy: 'bfs',
      domainLimit: '10',
      run: 0,
      harvestRate: 0.2,
      relevantDomains: 9,
      relevant: 20,
      failures: 30,
    }),
    // Ran dry after 12 pages: a high rate over few pages, not comparable.
    run({
      strategy: 'tres',
      domainLimit: '10',
      steps: 12,
      stopReason: 'frontier-empty',
      harvestRate: 0.9,
      relevantDomains: 10,
    }),
  ];
  const rows = summarizeRuns(runs, ['bfs', 'random', 'tres'], ['none', '10']);

  it('makes one row per strategy and domain limit that has runs, in the given order, named as the paper does', () => {
    expect(rows.map((r) => [r.label, r.runs])).toEqual([
      ['bfs', 2],
      ['bfs_10', 1],
      ['random', 1],
      ['tres_10', 1],
    ]);
    expect(rows.map((r) => [r.isRanked, r.dryRuns])).toEqual([
      [true, 0],
      [true, 0],
      [true, 0],
      [false, 1],
    ]);
    expect(rows[1]!.failureShare).toBeCloseTo(0.3, 12);
  });

  it('averages over runs and pools the classifier agreement', () => {
    const bfs = rows[0]!;
    expect(bfs.harvestRate.mean).toBeCloseTo(0.4, 12);
    expect(bfs.harvestRate.std).toBeCloseTo(Math.SQRT2 * 0.1, 12);
    expect(bfs.relevantDomains).toEqual({ mean: 3, std: Math.SQRT2 });
    expect(bfs.harvestRateGap.mean).toBeCloseTo(0, 12); // +0.1 and -0.1
    expect(bfs.classifierPrecision).toBeCloseTo(60 / 80, 12);
    expect(bfs.classifierRecall).toBeCloseTo(60 / 80, 12);
  });

  it('marks the Pareto-optimal rows of (relevant domains, harvest rate) means among the ranked rows', () => {
    expect(rows.map((r) => r.isParetoOptimal)).toEqual([true, true, false, false]);
  });
});

describe('summarizeRuns ranking', () => {
  it('ranks a row whose runs spent at least a third of the budget on average, counting the runs that ran dry', () => {
    const rows = summarizeRuns(
      [
        run({ strategy: 'a', run: 0, steps: 100, pages: 50, relevant: 25 }),
        run({ strategy: 'a', run: 1, steps: 20, pages: 10, relevant: 1, stopReason: 'frontier-empty' }),
        run({ strategy: 'b', run: 0, steps: 33, stopReason: 'frontier-empty' }),
      ],
      ['a', 'b'],
      ['none'],
    );
    expect(rows.map((r) => [r.label, r.isRanked, r.dryRuns])).toEqual([
      ['a', true, 1],
      ['b', false, 1],
    ]);
    expect(rows[0]!.pageHarvestRate.mean).toBeCloseTo((0.5 + 0.1) / 2, 12);
  });
});

describe('meanCurve', () => {
  it('averages each step over the runs that reached it', () => {
    const point = (step: number, harvestRate: number) => ({
      step,
      harvestRate,
      relevantDomains: 0,
      classifierHarvestRate: 0,
      stats: { 'frontier/size': step * 10 },
    });
    const a = run({ curve: [point(10, 0.2), point(20, 0.4)] });
    const b = run({ curve: [point(10, 0.4)] }); // stopped early
    expect(meanCurve([a, b], (p) => p.harvestRate)).toEqual([
      [10, expect.closeTo(0.3, 12)],
      [20, 0.4],
    ]);
    expect(meanCurve([a, b], (p) => p.stats['frontier/leaves'])).toEqual([]);
  });
});

describe('summarizeRuns against the oracle', () => {
  it("gives each row's harvest rate and relevant domains as fractions of the oracle's from the same seed", () => {
    const runs = [
      run({ strategy: 'oracle', run: 0, harvestRate: 0.8, relevantDomains: 20 }),
      run({ strategy: 'oracle', run: 1, harvestRate: 0.5, relevantDomains: 10 }),
      run({
        strategy: 'bfs',
        run: 0,
        harvestRate: 0.4,
        relevantDomains: 5,
        linksDiscovered: 100,
        linksOutOfWeb: 25,
      }),
      run({
        strategy: 'bfs',
        run: 1,
        harvestRate: 0.5,
        relevantDomains: 5,
        linksDiscovered: 100,
        linksOutOfWeb: 15,
      }),
    ];
    const [oracle, bfs] = summarizeRuns(runs, ['oracle', 'bfs'], ['none']);
    expect(oracle?.oracleHarvestShare).toEqual({ mean: 1, std: 0 });
    expect(bfs?.oracleHarvestShare?.mean).toBeCloseTo(0.75, 12); // (0.5 + 1) / 2
    expect(bfs?.oracleDomainsShare?.mean).toBeCloseTo(0.375, 12); // (0.25 + 0.5) / 2
    expect(bfs?.outOfWebShare).toBeCloseTo(0.2, 12);
    expect(summarizeRuns(runs.slice(2), ['bfs'], ['none'])[0]?.oracleHarvestShare).toBeUndefined();
  });

  it('leaves out the seeds where the oracle or the row ran dry: no bound, no comparable rate', () => {
    const dry = run({ strategy: 'oracle', run: 0, harvestRate: 1, relevantDomains: 1 });
    const runs = [
      { ...dry, steps: 10 },
      run({ strategy: 'oracle', run: 1, harvestRate: 0.5, relevantDomains: 10 }),
      run({ strategy: 'bfs', run: 0, harvestRate: 0.2, relevantDomains: 200 }),
      run({ strategy: 'bfs', run: 1, harvestRate: 0.25, relevantDomains: 5 }),
    ];
    const [, bfs] = summarizeRuns(runs, ['oracle', 'bfs'], ['none']);
    expect(bfs?.oracleHarvestShare).toEqual({ mean: 0.5, std: 0 });
    expect(bfs?.oracleDomainsShare).toEqual({ mean: 0.5, std: 0 });
    // ... and those where the row's own run ran dry.
    const rowDry = [runs[0]!, runs[1]!, runs[2]!, { ...runs[3]!, steps: 10 }];
    expect(summarizeRuns(rowDry, ['oracle', 'bfs'], ['none'])[1]?.oracleHarvestShare).toBeUndefined();
  });
});

describe('pageIdentity', () => {
  it('counts a page once whatever its scheme and whether it is named as dir/ or dir/index.html', () => {
    const ids = [
      'http://h.test/docs/',
      'https://h.test/docs/',
      'https://h.test/docs/index.html',
      'http://H.test/docs/index.htm',
    ].map(pageIdentity);
    expect(new Set(ids).size).toBe(1);
    expect(pageIdentity('http://h.test/docs/?a=1')).not.toBe(pageIdentity('http://h.test/docs/'));
    expect(pageIdentity('http://h.test/docs/a.html')).not.toBe(pageIdentity('http://h.test/docs/'));
  });
});

describe('summarizeRuns with the oracle', () => {
  it('keeps the oracle out of the Pareto front: it is the upper bound, not a competitor', () => {
    const runs = [0, 1].flatMap((i) => [
      run({ run: i, strategy: 'oracle', harvestRate: 1, relevantDomains: 50 }),
      run({ run: i, strategy: 'tres', harvestRate: 0.8 + i / 100, relevantDomains: 30 }),
      run({ run: i, strategy: 'bfs', harvestRate: 0.3 + i / 100, relevantDomains: 40 }),
    ]);
    const rows = summarizeRuns(runs, ['oracle', 'tres', 'bfs'], ['none']);
    expect(rows.filter((r) => r.isParetoOptimal).map((r) => r.strategy)).toEqual(['tres', 'bfs']);
    expect(rows.find((r) => r.strategy === 'oracle')?.isReference).toBe(true);
  });
});

describe('outcomeSentences', () => {
  it('calls best only rows where no run ran dry when there are such rows', () => {
    const runs = [
      run({ strategy: 'a', run: 0, harvestRate: 0.5, relevant: 50, relevantDomains: 5 }),
      run({ strategy: 'a', run: 1, harvestRate: 0.5, relevant: 50, relevantDomains: 5 }),
      // 10 relevant pages of 10 attempts, then the frontier emptied.
      run({ strategy: 'b', run: 0, harvestRate: 1, relevant: 10, steps: 10, pages: 10, relevantDomains: 1 }),
      run({ strategy: 'b', run: 1, harvestRate: 0.4, relevant: 40, relevantDomains: 9 }),
    ];
    const text = outcomeSentences(summarizeRuns(runs, ['a', 'b'], ['none']), runs).join('\n');
    expect(text).toContain('Highest harvest rate: **a** at');
    expect(text).toContain('among the 1 ranked row(s) where no run ran dry');
  });
});
