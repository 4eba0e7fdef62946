/** strategies/site-coverage/: what the rest of the strategies room imports from this folder. */
export { COVERAGE_ENTRY } from './coverage-entry.js';
