// Each strategy of a crawl-benchmark folder minus a baseline, paired by seed, at each domain limit:
// harvest rate in points / relevant sites, mean ± std of the per-seed differences over runs where
// neither ran dry before a third of the budget; `*` where the mean exceeds the spread (the
// reports' rule for a win). Reads the folder's runs.csv.
// npx vite-node lab/src/bench/analysis/paired.ts -- results/ablation-epsilon-hardware tres
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const [dir = 'results/crawl-docweb-hardware', baseline = 'tres'] = process.argv
  .slice(2)
  .filter((a) => a !== '--');
type Row = Record<string, string>;
const [header, ...lines] = readFileSync(join(dir, 'runs.csv'), 'utf8').trim().split('\n');
const keys = header!.split(',');
// Fields with a comma (a strategy spec with several keys) are quoted.
const fields = (line: string) =>
  [...line.matchAll(/("(?:[^"]|"")*"|[^,]*)(,|$)/g)]
    .slice(0, keys.length)
    .map((m) => (m[1] as string).replace(/^"|"$/g, '').replace(/""/g, '"'));
const rows: Row[] = lines.map((l) => Object.fromEntries(fields(l).map((v, i) => [keys[i], v])));
const limits = [...new Set(rows.map((r) => r.domain_limit as string))];
const strategies = [...new Set(rows.map((r) => r.strategy as string))].filter((s) => s !== baseline);
const full = (r: Row) => Number(r.steps) >= Number(r.max_pages) / 3;
const cell = (d: number[]) => {
  if (d.length === 0) return 'n/a';
  const mean = d.reduce((x, y) => x + y, 0) / d.length;
  const sd = d.length > 1 ? Math.sqrt(d.reduce((x, y) => x + (y - mean) ** 2, 0) / (d.length - 1)) : 0;
  return `${mean >= 0 ? '+' : ''}${mean.toFixed(1)} ± ${sd.toFixed(1)}${Math.abs(mean) > sd ? ' *' : ''}`;
};
console.log(`| minus ${baseline} | ${limits.map((l) => `limit ${l}: HR points / sites`).join(' | ')} |`);
console.log(`|---|${limits.map(() => '---:').join('|')}|`);
for (const s of strategies) {
  const cells = limits.map((limit) => {
    const byRun = (name: string) =>
      new Map(rows.filter((r) => r.strategy === name && r.domain_limit === limit).map((r) => [r.run, r]));
    const a = byRun(s);
    const b = byRun(baseline);
    const pairs = [...a]
      .filter(([i, r]) => b.has(i) && full(r) && full(b.get(i)!))
      .map(([i, r]) => [r, b.get(i)!]);
    const hr = pairs.map(([r, q]) => 100 * (Number(r!.harvest_rate) - Number(q!.harvest_rate)));
    const sites = pairs.map(([r, q]) => Number(r!.relevant_domains) - Number(q!.relevant_domains));
    return `${cell(hr)} / ${cell(sites)}${pairs.length < a.size ? ` (${pairs.length} seeds)` : ''}`;
  });
  console.log(`| ${s} | ${cells.join(' | ')} |`);
}
