import { describe, expect, it } from 'vitest';
import { outcomeSentences } from '../report/index.js';
import type { RunResult } from './crawl-bench-run.js';
import { pageIdentity } from './crawl-bench-run.js';
import {
  bestRowsWithTies,
  type ConfigRow,
  isBetter,
  meanCurve,
  pairedDifference,
  rowDominates,
  rowParetoFront,
  spread,
  summarizeRuns,
} from './crawl-bench-stats.js';

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

/** A row with the given per-seed harvest rates and domains (all runs spent the budget unless dry). */
function row(label: string, hr: number[], domains: number[], dry: number[] = []): ConfigRow {
  const counted = hr.map((_, i) => i).filter((i) => !dry.includes(i));
  const base = summarizeRuns(
    hr.map((h, i) =>
      run({
        strategy: label,
        run: i,
        harvestRate: h,
        relevantDomains: domains[i] as number,
        steps: dry.includes(i) ? 10 : 100,
      }),
    ),
    [label],
    ['none'],
  )[0] as ConfigRow;
  expect(base.harvestRate.mean).toBeCloseTo(
    counted.reduce((a, i) => a + (hr[i] as number), 0) / counted.length,
    12,
  );
  return base;
}
/** A row without per-run figures (results.json written before they were kept). */
const unpaired = (r: ConfigRow): ConfigRow => {
  const { perRun: _, ...rest } = r;
  return rest;
};

describe('rowParetoFront', () => {
  it('keeps the rows no other row beats in both objectives, equal rows included', () => {
    const rows = [
      row('a', [0.9, 0.9], [1, 1]), // front: best harvest rate
      row('b', [0.5, 0.5], [5, 5]), // front
      row('c', [0.4, 0.4], [4, 4]), // dominated by b
      row('d', [0.1, 0.1], [9, 9]), // front: most domains
      row('e', [0.5, 0.5], [5, 5]), // equal to b: not dominated, stays
      row('f', [0.05, 0.05], [9, 9]), // dominated by d
    ];
    expect(rowParetoFront(rows)).toEqual([0, 1, 3, 4]);
  });

  it('pairs runs by seed: a small difference that holds on every seed is a win, one that flips is a tie', () => {
    // Seeds differ a lot (0.3 to 0.9), but b is 0.02 ahead of a on every seed.
    const a = row('a', [0.3, 0.6, 0.9], [10, 10, 10]);
    const b = row('b', [0.32, 0.62, 0.92], [10, 10, 10]);
    expect(pairedDifference(b, a, 'harvestRate')?.mean).toBeCloseTo(0.02, 12);
    expect(isBetter(b, a, 'harvestRate')).toBe(true);
    expect(rowDominates(b, a)).toBe(true);
    expect(rowParetoFront([a, b])).toEqual([1]);
    // Unpaired, the same means are within the spread over seeds: a tie.
    expect(isBetter(unpaired(b), unpaired(a), 'harvestRate')).toBe(false);
    expect(rowParetoFront([unpaired(a), unpaired(b)])).toEqual([0, 1]);
    // b ahead on two seeds and behind on one: the differences spread more than their mean.
    const c = row('c', [0.4, 0.7, 0.8], [10, 10, 10]);
    expect(isBetter(c, a, 'harvestRate')).toBe(false);
  });

  it('leaves a run that ran dry out of the row figures and out of the pairs', () => {
    // Run 2 ran dry after 10 attempts with a rate of 1.0: not counted.
    const a = row('a', [0.5, 0.5, 1.0], [3, 3, 1], [2]);
    expect(a.harvestRate.mean).toBeCloseTo(0.5, 12);
    expect(a.dryRuns).toBe(1);
    const b = row('b', [0.6, 0.6, 0.1], [3, 3, 9]);
    expect(pairedDifference(b, a, 'harvestRate')?.mean).toBeCloseTo(0.1, 12);
  });

  it('calls two rows tied when fewer than two seeds let both spend the budget', () => {
    const a = row('a', [0.9, 0.5, 0.5], [3, 3, 3], [1, 2]);
    const b = row('b', [0.1, 0.5, 0.5], [3, 3, 3]);
    expect(pairedDifference(a, b, 'harvestRate')).toBeUndefined();
    expect(isBetter(a, b, 'harvestRate')).toBe(false);
    expect(isBetter(b, a, 'harvestRate')).toBe(false);
  });
});

