/**
 * Random draws and size laws used by the synthetic web: Zipf host sizes, log-normal out-degrees,
 * Zipf-like ranks and weighted picks. All take an explicit {@link Rng}.
 */
import type { Rng } from '../../common/index.js';

/**
 * Splits `total` into `count` sizes following Zipf's law by rank (size of rank r proportional to
 * 1 / (r + 1)^exponent), each at least `minSize`, summing exactly to `total`, largest first.
 * @throws RangeError if `total < count * minSize`.
 */
export function zipfSizes(total: number, count: number, exponent: number, minSize = 1): Int32Array {
  if (total < count * minSize)
    throw new RangeError(`cannot split ${total} into ${count} sizes >= ${minSize}`);
  const weights = new Float64Array(count);
  let sum = 0;
  for (let r = 0; r < count; r++) {
    weights[r] = 1 / (r + 1) ** exponent;
    sum += weights[r] as number;
  }
  const spare = total - count * minSize;
  const sizes = new Int32Array(count);
  const remainders: Array<[number, number]> = [];
  let used = 0;
  for (let r = 0; r < count; r++) {
    const exact = ((weights[r] as number) / sum) * spare;
    const whole = Math.floor(exact);
    sizes[r] = minSize + whole;
    used += whole;
    remainders.push([exact - whole, r]);
  }
  // Largest remainders get the pages rounding left over (ties by rank, so it is deterministic).
  remainders.sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  for (let k = 0; k < spare - used; k++) {
    const rank = (remainders[k] as [number, number])[1];
    sizes[rank] = (sizes[rank] as number) + 1;
  }
  return sizes;
}

/**
 * A log-normal integer with the given mean and log-space spread, rounded, clamped to [min, max].
 * `mu = ln(mean) - sigma^2 / 2` so that the mean before rounding and clamping is `mean`.
 */
export function logNormalInt(rng: Rng, mean: number, sigma: number, min: number, max: number): number {
  const mu = Math.log(mean) - (sigma * sigma) / 2;
  const value = Math.round(Math.exp(mu + sigma * rng.normal()));
  return Math.min(max, Math.max(min, value));
}

/**
 * A rank in [0, n) with probability roughly proportional to 1 / (rank + 1.5): Zipf with exponent
 * 1, drawn in O(1) as floor((n + 1)^u) - 1.
 */
export function zipfRank(rng: Rng, n: number): number {
  const rank = Math.floor(Math.exp(rng.next() * Math.log(n + 1))) - 1;
  return rank < n ? rank : n - 1;
}

/** Index i with probability proportional to the i-th weight, given cumulative sums (last = total). */
export function pickCumulative(cumulative: ArrayLike<number>, rng: Rng): number {
  const total = cumulative[cumulative.length - 1] as number;
  const x = rng.next() * total;
  let lo = 0;
  let hi = cumulative.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((cumulative[mid] as number) > x) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
