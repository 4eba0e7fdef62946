import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from 'tres-testing/temp-dir';
import { describe, expect, it } from 'vitest';
import type { RunResult } from '../crawl/index.js';
import { summarizeRuns } from '../crawl/index.js';
import { checkClaim, readTopicResults, summaryReport, type TopicResults } from './report-summary.js';

/** Five runs of a strategy at a limit with the given harvest rates and relevant domains. */
function runs(
  strategy: string,
  domainLimit: string,
  hr: number[],
  domains: number[],
  steps = 1000,
): RunResult[] {
  return hr.map((h, run) => ({
    topic: 't',
    strategy,
    domainLimit,
    run,
    seedUrl: `https://s${run}.example/`,
    maxPages: 1000,
    stopReason: 'max-pages',
    steps,
    pages: steps,
    failures: 0,
    relevant: Math.round(h * steps),
    harvestRate: h,
    relevantDomains: domains[run] as number,
    classifierRelevant: 0,
    classifierHarvestRate: 0,
    classifierRelevantDomains: 0,
    bothRelevant: 0,
    finalStats: {},
    curve: [],
    timing: { elapsedMs: 1000, pagesPerSec: 100 },
  }));
}

const strategies = ['oracle', 'tres', 'best-first', 'bfs'];
const limits = ['none', '10'];

/** tres dominates everything: more harvest rate at no limit, more domains at 10. */
const winning = summarizeRuns(
  [
    ...runs('oracle', 'none', [0.9, 0.9, 0.9], [50, 50, 50]),
    ...runs('oracle', '10', [0.3, 0.3, 0.3], [200, 200, 200]),
    ...runs('tres', 'none', [0.8, 0.81, 0.79], [40, 41, 39]),
    ...runs('tres', '10', [0.3, 0.31, 0.29], [190, 191, 189]),
    ...runs('best-first', 'none', [0.6, 0.61, 0.59], [40, 41, 39]),
    ...runs('best-first', '10', [0.2, 0.21, 0.19], [150, 151, 149]),
    ...runs('bfs', 'none', [0.2, 0.21, 0.19], [10, 11, 9]),
    ...runs('bfs', '10', [0.1, 0.11, 0.09], [100, 101, 99]),
  ],
  strategies,
  limits,
);

/** best-first ties tres at no limit (within the spread) and finds more domains at 10. */
const losing = summarizeRuns(
  [
    ...runs('oracle', 'none', [0.9, 0.9, 0.9], [50, 50, 50]),
    ...runs('tres', 'none', [0.7, 0.8, 0.6], [40, 41, 39]),
    ...runs('tres', '10', [0.3, 0.31, 0.29], [150, 151, 149]),
    ...runs('best-first', 'none', [0.65, 0.66, 0.64], [40, 41, 39]),
    ...runs('best-first', '10', [0.3, 0.31, 0.29], [190, 191, 189]),
    // Ran dry after 20 pages: unranked, never counted against tres.
    ...runs('bfs', 'none', [1, 1, 1], [1, 1, 1], 20),
  ],
  strategies,
  limits,
);

describe('checkClaim', () => {
  it('is met when a tres row is on the front, every other row is dominated and HR >= 85% of the oracle', () => {
    const c = checkClaim('w', winning);
    expect(c.onFront).toEqual(['tres', 'tres_10']);
    expect(c.undominated).toEqual([]);
    expect(c.oracleShare?.mean).toBeCloseTo(0.8 / 0.9, 2);
    expect(c.isMet).toBe(true);
  });

  it('names the rows no tres row dominates; a tie within the spread dominates nothing', () => {
    const c = checkClaim('l', losing);
    expect(c.undominated).toEqual(['best-first', 'best-first_10']);
    expect(c.onFront).toEqual(['tres']);
    expect(c.isMet).toBe(false);
  });

  it('fails when the harvest rate at no limit is under 85% of the oracle, even if it dominates', () => {
    const low = winning.map((r) =>
      r.label === 'tres' ? { ...r, oracleHarvestShare: { mean: 0.8, std: 0.01 } } : r,
    );
    expect(checkClaim('w', low).isMet).toBe(false);
  });

  it('counts neither its own ablation specs (tres:gamma=0.5) as rivals nor as its rows', () => {
    const withSpec = [
      ...losing,
      {
        ...(losing.find((r) => r.label === 'best-first') as (typeof losing)[number]),
        strategy: 'tres:gamma=0.5',
        label: 'tres:gamma=0.5',
      },
    ];
    expect(checkClaim('l', withSpec).undominated).toEqual(['best-first', 'best-first_10']);
  });

  it('keeps a tres row on the front when only its own ablation spec dominates it', () => {
    const withBetterSpec = summarizeRuns(
      [
        ...runs('oracle', 'none', [0.9, 0.9, 0.9], [50, 50, 50]),
        ...runs('tres', 'none', [0.8, 0.81, 0.79], [40, 41, 39]),
        ...runs('tres:newDomainBonus=1', 'none', [0.85, 0.86, 0.84], [45, 46, 44]),
        ...runs('best-first', 'none', [0.6, 0.61, 0.59], [40, 41, 39]),
      ],
      ['oracle', 'tres', 'tres:newDomainBonus=1', 'best-first'],
      ['none'],
    );
    // The report's front counts every row: there the spec pushes tres off.
    expect(withBetterSpec.find((r) => r.label === 'tres')?.isParetoOptimal).toBe(false);
    expect(checkClaim('s', withBetterSpec).onFront).toEqual(['tres']);
  });

  it('lists the TRES ablations (Table 4) it does not dominate apart, without counting them', () => {
    const withAblations = [
      ...winning,
      ...['tres-nh', 'synchronous'].map((strategy) => ({
        ...(winning.find((r) => r.label === 'tres') as (typeof winning)[number]),
        strategy,
        label: strategy,
      })),
    ];
    const c = checkClaim('w', withAblations);
    expect(c.undominated).toEqual([]);
    // Equal to tres in both axes: a tie, which dominates nothing.
    expect(c.undominatedAblations).toEqual(['tres-nh', 'synchronous']);
    expect(c.isMet).toBe(true);
    // For a strategy outside the family they are rivals like any other.
    expect(checkClaim('w', withAblations, 'best-first').undominated).toContain('synchronous');
  });

  it('checks another strategy when told to', () => {
    expect(checkClaim('l', losing, 'best-first').undominated).toEqual(['tres']);
  });
});

