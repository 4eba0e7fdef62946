/** sandbox/synthetic/: what the rest of the sandbox room imports from this folder. */
export type { HostTable } from './host-table.js';
export type { LinkTarget } from './page-links.js';
export {
  LABELS_TSV,
  type MaterializeOptions,
  materializeWeb,
  SITES_DIR,
  WEB_JSON,
  writeLabelsFile,
} from './synthetic-files.js';
export { loadSyntheticWeb, materializedSites } from './synthetic-load.js';
export {
  resolveSyntheticOptions,
  SYNTHETIC_WEB_DEFAULTS,
  type SyntheticWebOptions,
} from './synthetic-options.js';
export { type SyntheticWebStats, syntheticWebStats } from './synthetic-stats.js';
export { createSyntheticWeb, type PageLabel, type SyntheticWeb } from './synthetic-web.js';
export { keywordsOf } from './vocabulary.js';
export type { PageRef } from './web-model.js';
