/** strategies/lim/: what the rest of the strategies room imports from this folder. */
export { LIM_ENTRIES } from './lim-entries.js';
