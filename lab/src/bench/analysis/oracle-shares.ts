// Shares of the oracle (the yardstick of the crawl benchmark): for each strategy and domain limit of one or more
// crawl-benchmark folders, harvest rate and relevant sites as shares of the oracle's run from the
// same seed, and the per-seed differences against a baseline (best-first unless --baseline),
// mean ± sample std over the seeds both have. Reads each folder's runs/*.json (one file per run,
// kept by `tres bench crawl --out DIR`). A folder given as LABEL=DIR has its strategies renamed
// LABEL/strategy, except the oracle, so runs of two builds can sit in one table.
// npx vite-node lab/src/bench/analysis/oracle-shares.ts -- [--baseline best-first] DIR [LABEL=DIR ...]
import { type RunResult, spread } from '../crawl/index.js';
import { readRunResults } from './run-files.js';

const args = process.argv.slice(2).filter((a) => a !== '--');
let baseline = 'best-first';
const folders: string[] = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--baseline') baseline = args[++i] as string;
  else folders.push(args[i] as string);
}
if (folders.length === 0) {
  process.stderr.write('usage: oracle-shares.ts [--baseline NAME] DIR [LABEL=DIR ...]\n');
  process.exit(2);
}

/** Runs by "strategy|limit", then by run index. */
const runs = new Map<string, Map<number, RunResult>>();
for (const folder of folders) {
  const [label, dir] = folder.includes('=') ? (folder.split('=', 2) as [string, string]) : ['', folder];
  for (const r of readRunResults(dir)) {
    const strategy = label === '' || r.strategy === 'oracle' ? r.strategy : `${label}/${r.strategy}`;
    const key = `${strategy}|${r.domainLimit}`;
    if (!runs.has(key)) runs.set(key, new Map());
    runs.get(key)?.set(r.run, { ...r, strategy });
  }
}

function meanStd(xs: number[], scale = 1): string {
  if (xs.length === 0) return 'n/a';
  const { mean: m, std: s } = spread(xs);
  return `${(m * scale).toFixed(1)} ± ${(s * scale).toFixed(1)}`;
}

/** f(run, other) over the seeds both rows have. */
function paired(
  a: Map<number, RunResult>,
  b: Map<number, RunResult> | undefined,
  f: (x: RunResult, y: RunResult) => number,
): number[] {
  if (b === undefined) return [];
  return [...a].filter(([i]) => b.has(i)).map(([i, r]) => f(r, b.get(i) as RunResult));
}

const order = ['oracle', 'best-first', 'coverage', 'tres', 'ache', 'apprentice'];
const rank = (s: string) => (order.includes(s) ? order.indexOf(s) : order.length);
const keys = [...runs.keys()].sort((x, y) => {
  const [sx, lx] = x.split('|') as [string, string];
  const [sy, ly] = y.split('|') as [string, string];
  if (lx !== ly) return lx === 'none' ? -1 : ly === 'none' ? 1 : lx.localeCompare(ly);
  return rank(sx) - rank(sy) || sx.localeCompare(sy);
});
console.log(
  `| crawler | limit | seeds | HR % (truth) | relevant sites | HR / oracle % | sites / oracle % | HR − ${baseline} (pts) | sites − ${baseline} | HR % (judge) |`,
);
console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const key of keys) {
  const [strategy, limit] = key.split('|') as [string, string];
  const rs = runs.get(key) as Map<number, RunResult>;
  const oracle = runs.get(`oracle|${limit}`);
  const base = runs.get(`${baseline}|${limit}`);
  const all = [...rs.values()];
  const isBase = strategy === baseline;
  const cells = [
    strategy,
    limit,
    String(rs.size),
    meanStd(
      all.map((r) => r.harvestRate),
      100,
    ),
    meanStd(all.map((r) => r.relevantDomains)),
    meanStd(
      paired(rs, oracle, (r, o) => r.harvestRate / o.harvestRate),
      100,
    ),
    meanStd(
      paired(rs, oracle, (r, o) => r.relevantDomains / o.relevantDomains),
      100,
    ),
    isBase
      ? '—'
      : meanStd(
          paired(rs, base, (r, b) => r.harvestRate - b.harvestRate),
          100,
        ),
    isBase ? '—' : meanStd(paired(rs, base, (r, b) => r.relevantDomains - b.relevantDomains)),
    meanStd(
      all.map((r) => r.classifierHarvestRate),
      100,
    ),
  ];
  console.log(`| ${cells.join(' | ')} |`);
}
