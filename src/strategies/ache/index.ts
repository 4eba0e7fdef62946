/** strategies/ache/: what the rest of the strategies room imports from this folder. */
export { ACHE_ENTRY } from './ache-entry.js';
export { FieldWords } from './link-features.js';
export { QueuedLinks } from './queued-links.js';
