/** strategies/apprentice/: what the rest of the strategies room imports from this folder. */
export { APPRENTICE_ENTRY } from './apprentice-entry.js';
