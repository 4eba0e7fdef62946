import { describe, expect, it } from 'vitest';
import { createRng } from '../../common/index.js';
import { ExperienceSet, findBestSplit, splitGain } from './tree-split.js';

const NO_LIMITS = { minSamplesPerSide: 1, minSideFraction: 0 };

function setOf(rows: number[][], rewards: number[]): ExperienceSet {
  const set = new ExperienceSet(rows[0]?.length ?? 1);
  for (const [i, row] of rows.entries()) set.add(row, rewards[i] as number);
  return set;
}

/** Population variance, written out the textbook way (independent of the closed form). */
function variance(values: number[]): number {
  if (values.length === 0) return 0;
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  return values.reduce((a, v) => a + (v - mean) ** 2, 0) / values.length;
}

/** Equation 4 computed directly from the two sides. */
function weightedReduction(set: ExperienceSet, feature: number, threshold: number): number {
  const all: number[] = [];
  const left: number[] = [];
  const right: number[] = [];
  for (let i = 0; i < set.count; i++) {
    all.push(set.reward(i));
    (set.value(i, feature) <= threshold ? left : right).push(set.reward(i));
  }
  const n = all.length;
  return variance(all) - (left.length / n) * variance(left) - (right.length / n) * variance(right);
}

describe('splitGain', () => {
  it('gives 0.25 for rewards [1, 1, 0, 0] split perfectly', () => {
    expect(splitGain(2, 2, 4, 2)).toBeCloseTo(0.25, 12);
    const set = setOf([[0], [0], [1], [1]], [1, 1, 0, 0]);
    expect(set.rewardVariance()).toBeCloseTo(0.25, 12);
    expect(weightedReduction(set, 0, 0)).toBeCloseTo(0.25, 12);
  });

  it('equals the variance reduction computed from the sides, on a hand example', () => {
    // rewards [1, 0, 1 | 0, 0]: Var(P) = 0.24; left Var = 2/9, right 0; reduction = 0.24 - 3/5 * 2/9
    const expected = 0.24 - (3 / 5) * (2 / 9);
    expect(splitGain(3, 2, 5, 2)).toBeCloseTo(expected, 12);
  });

  it('is exactly 0 when both sides have the same mean, and 0 for an empty side', () => {
    expect(splitGain(2, 1, 4, 2)).toBe(0);
    expect(splitGain(3, 1, 6, 2)).toBe(0);
    expect(splitGain(0, 0, 4, 2)).toBe(0);
    expect(splitGain(4, 2, 4, 2)).toBe(0);
  });
});

