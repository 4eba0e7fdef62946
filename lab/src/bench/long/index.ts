/** bench/long/: what the rest of the bench room imports from this folder. */

export { type CpuProfile, summarizeCpuProfile } from './cpu-profile-summary.js';
export { DEFAULT_LONG_BENCH_OPTIONS, type LongBenchOptions, runLongBench } from './long-bench.js';
