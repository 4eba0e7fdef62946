/**
 * The Wilcoxon signed-rank test for paired samples (Wilcoxon 1945), exact two-sided p-value, as
 * RLwCS (Partalas et al. 2008, section 4) compares crawlers every 200 pages. Pairs with a zero
 * difference are dropped (Wilcoxon's own rule); tied absolute differences get their average rank,
 * and the exact null distribution is enumerated over the 2^n sign assignments of those ranks
 * (by counting on doubled ranks, so average ranks stay integers). Exact for any n this harness
 * produces (runs per configuration); O(n * sum of ranks).
 */

/** The result of one test. */
export interface WilcoxonResult {
  /** Pairs with a non-zero difference. */
  n: number;
  /** Sum of the ranks of the positive differences (a - b > 0). */
  wPlus: number;
  /** Sum of the ranks of the negative differences. */
  wMinus: number;
  /** Exact two-sided p-value; 1 when n = 0. */
  p: number;
  /**
   * Exact one-sided p-value that `a` is ahead: the chance under the null that the positive rank
   * sum is at least the one observed; 1 when n = 0.
   */
  pGreater: number;
}

/**
 * Tests whether paired samples `a[i]`, `b[i]` differ in location.
 * @throws RangeError if the arrays differ in length.
 */
export function wilcoxonSignedRank(a: readonly number[], b: readonly number[]): WilcoxonResult {
  if (a.length !== b.length)
    throw new RangeError(`paired samples differ in length: ${a.length} and ${b.length}`);
  const diffs = a.map((x, i) => x - (b[i] as number)).filter((d) => d !== 0);
  const n = diffs.length;
  if (n === 0) return { n: 0, wPlus: 0, wMinus: 0, p: 1, pGreater: 1 };
  // Average ranks of |d|, doubled so they are integers.
  const order = diffs.map((d, i) => ({ abs: Math.abs(d), i })).sort((x, y) => x.abs - y.abs);
  const rank2 = new Array<number>(n);
  for (let s = 0; s < n; ) {
    let e = s;
    while (e + 1 < n && order[e + 1]!.abs === order[s]!.abs) e++;
    const twiceAverage = s + 1 + (e + 1); // 2 * (s+1 + e+1) / 2
    for (let k = s; k <= e; k++) rank2[order[k]!.i] = twiceAverage;
    s = e + 1;
  }
  let wPlus2 = 0;
  let total2 = 0;
  for (let i = 0; i < n; i++) {
    total2 += rank2[i]!;
    if (diffs[i]! > 0) wPlus2 += rank2[i]!;
  }
  // counts[s] = sign assignments whose positive doubled-rank sum is s.
  let counts = new Float64Array(total2 + 1);
  counts[0] = 1;
  for (const r of rank2) {
    const next = new Float64Array(total2 + 1);
    for (let s = 0; s <= total2; s++) {
      const c = counts[s]!;
      if (c === 0) continue;
      next[s] = next[s]! + c;
      if (s + r <= total2) next[s + r] = next[s + r]! + c;
    }
    counts = next;
  }
  const all = 2 ** n;
  // Two-sided: assignments at least as far from the centre as the observed statistic.
  const distance = Math.abs(wPlus2 - total2 / 2);
  let extreme = 0;
  let upper = 0;
  for (let s = 0; s <= total2; s++) {
    if (Math.abs(s - total2 / 2) >= distance - 1e-9) extreme += counts[s]!;
    if (s >= wPlus2) upper += counts[s]!;
  }
  return {
    n,
    wPlus: wPlus2 / 2,
    wMinus: (total2 - wPlus2) / 2,
    p: Math.min(1, extreme / all),
    pGreater: upper / all,
  };
}

/** The smallest two-sided p-value n non-zero pairs can give (all differences of one sign). */
export function smallestWilcoxonP(n: number): number {
  return n === 0 ? 1 : Math.min(1, 2 / 2 ** n);
}
