/** bench/relevance/: what the rest of the bench room imports from this folder. */
export { runFeedbackBench } from './feedback-bench.js';
export { runRelevanceBench } from './relevance-bench.js';
