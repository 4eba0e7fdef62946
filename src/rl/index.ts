/**
 * Learning parts any strategy may use: a plain typed-array MLP behind the {@link QNetwork}
 * interface, and Adam. TRES's Double DQN agent and its replay buffer are in strategies/tres/.
 */
export { Adam, type AdamOptions, type AdamState, DEFAULT_ADAM_OPTIONS } from './adam.js';
export { DEFAULT_MLP_OPTIONS, Mlp, type MlpJson, type MlpOptions } from './mlp.js';
export type { QNetwork, QNetworkFactory } from './q-network.js';