describe('summaryReport and readTopicResults', () => {
  const root = tempDir('tres-summary-');
  const write = (name: string, rows: unknown) => {
    const dir = join(root, name);
    mkdirSync(dir, { recursive: true });
    // As JSON.stringify writes it: NaN becomes null.
    writeFileSync(
      join(dir, 'results.json'),
      JSON.stringify({ topic: { name }, options: { maxPages: 1000, runs: 3 }, judge: 'model:/m', rows }),
    );
    return dir;
  };

  it('reads results folders back (NaN written as null) and says per topic whether the claim holds', () => {
    const topics: TopicResults[] = [write('alpha', winning), write('beta', losing)].map(readTopicResults);
    expect(topics.map((t) => t.topic)).toEqual(['alpha', 'beta']);
    const md = summaryReport(topics);
    expect(md).toContain('**Met on 1 of 2 topics.**');
    expect(md).toMatch(/\| alpha \| 3 × 1000 \| tres, tres_10 \| none \| 88\.\d ± [\d.]+% \| met \|/);
    expect(md).toMatch(
      /\| beta \| 3 × 1000 \| tres \| best-first, best-first_10 \| [\d.]+ ± [\d.]+% \| not met \|/,
    );
    expect(md).toContain('## Harvest rate %, no domain limit');
    // No ablation in these folders: no Table 4.
    expect(md).not.toContain('Table 4 layout');
    expect(md).toContain('## Relevant domains, domain limit 10');
    // bfs at no limit on beta ran dry after 20 pages: shown, marked, never bold.
    expect(md).toMatch(/\| bfs \| [^|]+ \| 100\.0 ± 0\.0 \(unranked\) \|/);
    expect(md).not.toContain('Written by');
    expect(summaryReport(topics, 'tres', 'npm run lab -- bench summary a b')).toContain(
      'Written by `npm run lab -- bench summary a b` from',
    );
  });

  it("shows tres, its ablations and Async in the journal's Table 4 layout", () => {
    const rows = summarizeRuns(
      [
        ...runs('tres', 'none', [0.8, 0.81, 0.79], [40, 41, 39]),
        ...runs('tres-nh', 'none', [0.7, 0.71, 0.69], [60, 61, 59]),
        ...runs('han-async', 'none', [0.2, 0.21, 0.19], [30, 31, 29]),
        ...runs('best-first', 'none', [0.6, 0.61, 0.59], [40, 41, 39]),
      ],
      ['tres', 'tres-nh', 'han-async', 'best-first'],
      ['none'],
    );
    const md = summaryReport([readTopicResults(write('gamma', rows))]);
    expect(md).toContain('## Table 4 layout: TRES and its ablations');
    expect(md).toContain('| crawler | gamma HR | gamma domains |');
    expect(md).toMatch(/\| \*\*tres\*\* \| 80\.0 ± [\d.]+ \| 40\.0 ± [\d.]+ \|/);
    expect(md).toMatch(/\| tres-nh \| 70\.0 ± [\d.]+ \| 60\.0 ± [\d.]+ \|/);
    expect(md).toMatch(/\| han-async \| 20\.0 ± [\d.]+ \| 30\.0 ± [\d.]+ \|/);
    const table4 = md.split('## Table 4 layout')[1]?.split('\n## ')[0] ?? '';
    expect(table4).toContain('| tres-nh |');
    expect(table4).not.toContain('best-first');
  });

  it('says which file is wrong when a folder holds no crawl results', () => {
    expect(() => readTopicResults(join(root, 'missing'))).toThrow(
      /missing\/results\.json.*npm run lab -- bench crawl --out/,
    );
    const bad = join(root, 'bad');
    mkdirSync(bad);
    writeFileSync(join(bad, 'results.json'), '{"rows": 3}');
    expect(() => readTopicResults(bad)).toThrow(
      /bad\/results\.json is not the results of npm run lab -- bench crawl/,
    );
  });
});
