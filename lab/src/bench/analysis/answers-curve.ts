// The answers curve of the judge a user can get: for each web, the default crawl's harvest rate and
// relevant sites as shares of the oracle's (run by run from the same seed, then the mean) against
// the number of answers given, from one folder per point. Prints a table and writes two SVG line
// charts (one line per web).
// npx vite-node lab/src/bench/analysis/answers-curve.ts -- OUT_PREFIX WEB:ORACLE_DIR:N=DIR[,N=DIR...] ...
//   ORACLE_DIR holds the oracle's runs; each N=DIR the default crawl's runs with N answers.
import { writeFileSync } from 'node:fs';
import { type RunResult, spread } from '../crawl/index.js';
import { lineChart } from '../report/index.js';
import { readRunResults } from './run-files.js';

const [outPrefix, ...webs] = process.argv.slice(2).filter((a) => a !== '--');
if (outPrefix === undefined || webs.length === 0) {
  process.stderr.write('usage: answers-curve.ts OUT_PREFIX WEB:ORACLE_DIR:N=DIR[,N=DIR...] ...\n');
  process.exit(2);
}

const byRun = (dir: string, strategy: string) =>
  new Map(
    readRunResults(dir)
      .filter((r) => r.strategy === strategy && r.domainLimit === 'none')
      .map((r) => [r.run, r] as const),
  );

interface Point {
  answers: number;
  hr: { mean: number; std: number };
  sites: { mean: number; std: number };
}
const curves: { web: string; points: Point[] }[] = [];
for (const spec of webs) {
  const [web, oracleDir, pointsText] = spec.split(':') as [string, string, string];
  const oracle = byRun(oracleDir, 'oracle');
  const points: Point[] = [];
  for (const point of pointsText.split(',')) {
    const [n, dir] = point.split('=') as [string, string];
    const runs = [...byRun(dir, 'coverage')].filter(([i]) => oracle.has(i));
    const share = (f: (r: RunResult) => number) =>
      spread(runs.map(([i, r]) => f(r) / Math.max(1e-9, f(oracle.get(i) as RunResult))).map((x) => 100 * x));
    points.push({
      answers: Number(n),
      hr: share((r) => r.harvestRate),
      sites: share((r) => r.relevantDomains),
    });
  }
  points.sort((a, b) => a.answers - b.answers);
  curves.push({ web, points });
}

const cell = (x: { mean: number; std: number }) => `${x.mean.toFixed(1)} ± ${x.std.toFixed(1)}`;
const counts = [...new Set(curves.flatMap((c) => c.points.map((p) => p.answers)))].sort((a, b) => a - b);
console.log(`| web | ${counts.map((n) => `${n} answers: HR / sites % of the oracle`).join(' | ')} |`);
console.log(`|---|${counts.map(() => '---').join('|')}|`);
for (const c of curves) {
  const cells = counts.map((n) => {
    const p = c.points.find((q) => q.answers === n);
    return p ? `${cell(p.hr)} / ${cell(p.sites)}` : '—';
  });
  console.log(`| ${c.web} | ${cells.join(' | ')} |`);
}
for (const [measure, label] of [
  ['hr', 'harvest rate, % of the oracle'],
  ['sites', 'relevant sites, % of the oracle'],
] as const) {
  const svg = lineChart({
    title: `The default crawl with the keyword judge retrained on answers: ${label.split(',')[0]}`,
    xLabel: 'answers',
    yLabel: label,
    yMin: 0,
    yMax: 100,
    series: curves.map((c) => ({
      name: c.web,
      points: c.points.map((p) => [p.answers, p[measure].mean] as const),
    })),
  });
  writeFileSync(`${outPrefix}-${measure}.svg`, svg);
}
console.log(`wrote ${outPrefix}-hr.svg and ${outPrefix}-sites.svg`);
