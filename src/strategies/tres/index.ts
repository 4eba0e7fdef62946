/** strategies/tres/: what the rest of the strategies room imports from this folder. */

export { DdqnAgent } from './ddqn.js';
export type { DdqnConfig } from './ddqn-config.js';
export { type PhaseTimer, TRES_PHASES, type TresPhase } from './decision-phases.js';
export { DomainStats, withNewSiteBonus } from './state-features.js';
export { TreeFrontier } from './tree-frontier.js';
export type { TreeFrontierOptions } from './tree-types.js';
export { TresAsyncStrategy } from './tres-async-strategy.js';
export { TRES_ENTRIES } from './tres-entries.js';
export { TresStrategy } from './tres-strategy.js';
