export { type CrawlStrategySource, DEFAULT_STRATEGY, strategyForCrawl } from './crawl-strategy.js';
export { type QueueOrder, QueueStrategy, type QueueStrategyOptions } from './queue-strategy.js';
export {
  createStrategy,
  parseStrategySpec,
  STRATEGIES,
  type StrategyContext,
  type StrategyEntry,
  strategyEntry,
  strategyNames,
  strategyNeedsWordVectors,
  strategySettingsHelp,
} from './registry.js';
export type * from './strategy.js';
export { defineStrategy } from './strategy-entry.js';
export { DdqnAgent } from './tres/ddqn.js';
export type { DdqnConfig } from './tres/ddqn-config.js';
export { type PhaseTimer, TRES_PHASES, type TresPhase } from './tres/decision-phases.js';
export { TreeFrontier } from './tres/tree-frontier.js';
export type { TreeFrontierOptions } from './tres/tree-types.js';
export { TresStrategy } from './tres/tres-strategy.js';
