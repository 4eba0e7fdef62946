// Does each learner beat its own learning-off version and random? Harvest rate (ground
// truth) over pages 1,001 to 3,000 of each run, i.e. after every learner's warm-up or first
// training (TRES trains from page 300, ACHE from 500, the apprentice from 200, RLwCS from 100),
// from a crawl benchmark's curves.csv; mean ± std over runs, and paired by run the difference to
// the learning-off version ("*" where the mean difference exceeds its spread, the reports' rule;
// in brackets the seeds on which learning on came out ahead).
// npx vite-node lab/src/bench/analysis/learning-after-warmup.ts -- results/learning-synthetic-hardware [FROM] [--judge]
// --judge: the harvest rate by the crawl's judge (the reward the learners learn from) instead of
// the ground truth.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { wilcoxonSignedRank } from '../report/index.js';

const isJudge = process.argv.includes('--judge');
const args = process.argv.slice(2).filter((a) => a !== '--' && a !== '--judge');
const dir = args[0] ?? 'results/learning-synthetic-hardware';
const from = Number(args[1] ?? 1000);
const [header, ...lines] = readFileSync(join(dir, 'curves.csv'), 'utf8').trim().split('\n');
// Fields may be quoted (a spec with several settings, `rlwcs:scoreLinks=1,learn=0`, holds commas).
function splitCsv(line: string): string[] {
  const fields: string[] = [];
  let field = '';
  let isQuoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (isQuoted && c === '"' && line[i + 1] === '"') {
      field += '"';
      i++;
    } else if (c === '"') isQuoted = !isQuoted;
    else if (c === ',' && !isQuoted) {
      fields.push(field);
      field = '';
    } else field += c;
  }
  fields.push(field);
  return fields;
}
const keys = splitCsv(header!);
const col = (k: string) => keys.indexOf(k);
const rateColumn = isJudge ? 'classifier_harvest_rate' : 'harvest_rate';
const [iS, iL, iR, iStep, iHr] = ['strategy', 'domain_limit', 'run', 'step', rateColumn].map(col);
// Relevant pages fetched by a step = harvest rate x step; keep the points at `from` and at the end.
const at = new Map<string, { step: number; relevant: number }[]>();
for (const line of lines) {
  const f = splitCsv(line);
  if (f[iL!] !== 'none') continue;
  const key = `${f[iS!]}|${f[iR!]}`;
  const step = Number(f[iStep!]);
  const list = at.get(key) ?? [];
  list.push({ step, relevant: Number(f[iHr!]) * step });
  at.set(key, list);
}
const after = new Map<string, Map<string, number>>(); // strategy -> run -> HR after `from`
for (const [key, points] of at) {
  const [strategy, run] = key.split('|') as [string, string];
  const end = points.at(-1)!;
  const start = points.filter((p) => p.step <= from).at(-1) ?? { step: 0, relevant: 0 };
  if (end.step <= start.step) continue;
  const hr = (end.relevant - start.relevant) / (end.step - start.step);
  after.set(strategy, (after.get(strategy) ?? new Map()).set(run, hr));
}
const stats = (xs: number[]) => {
  const m = xs.reduce((a, b) => a + b, 0) / xs.length;
  const sd = xs.length > 1 ? Math.sqrt(xs.reduce((a, b) => a + (b - m) ** 2, 0) / (xs.length - 1)) : 0;
  return { m, sd };
};
const cell = (xs: number[], sign = false) => {
  const { m, sd } = stats(xs.map((x) => 100 * x));
  return `${sign && m >= 0 ? '+' : ''}${m.toFixed(1)} ± ${sd.toFixed(1)}${sign && Math.abs(m) > sd ? ' *' : ''}`;
};
const paired = (a: Map<string, number>, b: Map<string, number>) =>
  [...a].filter(([r]) => b.has(r)).map(([r, v]) => v - b.get(r)!);
// One-sided exact Wilcoxon signed-rank p that learning on is ahead (zero differences dropped).
// An untrained Q-network is erratic (on some seeds its random weights happen to rank well), so the
// paired differences are far from normal and the mean-beyond-spread rule is the weaker test.
const oneSidedP = (diffs: number[]) =>
  wilcoxonSignedRank(diffs, new Array<number>(diffs.length).fill(0)).pGreater;
// The paired difference, on how many seeds learning on came out ahead, and the test.
const pairedCell = (diffs: number[]) =>
  `${cell(diffs, true)} (${diffs.filter((d) => d > 0).length}/${diffs.length}, p = ${oneSidedP(diffs).toFixed(3)})`;
const random = after.get('random') ?? new Map<string, number>();
console.log(
  `Harvest rate % ${isJudge ? "by the crawl's judge " : ''}over pages ${from + 1} to the end (${dir}):\n`,
);
console.log('| strategy | learning on | learning off (`learn=0`) | on - off, paired | on - random, paired |');
console.log('|---|---:|---:|---:|---:|');
console.log(`| random | ${cell([...random.values()])} | | | |`);
for (const [strategy, runs] of after) {
  if (strategy === 'random' || /[:,]learn=0$/.test(strategy)) continue;
  // The learning-off version of `name` is `name:learn=0`, of `name:a=1` it is `name:a=1,learn=0`
  // (so `learn=0` is written last).
  const off = after.get(`${strategy}${strategy.includes(':') ? ',' : ':'}learn=0`);
  console.log(
    `| ${strategy} | ${cell([...runs.values()])} | ${off ? cell([...off.values()]) : ''} | ${off ? pairedCell(paired(runs, off)) : ''} | ${pairedCell(paired(runs, random))} |`,
  );
}
