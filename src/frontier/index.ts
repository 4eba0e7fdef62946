export { FullFrontier, RandomFrontier } from './bag-frontier.js';
export { BinaryHeap } from './binary-heap.js';
export {
  type DrawContext,
  type Frontier,
  type FrontierSample,
  type IndexedFrontier,
  isIdReady,
  isReady,
} from './frontier.js';
export { FullIndexedFrontier } from './full-frontier.js';
export { type FrontierItem, PriorityFrontier, type PrioritySample } from './priority-frontier.js';
export { type SampleInput, SampleTable, type SampleTableOptions } from './sample-table.js';
export { StringIds } from './string-ids.js';
export {
  DEFAULT_TREE_FRONTIER_OPTIONS,
  TreeFrontier,
  type TreeFrontierOptions,
  type TreeLeafStats,
} from './tree-frontier.js';
