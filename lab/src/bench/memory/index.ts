/** bench/memory/: what the rest of the bench room imports from this folder. */
export { DEFAULT_MEMORY_BENCH_OPTIONS, runMemoryBench } from './memory-bench.js';
