/** strategies/han-async/: what the rest of the strategies room imports from this folder. */
export { HAN_ASYNC_ENTRY } from './han-async-entry.js';
