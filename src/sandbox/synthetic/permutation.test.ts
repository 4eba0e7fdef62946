import { describe, expect, it } from 'vitest';
import { createRng } from '../../common/index.js';
import { logNormalInt, pickCumulative, zipfRank, zipfSizes } from './distributions.js';
import { IndexPermutation } from './permutation.js';

describe('IndexPermutation', () => {
  it('is a bijection of [0, n) whose inverse undoes it, for awkward sizes', () => {
    for (const n of [1, 2, 3, 5, 17, 100, 1023, 4097]) {
      const permutation = new IndexPermutation(n, 12345);
      const images = new Set<number>();
      for (let i = 0; i < n; i++) {
        const j = permutation.forward(i);
        expect(j).toBeGreaterThanOrEqual(0);
        expect(j).toBeLessThan(n);
        expect(permutation.inverse(j)).toBe(i);
        images.add(j);
      }
      expect(images.size).toBe(n);
    }
  });

  it('shuffles: few fixed points and a different order for another key', () => {
    const a = new IndexPermutation(1000, 1);
    const b = new IndexPermutation(1000, 2);
    let fixed = 0;
    let same = 0;
    for (let i = 0; i < 1000; i++) {
      if (a.forward(i) === i) fixed++;
      if (a.forward(i) === b.forward(i)) same++;
    }
    expect(fixed).toBeLessThan(10);
    expect(same).toBeLessThan(10);
  });
});

describe('distributions', () => {
  it('zipfSizes sums to the total, respects the minimum and decreases by rank', () => {
    const sizes = zipfSizes(20_000, 200, 1, 1);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(20_000);
    expect(Math.min(...sizes)).toBeGreaterThanOrEqual(1);
    expect(sizes[0]).toBeGreaterThan(10 * (sizes[199] as number));
    for (let r = 1; r < sizes.length; r++) expect(sizes[r]).toBeLessThanOrEqual(sizes[r - 1] as number);
    expect(() => zipfSizes(5, 10, 1)).toThrow(RangeError);
  });

  it('logNormalInt has the asked mean and a heavy tail', () => {
    const rng = createRng('lognormal');
    const draws = Array.from({ length: 50_000 }, () => logNormalInt(rng, 20, 1, 1, 100_000));
    const mean = draws.reduce((a, b) => a + b, 0) / draws.length;
    expect(mean).toBeGreaterThan(19);
    expect(mean).toBeLessThan(21);
    expect(Math.max(...draws)).toBeGreaterThan(15 * mean);
  });

  it('zipfRank favours low ranks and stays in range; pickCumulative follows the weights', () => {
    const rng = createRng('zipf');
    const counts = new Array<number>(100).fill(0);
    for (let k = 0; k < 20_000; k++) {
      const rank = zipfRank(rng, 100);
      counts[rank] = (counts[rank] as number) + 1;
    }
    expect(counts[0]).toBeGreaterThan(5 * (counts[50] as number));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(20_000);
    const picks = [0, 0, 0];
    for (let k = 0; k < 10_000; k++) {
      const pick = pickCumulative([1, 1, 4], rng);
      picks[pick] = (picks[pick] as number) + 1;
    }
    expect(picks[1]).toBe(0);
    expect((picks[2] as number) / 10_000).toBeCloseTo(0.75, 1);
  });
});
