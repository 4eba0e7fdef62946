// The papers' claims, paired by seed: harvest rate at no limit, mean ± std of the per-seed
// differences in points over runs where neither ran dry before a third of the budget; `*` where
// the mean exceeds the spread (the reports' rule for a win). Reads each topic's runs.csv.
// npx vite-node lab/src/bench/analysis/claims.ts -- [topic ...]   (a topic, or a benchmark folder: results/crawl-synthetic-hardware)
import { readFileSync } from 'node:fs';

const topics = process.argv.slice(2).filter((a) => a !== '--');
const names =
  topics.length > 0
    ? topics
    : ['hardware', 'statistics', 'programming-languages', 'typesetting', 'system-administration'];
const claims = [
  ['tres', 'ache'],
  ['tres', 'han-async'],
  ['tres', 'tree-random'],
  ['tres', 'tres-async'],
  ['tres', 'tres-nh'],
  ['tres', 'synchronous'],
  ['rlwcs', 'svm-links'],
  ['apprentice', 'best-first'],
  ['lim-q', 'lim-dfs'],
  ['tres', 'best-first'],
];

type Row = Record<string, string>;
function readRuns(topic: string): Row[] {
  const dir = topic.includes('/') ? topic : `results/crawl-docweb-${topic}`;
  const [header, ...lines] = readFileSync(`${dir}/runs.csv`, 'utf8').trim().split('\n');
  const keys = header!.split(',');
  // The seed URL is the only field that could hold a comma; it holds none here.
  return lines.map((l) => Object.fromEntries(l.split(',').map((v, i) => [keys[i], v])));
}

const runs = new Map(names.map((t) => [t, readRuns(t)]));
for (const [a, b] of claims) {
  const cells = names.map((t) => {
    const byRun = (s: string) =>
      new Map(
        runs
          .get(t)!
          .filter((r) => r.strategy === s && r.domain_limit === 'none')
          .map((r) => [r.run, r]),
      );
    const A = byRun(a!);
    const B = byRun(b!);
    const full = (r: Row) => Number(r.steps) >= Number(r.max_pages) / 3;
    const d = [...A]
      .filter(([i, r]) => B.has(i) && full(r) && full(B.get(i)!))
      .map(([i, r]) => 100 * (Number(r.harvest_rate) - Number(B.get(i)!.harvest_rate)));
    const mean = d.reduce((x, y) => x + y, 0) / d.length;
    const sd = d.length > 1 ? Math.sqrt(d.reduce((x, y) => x + (y - mean) ** 2, 0) / (d.length - 1)) : 0;
    return `${mean >= 0 ? '+' : ''}${mean.toFixed(1)} ± ${sd.toFixed(1)}${Math.abs(mean) > sd ? ' *' : ''}`;
  });
  console.log(`| ${a} vs ${b} | ${cells.join(' | ')} |`);
}
