// Rows of other strategies that no row of STRATEGY dominates, under the summary's rule (no worse
// = paired mean >= 0) and under a tie-tolerant one (no worse = the other row is not better beyond
// the spread). Ranked rows only, the oracle left out, as the summary does.
import { readFileSync } from 'node:fs';
import { isBetter } from '../src/bench/crawl-bench-stats.js';
// npx vite-node results/claim-tie-rule.ts -- tres results/crawl-docweb-hardware ...
const args = process.argv.slice(2).filter((a) => a !== '--');
const strategy = args[0] as string;
for (const dir of args.slice(1)) {
  const rows = (JSON.parse(readFileSync(`${dir}/results.json`, 'utf8')).rows as any[]).filter((r) => r.isRanked && r.strategy !== 'oracle');
  const mine = rows.filter((r) => r.strategy === strategy);
  const others = rows.filter((r) => r.strategy !== strategy);
  const pd = (a: any, b: any, o: string) => {
    const m = new Map(b.perRun.filter((r: any) => !r.isDry).map((r: any) => [r.run, r]));
    const d = a.perRun.filter((r: any) => !r.isDry && m.has(r.run)).map((r: any) => r[o] - (m.get(r.run) as any)[o]);
    return d.length ? d.reduce((x: number, y: number) => x + y, 0) / d.length : a[o].mean - b[o].mean;
  };
  const strict = (q: any, p: any) => pd(q, p, 'harvestRate') >= 0 && pd(q, p, 'relevantDomains') >= 0 && (isBetter(q, p, 'harvestRate') || isBetter(q, p, 'relevantDomains'));
  const tolerant = (q: any, p: any) => !isBetter(p, q, 'harvestRate') && !isBetter(p, q, 'relevantDomains') && (isBetter(q, p, 'harvestRate') || isBetter(q, p, 'relevantDomains'));
  const left = (dom: (q: any, p: any) => boolean) => others.filter((p) => !mine.some((q) => dom(q, p))).map((p) => p.label);
  const s = left(strict), t = left(tolerant);
  console.log(`${dir}: strict ${s.length} [${s.join(', ')}]\n  tolerant ${t.length} [${t.join(', ')}]`);
}
