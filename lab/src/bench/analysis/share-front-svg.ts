// Pareto plot as shares of the oracle (the yardstick of the crawl benchmark): every strategy and domain limit of
// one or more crawl-benchmark folders as its mean relevant sites (x) and harvest rate (y), each a
// share of the oracle's run with no limit from the same seed, so that every point of a plot has
// one yardstick. `coverage` with no limit and its `siteShareValue=V` specs with no limit are the
// setting's front (highlighted, joined); other `coverage:...` specs (an ablation) are left out
// unless --all. Runs that ran dry before half their budget are left out, and runs pair with the
// oracle's only from the same seed URL and budget. Prints the points.
// npx vite-node lab/src/bench/analysis/share-front-svg.ts -- OUT.svg TITLE DIR [DIR ...] [--all]
import { writeFileSync } from 'node:fs';
import type { RunResult } from '../crawl/index.js';
import { type ScatterPoint, scatterChart } from '../report/index.js';
import { isOraclePair, isRanDry, readRunResults } from './run-files.js';

const args = process.argv.slice(2).filter((a) => a !== '--');
const isAll = args.includes('--all');
const [out, title, ...folders] = args.filter((a) => a !== '--all');
if (out === undefined || title === undefined || folders.length === 0) {
  process.stderr.write('usage: share-front-svg.ts OUT.svg TITLE DIR [DIR ...] [--all]\n');
  process.exit(2);
}
/** Runs by "strategy|limit", then by run index (a later folder's run of the same key wins). */
const runs = new Map<string, Map<number, RunResult>>();
for (const dir of folders) {
  for (const r of readRunResults(dir)) {
    const key = `${r.strategy}|${r.domainLimit}`;
    if (!runs.has(key)) runs.set(key, new Map());
    runs.get(key)?.set(r.run, r);
  }
}
const oracle = runs.get('oracle|none');
if (oracle === undefined) {
  process.stderr.write('no oracle run with no limit in the folders\n');
  process.exit(1);
}
const share = /^coverage:siteShareValue=([0-9.]+)$/;
const points: ScatterPoint[] = [];
for (const [key, byRun] of runs) {
  const [strategy = '', limit = 'none'] = key.split('|');
  if (strategy === 'oracle' && limit === 'none') continue;
  const isFront = limit === 'none' && (strategy === 'coverage' || share.test(strategy));
  if (strategy.startsWith('coverage:') && !isFront && !isAll) continue;
  const seeds = [...byRun.keys()].filter((s) => {
    const r = byRun.get(s) as RunResult;
    return isOraclePair(r, oracle.get(s)) && !isRanDry(r);
  });
  if (seeds.length === 0) continue;
  const mean = (f: (r: RunResult, o: RunResult) => number) =>
    seeds.reduce((a, s) => a + f(byRun.get(s) as RunResult, oracle.get(s) as RunResult), 0) / seeds.length;
  const value = share.exec(strategy)?.[1];
  const name =
    strategy === 'coverage' ? 'the default' : value !== undefined ? `siteShareValue ${value}` : strategy;
  points.push({
    x: mean((r, o) => (100 * r.relevantDomains) / o.relevantDomains),
    y: mean((r, o) => (100 * r.harvestRate) / o.harvestRate),
    label: `${name}${limit === 'none' ? '' : `, limit ${limit}`} [${seeds.length}]`,
    group: isFront || strategy === 'coverage' ? 'coverage' : strategy,
    marker: limit === 'none' ? 'no limit' : `limit ${limit}`,
    isHighlighted: isFront,
  });
}
points.sort((a, b) => a.group.localeCompare(b.group) || a.x - b.x);
writeFileSync(
  out,
  scatterChart({
    title,
    xLabel: "relevant sites, % of the oracle's with no limit",
    yLabel: "harvest rate, % of the oracle's with no limit",
    points,
    frontLabel: 'siteShareValue front',
    labels: 'all',
  }),
);
for (const p of points) console.log(`${p.group}\t${p.label}\t${p.y.toFixed(1)}\t${p.x.toFixed(1)}`);
