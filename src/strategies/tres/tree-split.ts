/**
 * The split search of Tree-Frontier (TRES journal paper, section 2.6, equations 3 and 4;
 * conference paper, Algorithm 2 line 2): the experience samples of one leaf, and the rule
 * `x[f] <= v` that most reduces the weighted variance of their rewards.
 *
 * Variance is the population variance (denominator n, numpy's `np.var` default), so that a side
 * of one sample has variance 0 rather than undefined. For that variance the weighted reduction of
 * equation 4 has a closed form (the between-group term of the law of total variance):
 *
 *   Var(P) - (nL/n) Var(L) - (nR/n) Var(R) = (nL nR / n^2) (meanL - meanR)^2
 *
 * so it is never negative, it is 0 exactly when both sides have the same mean reward, and it is
 * computed from the counts and reward sums alone, without the rounding of sum(r^2) - n mean^2.
 */

/** A candidate partition of a leaf's experiences: left is `x[feature] <= threshold`. */
export interface TreeSplit {
  /** Index of the feature the rule tests. */
  feature: number;
  /** The rule sends `x[feature] <= threshold` left, everything else right. An observed value. */
  threshold: number;
  /** Weighted reward variance reduction of equation 4 (> 0 for any split returned). */
  gain: number;
  /** Experiences on the left side. */
  leftCount: number;
}

/** Limits on the two sides of a split. */
export interface SplitLimits {
  /** Minimum experiences on each side (absolute), >= 1. */
  minSamplesPerSide: number;
  /** Minimum experiences on each side as a fraction of the leaf's experiences, in [0, 0.5]. */
  minSideFraction: number;
}

/**
 * Weighted variance reduction (equation 4, population variance) of splitting n rewards summing to
 * `sum` into a left side of `leftCount` rewards summing to `leftSum` and the rest.
 * Returns 0 if a side is empty.
 */
export function splitGain(leftCount: number, leftSum: number, count: number, sum: number): number {
  const rightCount = count - leftCount;
  if (leftCount <= 0 || rightCount <= 0) return 0;
  const diff = leftSum / leftCount - (sum - leftSum) / rightCount;
  return ((leftCount * rightCount) / (count * count)) * diff * diff;
}

/**
 * The experience samples (x, r) of one leaf: rows of a growable Float32Array plus running
 * statistics (reward sum, min and max; each feature's min and max) that let the split search skip
 * leaves whose rewards are all equal and features that are constant, in O(1) per feature.
 */
export class ExperienceSet {
  private rows: Float32Array; // [capacity, featureCount]
  private rewardValues: Float64Array; // [capacity]
  private readonly featureMin: Float64Array; // [featureCount]
  private readonly featureMax: Float64Array; // [featureCount]
  private n = 0;
  /** Sum of the rewards. */
  rewardSum = 0;
  /** Smallest reward (Infinity when empty). */
  rewardMin = Number.POSITIVE_INFINITY;
  /** Largest reward (-Infinity when empty). */
  rewardMax = Number.NEGATIVE_INFINITY;

  /** @param featureCount length of every row. @param capacity initial rows allocated. */
  constructor(
    readonly featureCount: number,
    capacity = 4,
  ) {
    this.rows = new Float32Array(capacity * featureCount);
    this.rewardValues = new Float64Array(capacity);
    this.featureMin = new Float64Array(featureCount).fill(Number.POSITIVE_INFINITY);
    this.featureMax = new Float64Array(featureCount).fill(Number.NEGATIVE_INFINITY);
  }

  /** Number of experiences. */
  get count(): number {
    return this.n;
  }

  /** Appends one experience; `x` is copied (rounded to float32, as the frontier samples are). */
  add(x: ArrayLike<number>, reward: number): void {
    const f = this.featureCount;
    if (this.n === this.rewardValues.length) {
      const capacity = Math.max(4, this.n * 2);
      const rows = new Float32Array(capacity * f);
      rows.set(this.rows);
      this.rows = rows;
      const rewards = new Float64Array(capacity);
      rewards.set(this.rewardValues);
      this.rewardValues = rewards;
    }
    const base = this.n * f;
    for (let j = 0; j < f; j++) {
      this.rows[base + j] = x[j] as number;
      const v = this.rows[base + j] as number;
      if (v < (this.featureMin[j] as number)) this.featureMin[j] = v;
      if (v > (this.featureMax[j] as number)) this.featureMax[j] = v;
    }
    this.rewardValues[this.n] = reward;
    this.n++;
    this.rewardSum += reward;
    if (reward < this.rewardMin) this.rewardMin = reward;
    if (reward > this.rewardMax) this.rewardMax = reward;
  }

  /** Copies of the experiences: rows [count, featureCount] and rewards [count], for checkpoints. */
  snapshot(): { rows: Float32Array; rewards: Float64Array } {
    return {
      rows: this.rows.slice(0, this.n * this.featureCount),
      rewards: this.rewardValues.slice(0, this.n),
    };
  }

