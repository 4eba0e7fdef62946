// One Markdown table of an ablation over several topics: for each strategy spec and
// each topic, the paired difference from a baseline spec, by seed, in points of the oracle's
// harvest rate and of its relevant sites (each run as a share of the oracle's run from the same
// seed, no limit), mean ± sample std over the seeds all three have; `*` where the mean exceeds
// the spread (two seeds at least). A topic is LABEL=DIR[+DIR...] (the folders' runs/*.json, as
// `bench crawl --out DIR` keeps them, merged; a later folder's run of the same spec and run index
// wins). Runs pair when they start from the same seed URL with the same page budget; a run that
// ran dry before half its budget is left out. With --shares, the table holds each spec's shares
// themselves (HR / sites % of the oracle's) instead of differences.
// npx vite-node lab/src/bench/analysis/ablation-table.ts -- [--baseline coverage] [--shares] hardware=DIR+DIR ...
import { type RunResult, spread } from '../crawl/index.js';
import { isOraclePair, isRanDry, isSameStart, readRunResults } from './run-files.js';

const args = process.argv.slice(2).filter((a) => a !== '--');
let baseline = 'coverage';
let isShares = false;
const topics: { label: string; dirs: string[] }[] = [];
for (let i = 0; i < args.length; i++) {
  const a = args[i] as string;
  if (a === '--baseline') baseline = args[++i] as string;
  else if (a === '--shares') isShares = true;
  else {
    const at = a.indexOf('=');
    if (at <= 0) {
      process.stderr.write(`not LABEL=DIR[+DIR...]: ${a}\n`);
      process.exit(2);
    }
    topics.push({ label: a.slice(0, at), dirs: a.slice(at + 1).split('+') });
  }
}
if (topics.length === 0) {
  process.stderr.write('usage: ablation-table.ts [--baseline SPEC] [--shares] LABEL=DIR[+DIR...] ...\n');
  process.exit(2);
}

/** Runs with no domain limit of one topic's folders that did not run dry, by spec, then by run index. */
function load(dirs: readonly string[]): Map<string, Map<number, RunResult>> {
  const runs = new Map<string, Map<number, RunResult>>();
  for (const dir of dirs) {
    for (const r of readRunResults(dir)) {
      if (r.domainLimit !== 'none' || isRanDry(r)) continue;
      if (!runs.has(r.strategy)) runs.set(r.strategy, new Map());
      runs.get(r.strategy)?.set(r.run, r);
    }
  }
  return runs;
}

function meanStd(xs: readonly number[], isMarked: boolean): string {
  if (xs.length === 0) return 'n/a';
  const { mean: m, std: s } = spread(xs);
  const sign = isMarked && m >= 0 ? '+' : '';
  if (xs.length < 2) return `${sign}${m.toFixed(1)} ± n/a`;
  return `${sign}${m.toFixed(1)} ± ${s.toFixed(1)}${isMarked && Math.abs(m) > s ? ' *' : ''}`;
}

const byTopic = topics.map((t) => ({ ...t, runs: load(t.dirs) }));
const specs = [...new Set(byTopic.flatMap((t) => [...t.runs.keys()]))]
  .filter((s) => s !== 'oracle' && (isShares || s !== baseline))
  .sort((a, b) => (a === baseline ? -1 : b === baseline ? 1 : a.localeCompare(b)));
const what = isShares
  ? 'HR / sites, % of the oracle'
  : `minus ${baseline}: HR / sites, points of the oracle's`;
console.log(`| ${what} | ${byTopic.map((t) => t.label).join(' | ')} |`);
console.log(`|---|${byTopic.map(() => '---:').join('|')}|`);
for (const spec of specs) {
  const cells = byTopic.map(({ runs }) => {
    const oracle = runs.get('oracle');
    const mine = runs.get(spec);
    const base = runs.get(baseline);
    if (oracle === undefined || mine === undefined || (!isShares && base === undefined)) return 'n/a';
    // The same start and budget as the oracle's run (and the baseline's), and a yardstick above 0.
    const seeds = [...mine.keys()].filter((s) => {
      const r = mine.get(s) as RunResult;
      return isOraclePair(r, oracle.get(s)) && (isShares || isSameStart(r, base?.get(s)));
    });
    const share = (s: number, f: (r: RunResult) => number, r: RunResult | undefined) =>
      (100 * f(r as RunResult)) / f(oracle.get(s) as RunResult);
    const axis = (f: (r: RunResult) => number) =>
      seeds.map((s) =>
        isShares ? share(s, f, mine.get(s)) : share(s, f, mine.get(s)) - share(s, f, base?.get(s)),
      );
    const hr = axis((r) => r.harvestRate);
    const sites = axis((r) => r.relevantDomains);
    const count = seeds.length < mine.size ? ` (${seeds.length} of ${mine.size} seeds)` : '';
    return `${meanStd(hr, !isShares)} / ${meanStd(sites, !isShares)}${count}`;
  });
  console.log(`| ${spec} | ${cells.join(' | ')} |`);
}
