// The per-run files a crawl-benchmark folder keeps (`bench crawl --out DIR` writes DIR/runs/*.json,
// one per strategy, domain limit and seed), read back for the analysis scripts beside this one.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunResult } from '../crawl/index.js';

/**
 * Every run result of `dir`'s runs/ folder. Exits with status 2 and a message naming the folder
 * when it has none (a committed report keeps only runs.csv: its runs/ is not tracked by git).
 */
export function readRunResults(dir: string): RunResult[] {
  const runs = join(dir, 'runs');
  if (!existsSync(runs)) {
    process.stderr.write(`${dir} has no runs/ folder (bench crawl --out DIR keeps one file per run there)\n`);
    process.exit(2);
  }
  return readdirSync(runs)
    .filter((name) => name.endsWith('.json'))
    .map((name) => JSON.parse(readFileSync(join(runs, name), 'utf8')).result as RunResult);
}