  /** Feature `feature` of experience `index`. */
  value(index: number, feature: number): number {
    return this.rows[index * this.featureCount + feature] as number;
  }

  /** Reward of experience `index`. */
  reward(index: number): number {
    return this.rewardValues[index] as number;
  }

  /** A view (not a copy) of the row of experience `index`. */
  row(index: number): Float32Array {
    const f = this.featureCount;
    return this.rows.subarray(index * f, (index + 1) * f);
  }

  /** True if feature `feature` takes a single value over all experiences (or there are none). */
  isConstant(feature: number): boolean {
    return !((this.featureMax[feature] as number) > (this.featureMin[feature] as number));
  }

  /** Reward variance (population, denominator n); 0 when empty. */
  rewardVariance(): number {
    if (this.n === 0) return 0;
    const mean = this.rewardSum / this.n;
    let squares = 0;
    for (let i = 0; i < this.n; i++) squares += ((this.rewardValues[i] as number) - mean) ** 2;
    return squares / this.n;
  }

  /** The experiences split by `x[feature] <= threshold` into two new sets (this one is unchanged). */
  partition(feature: number, threshold: number): [left: ExperienceSet, right: ExperienceSet] {
    const left = new ExperienceSet(this.featureCount);
    const right = new ExperienceSet(this.featureCount);
    for (let i = 0; i < this.n; i++) {
      const side = this.value(i, feature) <= threshold ? left : right;
      side.add(this.row(i), this.rewardValues[i] as number);
    }
    return [left, right];
  }
}

/**
 * A leaf with this many experiences (2^21) or more no longer tries splits: the packed sort keys
 * are exact only below it. Never reached by a crawl, which adds one experience per page.
 */
export const MAX_SPLIT_EXPERIENCES = 2 ** 21;

/**
 * The best rule `x[f] <= v` for the experiences of one leaf, or undefined if no rule has a
 * positive gain within the limits. Candidates: every feature f and every distinct observed value
 * v of x[f] except the largest (which would leave the right side empty). A candidate is rejected
 * if a side has fewer than `minSamplesPerSide` or fewer than `minSideFraction * n` experiences.
 *
 * Ties: the first best candidate in scan order wins (features in index order, thresholds
 * ascending), so the lowest feature index and then the lowest threshold: deterministic.
 *
 * Cost: O(F n log n) (one native numeric sort of the leaf's experiences per non-constant feature);
 * nothing when all rewards are equal, since no rule can then reduce the variance.
 */
export function findBestSplit(set: ExperienceSet, limits: SplitLimits): TreeSplit | undefined {
  const n = set.count;
  if (n < 2 || n >= MAX_SPLIT_EXPERIENCES || !(set.rewardMax > set.rewardMin)) return undefined;
  const minSide = Math.max(limits.minSamplesPerSide, limits.minSideFraction * n);
  if (2 * minSide > n) return undefined;
  const sum = set.rewardSum;
  const keys = new Float64Array(n); // [n], (value, index) keys, see sortKeys
  let best: TreeSplit | undefined;
  for (let f = 0; f < set.featureCount; f++) {
    if (set.isConstant(f)) continue;
    sortKeys(set, f, keys);
    let leftSum = 0;
    let group = Math.floor((keys[0] as number) / INDEX_RANGE);
    for (let i = 0; i < n - 1; i++) {
      const key = keys[i] as number;
      const index = key - group * INDEX_RANGE;
      leftSum += set.reward(index);
      const next = Math.floor((keys[i + 1] as number) / INDEX_RANGE);
      // Only a boundary between distinct values is a rule: x[f] <= v sends all equal values left.
      if (next === group) continue;
      group = next;
      const leftCount = i + 1;
      if (leftCount < minSide || n - leftCount < minSide) continue;
      const gain = splitGain(leftCount, leftSum, n, sum);
      if (gain > (best?.gain ?? 0)) best = { feature: f, threshold: set.value(index, f), gain, leftCount };
    }
  }
  return best;
}

const INDEX_RANGE = 2 ** 21;
const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/**
 * Fills `keys` with one key per experience, ascending: the order-preserving 32-bit pattern of
 * x[feature] (sign bit flipped for positives, all bits for negatives; -0 counted as +0) times
 * 2^21, plus the experience index. Keys are exact integers below 2^53, so a plain Float64Array
 * sort (native, no comparator: about 5 times faster than an index sort with a comparator) orders
 * them by value, and floor(key / 2^21) is equal exactly for equal values.
 */
function sortKeys(set: ExperienceSet, feature: number, keys: Float64Array): void {
  for (let i = 0; i < set.count; i++) {
    f32[0] = set.value(i, feature) + 0; // -0 + 0 is +0
    const bits = u32[0] as number;
    const sortable = bits >= 0x80000000 ? ~bits >>> 0 : bits + 0x80000000;
    keys[i] = sortable * INDEX_RANGE + i;
  }
  keys.sort();
}
