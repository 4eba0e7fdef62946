/**
 * Reinforcement learning for TRES: the Double DQN agent (section 2.4.2 of the journal text), its
 * replay buffer and its Q-network, a plain typed-array MLP behind the {@link QNetwork} interface.
 */
export { Adam, type AdamOptions, type AdamState, DEFAULT_ADAM_OPTIONS } from './adam.js';
export {
  DdqnAgent,
  type DdqnAgentOptions,
  type DdqnCheckpoint,
  type DdqnLearnedState,
  type DdqnStats,
} from './ddqn.js';
export { type DdqnConfig, DEFAULT_DDQN_CONFIG, resolveDdqnConfig } from './ddqn-config.js';
export { DEFAULT_MLP_OPTIONS, Mlp, type MlpJson, type MlpOptions } from './mlp.js';
export type { QNetwork, QNetworkFactory } from './q-network.js';
export { ReplayBuffer, type ReplayBufferOptions, type Transition } from './replay-buffer.js';
