/** bench/engine/: what the rest of the bench room imports from this folder. */
export { runClusterBench } from './cluster-bench.js';
export { DEFAULT_ENGINE_BENCH_OPTIONS, runEngineBench } from './engine-bench.js';
export { runPdfBench } from './pdf-bench.js';
export { runRenderBench } from './render-bench.js';
export { runUiCostBench } from './ui-cost-bench.js';
