/** bench/fuzz/: what the rest of the bench room imports from this folder. */
export { runFuzzBench } from './fuzz-bench.js';
