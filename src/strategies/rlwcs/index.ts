/** strategies/rlwcs/: what the rest of the strategies room imports from this folder. */
export { RLWCS_ENTRIES } from './rlwcs-entries.js';
