// Pareto plot of a crawl-benchmark folder: mean relevant sites (x) against mean harvest
// rate (y) per strategy and domain limit, the lambda points of `coverage` with newSitePatience
// highlighted and joined (runs without it drawn apart). Reads
// the folder's runs/*.json (a run that ran dry before half its page budget is left out, as the
// crawl reports leave it out); writes the SVG to stdout.
// npx vite-node lab/src/bench/analysis/front-svg.ts -- RUNS_FOLDER TITLE > out.svg
import type { RunResult } from '../crawl/index.js';
import { type ScatterPoint, scatterChart } from '../report/index.js';
import { isRanDry, readRunResults } from './run-files.js';

const [folder, title = ''] = process.argv.slice(2).filter((a) => a !== '--');
if (folder === undefined) {
  process.stderr.write('usage: front-svg.ts RUNS_FOLDER TITLE > out.svg\n');
  process.exit(2);
}
const groups = new Map<string, RunResult[]>();
for (const r of readRunResults(folder)) {
  if (isRanDry(r)) continue;
  const key = `${r.strategy}|${r.domainLimit}`;
  groups.set(key, [...(groups.get(key) ?? []), r]);
}
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const points: ScatterPoint[] = [...groups].map(([key, rs]) => {
  const [strategy = '', limit = 'none'] = key.split('|');
  const isCoverage = strategy.startsWith('coverage');
  // Runs that name newSitePatience (=1) run the default; the others run without patience.
  const isPatient = isCoverage && /newSitePatience=(?!false)/.test(strategy);
  return {
    x: mean(rs.map((r) => r.relevantDomains)),
    y: 100 * mean(rs.map((r) => r.harvestRate)),
    label: `${strategy.replace(/anchors=1,|,siteSaturation=300/g, '')}${limit === 'none' ? '' : `_${limit}`} (${rs.length})`,
    group: isPatient ? 'coverage, patience 1' : isCoverage ? 'coverage without patience' : strategy,
    marker: limit === 'none' ? 'no limit' : `limit ${limit}`,
    isHighlighted: isPatient && limit === 'none',
  };
});
process.stdout.write(
  scatterChart({
    title,
    xLabel: 'relevant sites (ground truth), mean over seeds',
    yLabel: 'harvest rate % (ground truth)',
    points,
    frontLabel: 'patience 1, each lambda',
  }),
);
