/**
 * `npm run bench -- [PART ...] [--quick]`: the benchmarks (never part of `npm test`). Parts:
 * `engine` (throughput and memory against Crawlee), `relevance` (Table-1 metrics and
 * throughput of the five classifiers). Results go to results/<part>.json and .md.
 */
import { join } from 'node:path';
import { DEFAULT_DECISION_BENCH_OPTIONS, runDecisionBench } from './decision-bench.js';
import { DEFAULT_ENGINE_BENCH_OPTIONS, runEngineBench } from './engine-bench.js';
import { runRelevanceBench } from './relevance-bench.js';
import { runRlBench } from './rl-bench.js';
import { runTreeFrontierBench } from './tree-frontier-bench.js';

const PARTS = ['engine', 'decision', 'tree', 'rl', 'relevance'] as const;

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const isQuick = args.includes('--quick');
  const parts = args.filter((a) => !a.startsWith('--'));
  const unknown = parts.filter((p) => !(PARTS as readonly string[]).includes(p));
  if (unknown.length > 0) {
    console.error(`unknown benchmark part(s): ${unknown.join(', ')}; known: ${PARTS.join(', ')}`);
    process.exit(2);
  }
  const selected = parts.length > 0 ? parts : [...PARTS];
  const resultsDir = join(process.cwd(), 'results');
  for (const part of selected) {
    if (part === 'engine') {
      await runEngineBench({
        ...DEFAULT_ENGINE_BENCH_OPTIONS,
        ...(isQuick ? { webPages: 5_000, webHosts: 50, maxPages: 500 } : {}),
        resultsDir: isQuick ? join(resultsDir, 'quick') : resultsDir,
      });
    }
    if (part === 'decision') {
      await runDecisionBench({
        ...DEFAULT_DECISION_BENCH_OPTIONS,
        ...(isQuick ? { steps: 600, synchronousBudgetSec: 10, webPages: 50_000 } : {}),
        resultsDir: isQuick ? join(resultsDir, 'quick') : resultsDir,
      });
    }
    if (part === 'tree') {
      runTreeFrontierBench({
        resultsDir: isQuick ? join(resultsDir, 'quick') : resultsDir,
        ...(isQuick ? { steps: 2_000 } : {}),
      });
    }
    if (part === 'rl') runRlBench({ resultsDir: isQuick ? join(resultsDir, 'quick') : resultsDir });
    if (part === 'relevance') {
      await runRelevanceBench({
        outDir: join(isQuick ? join(resultsDir, 'quick') : resultsDir, 'relevance'),
        ...(isQuick ? { relevantPages: 30, folds: 2 } : {}),
      });
    }
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
