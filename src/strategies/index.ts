export { type QueueOrder, QueueStrategy, type QueueStrategyOptions } from './queue-strategy.js';
export {
  createStrategy,
  parseStrategySpec,
  STRATEGIES,
  type StrategyContext,
  type StrategyEntry,
  strategyEntry,
  strategyNames,
  strategySettingsHelp,
} from './registry.js';
export type * from './strategy.js';
export { defineStrategy } from './strategy-entry.js';
