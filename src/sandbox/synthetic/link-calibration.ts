/**
 * Calibration of the within-host link probability. A page cannot link to more distinct pages of
 * its host than the host has, so pages of small hosts send some of their links elsewhere, and the
 * measured within-host share would fall below `shareWithinHost`. Pages of larger hosts therefore
 * stay on their host with a scaled-up probability `shareWithinHost * scale`, where `scale` is
 * solved once so that the expected share over the whole web equals the target:
 *
 *   sum_h size_h * E[min(p * scale * D, c * (size_h - 1))] = p * sum_h size_h * E[D]
 *
 * with D the (regular page) out-degree, its expectation taken over evenly spaced quantiles of the
 * log-normal (random draws of a heavy tail are too noisy here), and c the effective capacity below.
 */
import type { SyntheticWebOptions } from './synthetic-options.js';

const DEGREE_QUANTILES = 256;
/**
 * Share of a host's other pages that one page can really reach with distinct links: targets are
 * drawn inside one topic block, half of them Zipf-biased, with 4 redraws on a duplicate, so a
 * host saturates at about 60% of its size (fitted on 20k- and 200k-page webs, several seeds).
 */
const EFFECTIVE_CAPACITY = 0.6;

/** Factor (>= 1) by which regular pages' within-host probability is scaled; 1 if nothing to correct. */
export function withinHostScale(o: SyntheticWebOptions, sizes: Int32Array): number {
  const p = o.shareWithinHost;
  if (p <= 0 || p >= 1) return 1;
  const hubFactor = 1 - o.hubShare + o.hubShare * o.hubDegreeFactor;
  const mean = o.meanOutDegree / hubFactor;
  const mu = Math.log(mean) - (o.outDegreeSigma * o.outDegreeSigma) / 2;
  const degrees = Array.from({ length: DEGREE_QUANTILES }, (_, k) => {
    const z = normalQuantile((k + 0.5) / DEGREE_QUANTILES);
    return Math.min(o.maxOutDegree, Math.max(1, Math.exp(mu + o.outDegreeSigma * z)));
  });
  const meanDegree = degrees.reduce((a, b) => a + b, 0) / DEGREE_QUANTILES;
  // Hosts grouped by size: the tail of a Zipf law has many hosts of equal size.
  const pagesBySize = new Map<number, number>();
  let pages = 0;
  for (const size of sizes) {
    pagesBySize.set(size, (pagesBySize.get(size) ?? 0) + size);
    pages += size;
  }
  const share = (scale: number) => {
    const q = Math.min(1, p * scale);
    let onHost = 0;
    for (const [size, weight] of pagesBySize) {
      let sum = 0;
      for (const d of degrees) sum += Math.min(q * d, EFFECTIVE_CAPACITY * (size - 1));
      onHost += (weight * sum) / DEGREE_QUANTILES;
    }
    return onHost / (pages * meanDegree);
  };
  if (share(1 / p) <= p) return 1 / p;
  let lo = 1;
  let hi = 1 / p;
  for (let k = 0; k < 30; k++) {
    const mid = (lo + hi) / 2;
    if (share(mid) < p) lo = mid;
    else hi = mid;
  }
  return hi;
}

/**
 * Quantile of the standard normal distribution at p in (0, 1): Acklam's rational approximation
 * (relative error below 1.2e-9), enough for calibration.
 */
export function normalQuantile(p: number): number {
  const a = [
    -39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716,
    2.506628277459239,
  ];
  const b = [
    -54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572,
  ];
  const c = [
    -0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968,
    2.938163982698783,
  ];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const tail = (q: number) =>
    (((((c[0]! * q + c[1]!) * q + c[2]!) * q + c[3]!) * q + c[4]!) * q + c[5]!) /
    ((((d[0]! * q + d[1]!) * q + d[2]!) * q + d[3]!) * q + 1);
  if (p < 0.02425) return tail(Math.sqrt(-2 * Math.log(p)));
  if (p > 1 - 0.02425) return -tail(Math.sqrt(-2 * Math.log(1 - p)));
  const q = p - 0.5;
  const r = q * q;
  return (
    ((((((a[0]! * r + a[1]!) * r + a[2]!) * r + a[3]!) * r + a[4]!) * r + a[5]!) * q) /
    (((((b[0]! * r + b[1]!) * r + b[2]!) * r + b[3]!) * r + b[4]!) * r + 1)
  );
}
