// Rows of other strategies that no row of STRATEGY dominates, under the summary's rule (no worse
// = paired mean >= 0) and under a tie-tolerant one (no worse = the other row is not better beyond
// the spread). Ranked rows only, the oracle left out, as the summary does. Reads each folder's
// results.json (not kept in git: run the folder's benchmark command again to regenerate it).
// npx vite-node lab/src/bench/analysis/claim-tie-rule.ts -- tres results/crawl-docweb-hardware ...
import { readFileSync } from 'node:fs';
import { type ConfigRow, isBetter, pairedDifference } from '../crawl/index.js';

type Objective = 'harvestRate' | 'relevantDomains';

const args = process.argv.slice(2).filter((a) => a !== '--');
const strategy = args[0] as string;

/** Mean per-seed difference a - b, or the difference of means when the rows are not paired. */
function meanDifference(a: ConfigRow, b: ConfigRow, objective: Objective): number {
  return pairedDifference(a, b, objective)?.mean ?? a[objective].mean - b[objective].mean;
}

function isStrictlyDominating(q: ConfigRow, p: ConfigRow): boolean {
  return (
    meanDifference(q, p, 'harvestRate') >= 0 &&
    meanDifference(q, p, 'relevantDomains') >= 0 &&
    (isBetter(q, p, 'harvestRate') || isBetter(q, p, 'relevantDomains'))
  );
}

function isTolerantlyDominating(q: ConfigRow, p: ConfigRow): boolean {
  return (
    !isBetter(p, q, 'harvestRate') &&
    !isBetter(p, q, 'relevantDomains') &&
    (isBetter(q, p, 'harvestRate') || isBetter(q, p, 'relevantDomains'))
  );
}

for (const dir of args.slice(1)) {
  const allRows = JSON.parse(readFileSync(`${dir}/results.json`, 'utf8')).rows as ConfigRow[];
  const rows = allRows.filter((r) => r.isRanked && r.strategy !== 'oracle');
  const mine = rows.filter((r) => r.strategy === strategy);
  const others = rows.filter((r) => r.strategy !== strategy);
  const left = (dominates: (q: ConfigRow, p: ConfigRow) => boolean) =>
    others.filter((p) => !mine.some((q) => dominates(q, p))).map((p) => p.label);
  const strict = left(isStrictlyDominating);
  const tolerant = left(isTolerantlyDominating);
  console.log(
    `${dir}: strict ${strict.length} [${strict.join(', ')}]\n  tolerant ${tolerant.length} [${tolerant.join(', ')}]`,
  );
}
