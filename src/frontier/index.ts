/**
 * The frontier room: the one Frontier contract (IndexedFrontier) and the frontiers strategies
 * build on, samples kept as ids in a SampleTable.
 */
export { BinaryHeap } from './binary-heap.js';
export { type DrawContext, type IndexedFrontier, isIdReady } from './frontier.js';
export { FullIndexedFrontier } from './full-frontier.js';
export { IndexedPriorityFrontier, takeBestAction } from './indexed-priority-frontier.js';
export { IndexedRandomFrontier } from './indexed-random-frontier.js';
export { type SampleInput, SampleTable, type SampleTableOptions } from './sample-table.js';
export { growableArray, growableBytes, grownArray, grownCapacity, SlicePool } from './slice-pool.js';
export { StringIds } from './string-ids.js';
