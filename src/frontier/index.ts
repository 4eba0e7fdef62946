export { BinaryHeap } from './binary-heap.js';
export { type FrontierItem, HostQueueFrontier } from './host-queue-frontier.js';
export {
  DEFAULT_TREE_FRONTIER_OPTIONS,
  TreeFrontier,
  type TreeFrontierOptions,
  type TreeLeafStats,
  type TreeSample,
} from './tree-frontier.js';
