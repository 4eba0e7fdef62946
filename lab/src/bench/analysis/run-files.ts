// The per-run files a crawl-benchmark folder keeps (`bench crawl --out DIR` writes DIR/runs/*.json,
// one per strategy, domain limit and seed), read back for the analysis scripts beside this one.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunResult } from '../crawl/index.js';

/**
 * Every run result of `dir`'s runs/ folder. Exits with status 2 and a message naming the folder
 * when it has none (a committed report keeps only runs.csv: its runs/ is not tracked by git).
 */
export function readRunResults(dir: string): RunResult[] {
  const runs = join(dir, 'runs');
  if (!existsSync(runs)) {
    process.stderr.write(`${dir} has no runs/ folder (bench crawl --out DIR keeps one file per run there)\n`);
    process.exit(2);
  }
  return readdirSync(runs)
    .filter((name) => name.endsWith('.json'))
    .map((name) => JSON.parse(readFileSync(join(runs, name), 'utf8')).result as RunResult);
}

/** A run that ran dry before half its page budget: the analysis scripts leave it out. */
export function isRanDry(r: RunResult): boolean {
  return r.steps < r.maxPages / 2;
}

/** `r` and `other` started from the same seed URL with the same page budget. */
export function isSameStart(r: RunResult, other: RunResult | undefined): other is RunResult {
  return other !== undefined && r.seedUrl === other.seedUrl && r.maxPages === other.maxPages;
}

/** `oracle` is a yardstick for `r`: the same start, and a harvest rate and sites above 0. */
export function isOraclePair(r: RunResult, oracle: RunResult | undefined): oracle is RunResult {
  return isSameStart(r, oracle) && oracle.harvestRate > 0 && oracle.relevantDomains > 0;
}
