/**
 * The benchmark harness as the `npm run lab -- bench crawl` command uses it: the crawl benchmark and its
 * summary report. The other benchmarks run from `npm run bench` (main.ts), built with the rest
 * of the lab into lab/dist/ (scripts/build-lab.mjs).
 */
export { DEFAULT_CRAWL_BENCH_OPTIONS, PAPER_DOMAIN_LIMITS, runCrawlBench } from './crawl/index.js';
export { readTopicResults, summaryReport } from './report/index.js';
