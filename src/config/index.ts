export { loadConfigFile, type OptionKind } from './load-config.js';
