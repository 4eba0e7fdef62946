/**
 * From runs to the numbers of the report: mean and spread over single-seed runs per strategy and
 * domain limit (the rows of the paper's Table 3), mean curves, and the Pareto front of harvest
 * rate against relevant domains (the paper's Figure 3).
 */
import { configLabel } from './crawl-bench-options.js';
import type { RunResult } from './crawl-bench-run.js';
import { ORACLE_STRATEGY } from './oracle-strategy.js';

/** Mean and sample standard deviation (n - 1; 0 for a single run). */
export interface Spread {
  mean: number;
  std: number;
}

/** One row of the Table-3 layout: a strategy at a domain limit, over its runs. */
export interface ConfigRow {
  /** `strategy` or `strategy_limit`, as the paper names them (TRES_5_2). */
  label: string;
  strategy: string;
  domainLimit: string;
  runs: number;
  /** Ground truth, as fractions. */
  harvestRate: Spread;
  relevantDomains: Spread;
  /** Judged by the crawler's classifier. */
  classifierHarvestRate: Spread;
  classifierRelevantDomains: Spread;
  /** Classifier minus ground truth, harvest rate (fraction; positive: the classifier is optimistic). */
  harvestRateGap: Spread;
  /** Over all runs pooled: relevant by both / judged relevant, and / relevant. NaN if undefined. */
  classifierPrecision: number;
  classifierRecall: number;
  /** Fetch attempts per run (T unless the frontier ran dry). */
  steps: Spread;
  /** Failed attempts (DNS misses off the web, 404s, robots) / attempts, over all runs pooled. */
  failureShare: number;
  /** Share of attempts that fetched a page already held (counted once, never relevant). */
  duplicateShare: number;
  /** Ground-truth relevant pages / HTML pages fetched (failed attempts left out). */
  pageHarvestRate: Spread;
  /** Runs whose frontier emptied before the page budget. */
  dryRuns: number;
  /**
   * True when the runs spent at least {@link RANKED_BUDGET_SHARE} of the page budget on average;
   * other rows cover too few pages to be compared (a high rate over 20 pages says little).
   */
  isRanked: boolean;
  /**
   * True for the oracle: the upper bound the others are measured against, shown in the table
   * but never ranked as best nor put on the Pareto front.
   */
  isReference: boolean;
  pagesPerSec: Spread;
  /**
   * Harvest rate and relevant domains as fractions of the oracle's from the same seed and domain
   * limit (mean over the runs that spent the budget and have an oracle run from the same seed
   * that did too); undefined without one.
   */
  oracleHarvestShare?: Spread;
  oracleDomainsShare?: Spread;
  /** Distinct discovered links pointing off the web / distinct discovered links, runs pooled (NaN if not counted). */
  outOfWebShare: number;
  /**
   * On the Pareto front of (harvest rate, relevant domains) among ranked rows (the paper leaves
   * out crawls that ran out of URLs), by {@link rowDominates}.
   */
  isParetoOptimal: boolean;
  /** Each run's figures, for comparisons paired by seed ({@link pairedDifference}). */
  perRun?: RunPoint[];
}

/** One run of a row: its index (the seed), its two objectives, and whether it ran dry early. */
export interface RunPoint {
  run: number;
  harvestRate: number;
  relevantDomains: number;
  /** Ran dry before {@link RANKED_BUDGET_SHARE} of its budget ({@link isShortRun}). */
  isDry: boolean;
}

/** The two objectives of the Pareto plane. */
export type Objective = 'harvestRate' | 'relevantDomains';

/**
 * Share of the page budget a row's runs must spend on average to be ranked (best in column,
 * Pareto front). A third keeps rows where one seed's small component ran dry (every strategy
 * fetches the same pages there) and drops limits that exhausted the web after a few dozen pages.
 */
export const RANKED_BUDGET_SHARE = 1 / 3;

/**
 * A run whose frontier ran dry before {@link RANKED_BUDGET_SHARE} of its budget: 10 relevant
 * pages of an island seed's 10 attempts are no harvest rate to set against a whole crawl's, so
 * such a run is left out of its row's figures and of every comparison (the papers leave out
 * crawls that ran out of URLs). A run that ran dry later, as every run does at limit 5 on a
 * small web, is counted: otherwise rows whose runs all run dry could never be compared.
 */
