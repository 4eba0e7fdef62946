export { BinaryHeap } from './binary-heap.js';
export { type FrontierItem, HostQueueFrontier } from './host-queue-frontier.js';
