// Pareto plot of a crawl benchmark folder (issue 25): mean relevant sites (x) against mean harvest
// rate (y) per strategy and domain limit; coverage's lambda points highlighted and joined.
// Usage (from the repository, after npm run build): node results/coverage-strategy/front-svg.mjs RUNS_FOLDER TITLE > out.svg
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { scatterChart } from '../../dist/bench/svg-chart.js';

const [folder, title] = process.argv.slice(2);
const groups = new Map();
for (const name of readdirSync(join(folder, 'runs'))) {
  if (!name.endsWith('.json')) continue;
  const r = JSON.parse(readFileSync(join(folder, 'runs', name), 'utf8')).result;
  const key = `${r.strategy}|${r.domainLimit}`;
  if (!groups.has(key)) groups.set(key, []);
  groups.get(key).push(r);
}
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
const points = [...groups].map(([key, rs]) => {
  const [strategy, limit] = key.split('|');
  const isCoverage = strategy.startsWith('coverage');
  return {
    x: mean(rs.map((r) => r.relevantDomains)),
    y: 100 * mean(rs.map((r) => r.harvestRate)),
    label: `${strategy}${limit === 'none' ? '' : `_${limit}`} (${rs.length})`,
    group: isCoverage ? 'coverage (lambda = newSiteValue)' : strategy,
    marker: limit === 'none' ? 'no limit' : `limit ${limit}`,
    isHighlighted: isCoverage && limit === 'none',
  };
});
process.stdout.write(
  scatterChart({
    title,
    xLabel: 'relevant sites (ground truth), mean over seeds',
    yLabel: 'harvest rate % (ground truth)',
    points,
    frontLabel: 'coverage, lambda 0 / 1 / 3 (no limit)',
  }),
);