export function isShortRun(r: { steps: number; maxPages: number }): boolean {
  return r.steps < RANKED_BUDGET_SHARE * r.maxPages;
}

/** Mean and sample standard deviation of `values` (NaN mean for none). */
export function spread(values: readonly number[]): Spread {
  const n = values.length;
  if (n === 0) return { mean: Number.NaN, std: Number.NaN };
  const mean = values.reduce((a, b) => a + b, 0) / n;
  if (n === 1) return { mean, std: 0 };
  const variance = values.reduce((a, v) => a + (v - mean) ** 2, 0) / (n - 1);
  return { mean, std: Math.sqrt(variance) };
}

/**
 * The difference `a - b` in one objective over the runs both rows made from the same seed (run
 * index) and neither ran dry early ({@link isShortRun}): mean and standard deviation of the
 * per-seed differences.
 * Undefined with fewer than two such pairs.
 */
export function pairedDifference(a: ConfigRow, b: ConfigRow, objective: Objective): Spread | undefined {
  if (!a.perRun || !b.perRun) return undefined;
  const other = new Map(b.perRun.filter((r) => !r.isDry).map((r) => [r.run, r]));
  const diffs: number[] = [];
  for (const r of a.perRun) {
    const o = other.get(r.run);
    if (o && !r.isDry) diffs.push(r[objective] - o[objective]);
  }
  return diffs.length >= 2 ? spread(diffs) : undefined;
}

/**
 * True when row `a` is better than row `b` in one objective beyond the spread over seeds. Runs
 * share seeds across rows, so the test is paired: the mean per-seed difference must exceed the
 * standard deviation of the differences (about a one-sided t of sqrt(n), p near 0.05 for 5
 * seeds); with fewer than two seeds where both rows spent the budget it is a tie. Rows without
 * per-run figures (results written before they were kept) compare their means, apart by more
 * than the larger of the two standard deviations.
 */
export function isBetter(a: ConfigRow, b: ConfigRow, objective: Objective): boolean {
  if (a.perRun && b.perRun) {
    // Fewer than two seeds where both spent the budget: no evidence either way, a tie.
    const d = pairedDifference(a, b, objective);
    return d !== undefined && d.mean > 0 && d.mean > d.std;
  }
  return a[objective].mean - b[objective].mean > Math.max(a[objective].std, b[objective].std);
}

/** True when row `a` is at least as good as `b` in one objective (paired mean when there is one). */
function isAtLeast(a: ConfigRow, b: ConfigRow, objective: Objective): boolean {
  const d = pairedDifference(a, b, objective);
  return d ? d.mean >= 0 : a[objective].mean >= b[objective].mean;
}

/** True when row `q` dominates row `p`: at least as good in both objectives, better in one ({@link isBetter}). */
export function rowDominates(q: ConfigRow, p: ConfigRow): boolean {
  return (
    isAtLeast(q, p, 'harvestRate') &&
    isAtLeast(q, p, 'relevantDomains') &&
    (isBetter(q, p, 'harvestRate') || isBetter(q, p, 'relevantDomains'))
  );
}

/** Indices of the rows no other row dominates ({@link rowDominates}). */
export function rowParetoFront(rows: readonly ConfigRow[]): number[] {
  return rows.map((_, i) => i).filter((i) => !rows.some((q, j) => j !== i && rowDominates(q, rows[i]!)));
}

/**
 * The best rows in one objective: the highest mean, and every row it is not better than
 * ({@link isBetter}: a tie within the spread over seeds). Returns their indices.
 */
export function bestRowsWithTies(rows: readonly ConfigRow[], objective: Objective): number[] {
  if (rows.length === 0) return [];
  let top = 0;
  for (let i = 1; i < rows.length; i++) if (rows[i]![objective].mean > rows[top]![objective].mean) top = i;
  const best = rows[top]!;
  return rows.map((_, i) => i).filter((i) => i === top || !isBetter(best, rows[i]!, objective));
}

/**
 * Rows in the order of `strategies` then `domainLimits` (configurations without runs are left out).
 */
