/** bench/decision/: what the rest of the bench room imports from this folder. */
export { DEFAULT_DECISION_BENCH_OPTIONS, runDecisionBench } from './decision-bench.js';
export { type GcPause, watchGc } from './decision-tail.js';
export { runRlBench } from './rl-bench.js';
export { ThreadSchedstat } from './thread-schedstat.js';
export { runTreeFrontierBench } from './tree-frontier-bench.js';
