export { type QueueOrder, QueueStrategy, type QueueStrategyOptions } from './queue-strategy.js';
export { createStrategy, type StrategyContext, strategyNames } from './registry.js';
export type * from './strategy.js';