export function summarizeRuns(
  runs: readonly RunResult[],
  strategies: readonly string[],
  domainLimits: readonly string[],
): ConfigRow[] {
  const rows: ConfigRow[] = [];
  const oracleOf = new Map(
    runs.filter((r) => r.strategy === ORACLE_STRATEGY).map((r) => [`${r.domainLimit}\u0000${r.run}`, r]),
  );
  const share = (group: readonly RunResult[], f: (r: RunResult) => number) => {
    const values: number[] = [];
    for (const r of group) {
      const o = oracleOf.get(`${r.domainLimit}\u0000${r.run}`);
      // An oracle run that ran dry early is no upper bound: ranking pages, it can spend a domain
      // limit of 10 on its seed's own pages and lose the links out that another crawler kept.
      // A run that ran dry early is compared with nothing either (isShortRun).
      if (o && f(o) > 0 && !isShortRun(o) && !isShortRun(r)) values.push(f(r) / f(o));
    }
    return values.length > 0 ? spread(values) : undefined;
  };
  for (const strategy of strategies) {
    for (const domainLimit of domainLimits) {
      const group = runs
        .filter((r) => r.strategy === strategy && r.domainLimit === domainLimit)
        .sort((a, b) => a.run - b.run);
      if (group.length === 0) continue;
      // Figures over the runs that did not run dry early (isShortRun). A row whose runs all
      // ran dry early shows them all, unranked.
      const full = group.filter((r) => !isShortRun(r));
      const counted = full.length > 0 ? full : group;
      const pick = (f: (r: RunResult) => number) => spread(counted.map(f));
      const sum = (f: (r: RunResult) => number) => group.reduce((a, r) => a + f(r), 0);
      rows.push({
        label: configLabel(strategy, domainLimit),
        strategy,
        domainLimit,
        runs: group.length,
        harvestRate: pick((r) => r.harvestRate),
        relevantDomains: pick((r) => r.relevantDomains),
        classifierHarvestRate: pick((r) => r.classifierHarvestRate),
        classifierRelevantDomains: pick((r) => r.classifierRelevantDomains),
        harvestRateGap: pick((r) => r.classifierHarvestRate - r.harvestRate),
        classifierPrecision: sum((r) => r.bothRelevant) / sum((r) => r.classifierRelevant),
        classifierRecall: sum((r) => r.bothRelevant) / sum((r) => r.relevant),
        steps: spread(group.map((r) => r.steps)),
        failureShare: sum((r) => r.failures) / sum((r) => r.steps),
        duplicateShare: sum((r) => r.duplicates ?? 0) / sum((r) => r.steps),
        pageHarvestRate: pick((r) => (r.pages === 0 ? 0 : r.relevant / r.pages)),
        dryRuns: group.filter((r) => r.steps < r.maxPages).length,
        isRanked: sum((r) => r.steps) >= RANKED_BUDGET_SHARE * sum((r) => r.maxPages),
        isReference: strategy === ORACLE_STRATEGY,
        pagesPerSec: spread(group.map((r) => r.timing.pagesPerSec)),
        ...withShare(
          'oracleHarvestShare',
          share(group, (r) => r.harvestRate),
        ),
        ...withShare(
          'oracleDomainsShare',
          share(group, (r) => r.relevantDomains),
        ),
        outOfWebShare: sum((r) => r.linksOutOfWeb ?? 0) / sum((r) => r.linksDiscovered ?? Number.NaN),
        isParetoOptimal: false,
        perRun: group.map((r) => ({
          run: r.run,
          harvestRate: r.harvestRate,
          relevantDomains: r.relevantDomains,
          isDry: isShortRun(r),
        })),
      });
    }
  }
  const ranked = rows.filter((r) => r.isRanked && !r.isReference);
  const front = rowParetoFront(ranked);
  for (const i of front) ranked[i]!.isParetoOptimal = true;
  return rows;
}

function withShare(key: 'oracleHarvestShare' | 'oracleDomainsShare', value: Spread | undefined) {
  return value === undefined ? {} : { [key]: value };
}

/** A mean curve: one [step, mean] pair per step that at least one run reached. */
export function meanCurve(
  runs: readonly RunResult[],
  value: (point: RunResult['curve'][number]) => number | undefined,
): [number, number][] {
  const sums = new Map<number, { total: number; n: number }>();
  for (const run of runs) {
    for (const point of run.curve) {
      const v = value(point);
      if (v === undefined || !Number.isFinite(v)) continue;
      const s = sums.get(point.step) ?? { total: 0, n: 0 };
      s.total += v;
      s.n++;
      sums.set(point.step, s);
    }
  }
  return [...sums.entries()].sort((a, b) => a[0] - b[0]).map(([step, s]) => [step, s.total / s.n]);
}