describe('findBestSplit', () => {
  it('splits rewards [1, 1, 0, 0] perfectly on the feature that separates them', () => {
    const set = setOf(
      [
        [0, 0.5],
        [1, 0.5],
        [0, 0.7],
        [1, 0.7],
      ],
      [1, 0, 1, 0],
    );
    expect(findBestSplit(set, NO_LIMITS)).toEqual({ feature: 0, threshold: 0, gain: 0.25, leftCount: 2 });
  });

  it('finds no split when all rewards are equal', () => {
    const set = setOf([[0], [1], [2], [3]], [1, 1, 1, 1]);
    expect(findBestSplit(set, NO_LIMITS)).toBeUndefined();
  });

  it('finds no split when every rule leaves both sides with the same mean (gain 0)', () => {
    // x = 0: rewards 1, 0; x = 1: rewards 1, 0. Means 0.5 and 0.5.
    const set = setOf([[0], [0], [1], [1]], [1, 0, 1, 0]);
    expect(findBestSplit(set, NO_LIMITS)).toBeUndefined();
  });

  it('finds no split when every feature is constant', () => {
    const set = setOf(
      [
        [0.3, 1],
        [0.3, 1],
        [0.3, 1],
      ],
      [1, 0, 1],
    );
    expect(findBestSplit(set, NO_LIMITS)).toBeUndefined();
  });

  it('rejects sides smaller than minSamplesPerSide or minSideFraction of the leaf', () => {
    // The only useful rule isolates one sample: x <= 0 holds reward 1, the rest 0.
    const set = setOf([[0], [1], [1], [1], [1]], [1, 0, 0, 0, 0]);
    expect(findBestSplit(set, NO_LIMITS)?.leftCount).toBe(1);
    expect(findBestSplit(set, { minSamplesPerSide: 2, minSideFraction: 0 })).toBeUndefined();
    expect(findBestSplit(set, { minSamplesPerSide: 1, minSideFraction: 0.2 })?.leftCount).toBe(1);
    expect(findBestSplit(set, { minSamplesPerSide: 1, minSideFraction: 0.21 })).toBeUndefined();
  });

  it('uses observed values as thresholds, never the largest one', () => {
    const set = setOf([[0.25], [0.5], [0.75], [0.75]], [0, 0, 1, 1]);
    const split = findBestSplit(set, NO_LIMITS);
    expect(split?.threshold).toBe(0.5);
    expect(split?.leftCount).toBe(2);
  });

  it('breaks ties by the lowest feature, then the lowest threshold', () => {
    // Feature 1 is a copy of feature 0, so each rule has a twin with the same gain.
    const copies = setOf(
      [
        [0, 0],
        [1, 1],
      ],
      [1, 0],
    );
    expect(findBestSplit(copies, NO_LIMITS)).toMatchObject({ feature: 0, threshold: 0 });
    // Rewards [0, 1, 0]: x <= 0 and x <= 1 both give (2/9) * 0.5^2; the lower threshold wins.
    const symmetric = setOf([[0], [1], [2]], [0, 1, 0]);
    expect(splitGain(1, 0, 3, 1)).toBe(splitGain(2, 1, 3, 1));
    expect(findBestSplit(symmetric, NO_LIMITS)).toMatchObject({ feature: 0, threshold: 0 });
  });

  it('returns the largest reduction of all candidates, which never increases the weighted variance', () => {
    const rng = createRng('split-brute-force');
    for (let trial = 0; trial < 200; trial++) {
      const n = 2 + rng.int(40);
      const features = 1 + rng.int(4);
      const set = new ExperienceSet(features);
      for (let i = 0; i < n; i++) {
        // Continuous with negatives, signed zeros (-0 and 0 are one value), and low cardinality.
        const row = Array.from({ length: features }, (_, f) =>
          f === 0
            ? 2 * rng.next() - 1
            : f === 1
              ? ([-0.5, -0, 0, 0.5][rng.int(4)] as number)
              : rng.int(3) / 2,
        );
        set.add(row, rng.next() < 0.4 ? 1 : 0);
      }
      const limits = { minSamplesPerSide: 1 + rng.int(3), minSideFraction: rng.pick([0, 0.1, 0.2]) ?? 0 };
      let bestGain = 0;
      for (let f = 0; f < features; f++) {
        const values = [...new Set(Array.from({ length: n }, (_, i) => set.value(i, f)))].sort(
          (a, b) => a - b,
        );
        for (const v of values.slice(0, -1)) {
          let left = 0;
          for (let i = 0; i < n; i++) if (set.value(i, f) <= v) left++;
          const minSide = Math.max(limits.minSamplesPerSide, limits.minSideFraction * n);
          if (left < minSide || n - left < minSide) continue;
          bestGain = Math.max(bestGain, weightedReduction(set, f, v));
        }
      }
      const split = findBestSplit(set, limits);
      if (bestGain <= 1e-12) {
        expect(split).toBeUndefined();
        continue;
      }
      expect(split).toBeDefined();
      expect(split!.gain).toBeCloseTo(bestGain, 10);
      const reduction = weightedReduction(set, split!.feature, split!.threshold);
      expect(reduction).toBeCloseTo(split!.gain, 10);
      expect(reduction).toBeGreaterThan(0);
    }
  });
});

describe('ExperienceSet', () => {
  it('grows, keeps rows as float32 and partitions by a rule', () => {
    const set = new ExperienceSet(2);
    for (let i = 0; i < 10; i++) set.add([i / 3, i % 2], i % 2);
    expect(set.count).toBe(10);
    expect(set.value(1, 0)).toBe(Math.fround(1 / 3));
    expect(set.rewardSum).toBe(5);
    const [left, right] = set.partition(1, 0);
    expect([left.count, right.count]).toEqual([5, 5]);
    expect(left.rewardSum).toBe(0);
    expect(right.rewardMin).toBe(1);
    expect(set.isConstant(0)).toBe(false);
    expect(left.isConstant(1)).toBe(true);
  });
});
