import { describe, expect, it } from 'vitest';
import type { RunResult } from '../crawl/index.js';
import { lossSection } from './report-loss.js';
import { wilcoxonSection } from './report-wilcoxon.js';
import { smallestWilcoxonP, wilcoxonSignedRank } from './wilcoxon.js';

describe('wilcoxonSignedRank', () => {
  it('gives the exact two-sided p of a textbook example', () => {
    // Differences 1..8 with signs + + - + + + - +: W- = 3 + 7 = 10, W+ = 26.
    const a = [1, 2, -3, 4, 5, 6, -7, 8];
    const b = a.map(() => 0);
    const r = wilcoxonSignedRank(a, b);
    expect([r.n, r.wPlus, r.wMinus]).toEqual([8, 26, 10]);
    // P(W- <= 10) for n = 8 is 40/256 (counted over the 256 sign patterns); two-sided 80/256.
    expect(r.p).toBeCloseTo(80 / 256, 10);
  });

  it('reaches its smallest p when every pair favours one side, and drops zero differences', () => {
    const r = wilcoxonSignedRank([0.9, 0.8, 0.7, 0.6, 0.5, 0.4], [0.1, 0.1, 0.1, 0.1, 0.1, 0.4]);
    expect(r.n).toBe(5);
    expect(r.p).toBeCloseTo(smallestWilcoxonP(5), 12);
    expect(smallestWilcoxonP(5)).toBeCloseTo(0.0625, 12);
  });

  it('uses average ranks for tied differences and stays symmetric', () => {
    const r = wilcoxonSignedRank([1, 1, -1, 2], [0, 0, 0, 0]);
    expect([r.wPlus, r.wMinus]).toEqual([8, 2]);
    const mirrored = wilcoxonSignedRank([0, 0, 0, 0], [1, 1, -1, 2]);
    expect(mirrored.p).toBeCloseTo(r.p, 12);
    expect(wilcoxonSignedRank([1, 2], [1, 2]).p).toBe(1);
  });

  it('gives the exact one-sided p that a is ahead, P(W+ >= observed), ties and zeros included', () => {
    // The textbook example: W+ = 26 of 36; P(W+ >= 26) = P(W- <= 10) = 40/256.
    expect(wilcoxonSignedRank([1, 2, -3, 4, 5, 6, -7, 8], new Array(8).fill(0)).pGreater).toBeCloseTo(
      40 / 256,
      12,
    );
    // All five ahead: 1/32. All five behind: every sign pattern has W+ >= 0, so 1.
    expect(wilcoxonSignedRank([1, 2, 3, 4, 5], [0, 0, 0, 0, 0]).pGreater).toBeCloseTo(1 / 32, 12);
    expect(wilcoxonSignedRank([0, 0, 0, 0, 0], [1, 2, 3, 4, 5]).pGreater).toBe(1);
    // W+ = W- = 1.5 (ranks 1.5, 1.5): patterns with W+ >= 1.5 are 3 of 4.
    expect(wilcoxonSignedRank([1, -1], [0, 0]).pGreater).toBeCloseTo(3 / 4, 12);
    expect(wilcoxonSignedRank([1, 2], [1, 2]).pGreater).toBe(1);
  });
});

describe('wilcoxonSection', () => {
  const run = (strategy: string, runIndex: number, rates: number[]) =>
    ({
      strategy,
      domainLimit: 'none',
      run: runIndex,
      maxPages: 400,
      curve: rates.map((harvestRate, k) => ({ step: (k + 1) * 200, harvestRate })),
    }) as unknown as RunResult;

  it('tests tres against each strategy every 200 pages, paired by run, and says when n is too small', () => {
    const runs: RunResult[] = [];
    for (let i = 0; i < 6; i++) {
      runs.push(run('tres', i, [0.5 + i / 100, 0.6 + i / 100]));
      runs.push(run('bfs', i, [0.2, 0.61 + i / 100 - (i % 2) * 0.03]));
    }
    const section = wilcoxonSection(runs);
    // At 200 pages tres is ahead in all 6 pairs: p = 2/64.
    expect(section).toContain('| bfs | **+0.031** |');
    expect(section).toContain('With 6 pairs the smallest p any test can give is 0.0313.');
    expect(wilcoxonSection(runs.filter((r) => r.run < 5))).toContain('no difference can be significant');
    expect(wilcoxonSection(runs.filter((r) => r.strategy === 'bfs'))).toBe('');
  });
});

describe('lossSection', () => {
  it('gives the mean irrelevant pages fetched by every 600th step for the apprentice and its baselines', () => {
    const run = (strategy: string, rate: number) =>
      ({
        strategy,
        domainLimit: 'none',
        run: 0,
        maxPages: 1200,
        curve: [
          { step: 600, harvestRate: rate },
          { step: 1200, harvestRate: rate },
        ],
      }) as unknown as RunResult;
    const section = lossSection([run('apprentice', 0.8), run('apprentice:learn=0', 0.6), run('bfs', 0.1)]);
    expect(section).toContain('| apprentice | 120 | 240 |');
    expect(section).toContain('| apprentice:learn=0 | 240 | 480 |');
    expect(section).not.toContain('| bfs |');
    expect(lossSection([run('bfs', 0.1)])).toBe('');
  });
});
