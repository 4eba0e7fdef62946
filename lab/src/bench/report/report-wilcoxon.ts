/**
 * The paired comparison of RLwCS (Partalas et al. 2008, section 4) for the crawl report: every
 * 200 pages, a Wilcoxon signed-rank test of tres's harvest rate against each other strategy's,
 * paired by run (same seed URL, same random seed), at each domain limit.
 */
import { ORACLE_STRATEGY, type RunResult, WILCOXON_EVERY } from '../crawl/index.js';
import { smallestWilcoxonP, wilcoxonSignedRank } from './wilcoxon.js';

export { WILCOXON_EVERY } from '../crawl/index.js';

/** Significance level of the tests (RLwCS: 95% confidence). */
const ALPHA = 0.05;

/** Harvest rate of a run at step t, or undefined if the run stopped before t. */
function harvestAt(run: RunResult, step: number): number | undefined {
  return run.curve.find((p) => p.step === step)?.harvestRate;
}

/**
 * A Markdown section: for each domain limit, one row per other strategy, one cell per 200 pages:
 * `+`/`−` for the side tres is on (mean difference) and the exact two-sided p, bold when below
 * 0.05. Empty when `reference` did not run.
 */
export function wilcoxonSection(runs: readonly RunResult[], reference = 'tres'): string {
  const limits = [...new Set(runs.map((r) => r.domainLimit))];
  const maxPages = Math.max(0, ...runs.map((r) => r.maxPages));
  const steps: number[] = [];
  for (let t = WILCOXON_EVERY; t <= maxPages; t += WILCOXON_EVERY) steps.push(t);
  const parts: string[] = [];
  let pairsSeen = 0;
  for (const limit of limits) {
    const mine = runs.filter((r) => r.domainLimit === limit);
    const refRuns = new Map(mine.filter((r) => r.strategy === reference).map((r) => [r.run, r]));
    if (refRuns.size === 0) continue;
    // The oracle is the upper bound, not a competitor.
    const others = [...new Set(mine.map((r) => r.strategy))].filter(
      (s) => s !== reference && s !== ORACLE_STRATEGY,
    );
    const rows = others.map((strategy) => {
      const cells = steps.map((t) => {
        const a: number[] = [];
        const b: number[] = [];
        for (const r of mine.filter((x) => x.strategy === strategy)) {
          const ref = refRuns.get(r.run);
          const x = ref && harvestAt(ref, t);
          const y = harvestAt(r, t);
          if (x !== undefined && y !== undefined) {
            a.push(x);
            b.push(y);
          }
        }
        if (a.length === 0) return '';
        pairsSeen = Math.max(pairsSeen, a.length);
        const test = wilcoxonSignedRank(a, b);
        const meanDiff = a.reduce((s, v, i) => s + v - (b[i] as number), 0) / a.length;
        const sign = meanDiff > 0 ? '+' : meanDiff < 0 ? '\u2212' : '=';
        const cell = `${sign}${test.p < 0.001 ? '<0.001' : test.p.toFixed(3)}`;
        return test.p < ALPHA ? `**${cell}**` : cell;
      });
      return `| ${strategy} | ${cells.join(' | ')} |`;
    });
    parts.push(
      `### Domain limit ${limit}\n\n| ${reference} vs | ${steps.join(' | ')} |\n|---|${steps.map(() => '---:').join('|')}|\n${rows.join('\n')}`,
    );
  }
  if (parts.length === 0) return '';
  const floor = smallestWilcoxonP(pairsSeen);
  return `## Paired Wilcoxon signed-rank tests (RLwCS, every ${WILCOXON_EVERY} pages)

Harvest rate of ${reference} against each strategy at the same step, paired by run (same seed), exact two-sided p; \`+\`: ${reference} ahead on average, \`\u2212\`: behind; bold: p < ${ALPHA}. With ${pairsSeen} pairs the smallest p any test can give is ${floor.toFixed(4)}${floor >= ALPHA ? `, so no difference can be significant at ${ALPHA}: more runs are needed for that` : ''}.

${parts.join('\n\n')}
`;
}
