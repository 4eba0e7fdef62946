export { type QueueOrder, QueueStrategy, type QueueStrategyOptions } from './queue-strategy.js';
export {
  createStrategy,
  DEFAULT_STRATEGY,
  parseStrategySpec,
  registerStrategy,
  type StrategyContext,
  type StrategyEntry,
  StrategySpec,
  splitStrategySpecs,
  strategyEntries,
  strategyEntry,
  strategyNames,
  strategyNeedsWordVectors,
  strategySettingsHelp,
  unregisterStrategy,
} from './registry.js';
export type * from './strategy.js';
export { defineStrategy } from './strategy-entry.js';
export type { DdqnConfig, TreeFrontierOptions } from './tres/index.js';
export {
  DdqnAgent,
  type PhaseTimer,
  TRES_PHASES,
  TreeFrontier,
  type TresPhase,
  TresStrategy,
} from './tres/index.js';
