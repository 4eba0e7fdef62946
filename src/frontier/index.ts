export { FullFrontier, RandomFrontier } from './bag-frontier.js';
export { BinaryHeap } from './binary-heap.js';
export { type DrawContext, type Frontier, type FrontierSample, isReady } from './frontier.js';
export { type FrontierItem, PriorityFrontier, type PrioritySample } from './priority-frontier.js';
export {
  DEFAULT_TREE_FRONTIER_OPTIONS,
  TreeFrontier,
  type TreeFrontierOptions,
  type TreeLeafStats,
  type TreeSample,
} from './tree-frontier.js';
