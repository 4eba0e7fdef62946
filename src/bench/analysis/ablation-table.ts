// One Markdown table of an ablation over several topics (issue 25): for each strategy spec and
// each topic, the paired difference from a baseline spec, by seed, in points of the oracle's
// harvest rate and of its relevant sites (each run as a share of the oracle's run from the same
// seed, no limit), mean ± sample std over the seeds all three have; `*` where the mean exceeds
// the spread. A topic is LABEL=DIR[+DIR...] (the folders' runs/*.json merged; a later folder's
// run of the same spec and seed wins). With --shares, the table holds each spec's shares
// themselves (HR / sites % of the oracle's) instead of differences.
// npx vite-node src/bench/analysis/ablation-table.ts -- [--baseline coverage] [--shares] hardware=DIR+DIR ...
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface Run {
  strategy: string;
  domainLimit: string;
  run: number;
  harvestRate: number;
  relevantDomains: number;
}

const args = process.argv.slice(2).filter((a) => a !== '--');
let baseline = 'coverage';
let isShares = false;
const topics: { label: string; dirs: string[] }[] = [];
for (let i = 0; i < args.length; i++) {
  const a = args[i] as string;
  if (a === '--baseline') baseline = args[++i] as string;
  else if (a === '--shares') isShares = true;
  else {
    const [label, dirs] = a.split('=', 2) as [string, string | undefined];
    if (dirs === undefined) {
      process.stderr.write(`not LABEL=DIR[+DIR...]: ${a}\n`);
      process.exit(2);
    }
    topics.push({ label, dirs: dirs.split('+') });
  }
}
if (topics.length === 0) {
  process.stderr.write('usage: ablation-table.ts [--baseline SPEC] [--shares] LABEL=DIR[+DIR...] ...\n');
  process.exit(2);
}

/** Runs with no domain limit of one topic's folders, by spec, then by seed. */
function load(dirs: readonly string[]): Map<string, Map<number, Run>> {
  const runs = new Map<string, Map<number, Run>>();
  for (const dir of dirs) {
    for (const name of readdirSync(join(dir, 'runs')).filter((n) => n.endsWith('.json'))) {
      const r = JSON.parse(readFileSync(join(dir, 'runs', name), 'utf8')).result as Run;
      if (r.domainLimit !== 'none') continue;
      if (!runs.has(r.strategy)) runs.set(r.strategy, new Map());
      runs.get(r.strategy)?.set(r.run, r);
    }
  }
  return runs;
}

function meanStd(xs: readonly number[], isMarked: boolean): string {
  if (xs.length === 0) return 'n/a';
  const m = xs.reduce((a, b) => a + b, 0) / xs.length;
  const s = xs.length > 1 ? Math.sqrt(xs.reduce((a, b) => a + (b - m) ** 2, 0) / (xs.length - 1)) : 0;
  const sign = isMarked && m >= 0 ? '+' : '';
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
    const seeds = [...mine.keys()].filter((s) => oracle.has(s) && (isShares || base?.has(s)));
    const share = (s: number, f: (r: Run) => number, r: Run | undefined) =>
      (100 * f(r as Run)) / f(oracle.get(s) as Run);
    const axis = (f: (r: Run) => number) =>
      seeds.map((s) =>
        isShares ? share(s, f, mine.get(s)) : share(s, f, mine.get(s)) - share(s, f, base?.get(s)),
      );
    const hr = axis((r) => r.harvestRate);
    const sites = axis((r) => r.relevantDomains);
    return `${meanStd(hr, !isShares)} / ${meanStd(sites, !isShares)}${seeds.length < 5 ? ` (${seeds.length})` : ''}`;
  });
  console.log(`| ${spec} | ${cells.join(' | ')} |`);
}
