/** bench/crawl/: what the rest of the bench room imports from this folder. */

export { runCrawlBench } from './crawl-bench.js';
export { configLabel, DEFAULT_CRAWL_BENCH_OPTIONS, PAPER_DOMAIN_LIMITS } from './crawl-bench-options.js';
export { type RunResult, WILCOXON_EVERY } from './crawl-bench-run.js';
export {
  bestRowsWithTies,
  type ConfigRow,
  isBetter,
  meanCurve,
  pairedDifference,
  RANKED_BUDGET_SHARE,
  rowDominates,
  rowParetoFront,
  type Spread,
  spread,
  summarizeRuns,
} from './crawl-bench-stats.js';
export { openBenchWeb } from './crawl-bench-topic.js';
export { runOracleReach } from './oracle-reach.js';
export { ORACLE_STRATEGY } from './oracle-strategy.js';
export { type ResumeVariant, runResumeBench } from './resume-bench.js';
export { ensureTopicReward } from './topic-reward.js';
export { WebScopeStrategy } from './web-scope.js';