describe('bestRowsWithTies', () => {
  it('marks the best mean and every row it is not better than beyond the spread', () => {
    const rows = [
      row('a', [0.8, 0.9, 0.7], [1, 1, 1]),
      row('b', [0.79, 0.8, 0.72], [1, 1, 1]), // behind on two seeds, ahead on one: tie
      row('c', [0.5, 0.6, 0.4], [1, 1, 1]), // behind by 0.3 on every seed
    ];
    expect(bestRowsWithTies(rows, 'harvestRate')).toEqual([0, 1]);
    expect(bestRowsWithTies(rows, 'relevantDomains')).toEqual([0, 1, 2]);
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

  it('marks the Pareto-optimal rows among the ranked rows; one shared seed is no evidence of dominance', () => {
    // random is behind bfs on both objectives, but they share only seed 0: a tie, both stay.
    expect(rows.map((r) => r.isParetoOptimal)).toEqual([true, true, true, false]);
    const withSeed1 = summarizeRuns(
      [...runs, run({ strategy: 'random', run: 1, harvestRate: 0.05, relevantDomains: 1, relevant: 5 })],
      ['bfs', 'random', 'tres'],
      ['none', '10'],
    );
    expect(withSeed1.map((r) => r.isParetoOptimal)).toEqual([true, true, false, false]);
  });
});

describe('summarizeRuns ranking', () => {
  it('ranks a row whose runs spent at least a third of the budget on average, counting the runs that ran dry; its figures are those of the runs that spent the budget', () => {
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
    expect(rows[0]!.pageHarvestRate.mean).toBeCloseTo(0.5, 12);
    expect(rows[0]!.steps.mean).toBe(60);
    // Every run of b ran dry: b shows them all, unranked.
    expect(rows[1]!.steps.mean).toBe(33);
  });

  it('compares rows whose runs all ran dry after a third of the budget (as every run does at limit 5 on a small web)', () => {
    // 50 of 100 attempts, then the frontier ran dry.
    const late = (strategy: string, i: number, harvestRate: number, relevantDomains: number) =>
      run({ strategy, run: i, harvestRate, relevantDomains, steps: 50, stopReason: 'frontier-empty' });
    const rows = summarizeRuns(
      [
        late('a', 0, 0.5, 20),
        late('a', 1, 0.52, 21),
        late('a', 2, 0.51, 22),
        late('b', 0, 0.3, 10),
        late('b', 1, 0.31, 11),
        late('b', 2, 0.32, 12),
      ],
      ['a', 'b'],
      ['none'],
    );
    expect(rows.map((r) => [r.label, r.isRanked, r.dryRuns])).toEqual([
      ['a', true, 3],
      ['b', true, 3],
    ]);
    expect(rows.map((r) => r.isParetoOptimal)).toEqual([true, false]);
    expect(rows[0]!.harvestRate.mean).toBeCloseTo(0.51, 12);
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
  it('judges a row with a dry run by its runs that spent the budget, not by a rate over 10 attempts', () => {
    const runs = [
      run({ strategy: 'a', run: 0, harvestRate: 0.5, relevant: 50, relevantDomains: 5 }),
      run({ strategy: 'a', run: 1, harvestRate: 0.5, relevant: 50, relevantDomains: 5 }),
      // 10 relevant pages of 10 attempts, then the frontier emptied.
      run({ strategy: 'b', run: 0, harvestRate: 1, relevant: 10, steps: 10, pages: 10, relevantDomains: 1 }),
      run({ strategy: 'b', run: 1, harvestRate: 0.4, relevant: 40, relevantDomains: 9 }),
    ];
    const text = outcomeSentences(summarizeRuns(runs, ['a', 'b'], ['none']), runs).join('\n');
    // b: 40% over its full run (its 100% over 10 attempts left out), against a's 50%.
    expect(text).toContain('Highest harvest rate: **a** at 50.0 ± 0.0% (next: b, 40.0 ± 0.0%)');
    expect(text).toContain('Most relevant domains: **b** with 9.0 ± 0.0');
    expect(text).toContain('their figures leave out the runs that ran dry before 33% of the budget');
  });
});
