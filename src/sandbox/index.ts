/**
 * The sandbox room: webs to crawl without the Internet. A replay server on loopback serving many
 * sites by Host header and URL prefix (folders or handlers), fault sites for every way a site can
 * misbehave, and a seeded procedural synthetic web with ground-truth labels.
 */

export {
  CHARSET_PAGES,
  type CharsetPage,
  decodeWindows1252,
  encodeWindows1252,
} from './faults/charset-pages.js';
export {
  BROKEN_HTML_PAGES,
  type BrokenHtmlPage,
  FAULT_ROBOTS_TXT,
  ROBOTS_VIOLATION_MARKER,
  TINY_PDF,
  TINY_PNG,
} from './faults/fault-content.js';
export { FAULT_SITES_DEFAULTS, type FaultSitesOptions } from './faults/fault-page.js';
export { FAULT_INDEX_URL, faultSites } from './faults/fault-sites.js';
export { gzipBomb } from './faults/gzip-bomb.js';
export { scriptSiteHandler } from './faults/script-site.js';
export { contentTypeOf } from './replay/content-type.js';
export {
  REPLAY_SERVER_DEFAULTS,
  type ReplayServer,
  type ReplayServerOptions,
  type ReplayServerStats,
  startReplayServer,
} from './replay/replay-server.js';
export { sendStatus } from './replay/responses.js';
export { sandboxResolveRules } from './replay/sandbox-rules.js';
export { type Route, SiteRouter } from './replay/site-router.js';
export type { FolderSite, HandlerSite, SiteHandler, SiteSource } from './replay/site-source.js';
export { type Sandbox, type ServeSandboxOptions, serveSandbox } from './serve-sandbox.js';
export type { HostTable } from './synthetic/host-table.js';
export type { LinkTarget } from './synthetic/page-links.js';
export {
  LABELS_TSV,
  type MaterializeOptions,
  materializeWeb,
  SITES_DIR,
  WEB_JSON,
  writeLabelsFile,
} from './synthetic/synthetic-files.js';
export { loadSyntheticWeb, materializedSites } from './synthetic/synthetic-load.js';
export {
  resolveSyntheticOptions,
  SYNTHETIC_WEB_DEFAULTS,
  type SyntheticWebOptions,
} from './synthetic/synthetic-options.js';
export { type SyntheticWebStats, syntheticWebStats } from './synthetic/synthetic-stats.js';
export { createSyntheticWeb, type PageLabel, type SyntheticWeb } from './synthetic/synthetic-web.js';
export { keywordsOf } from './synthetic/vocabulary.js';
export type { PageRef } from './synthetic/web-model.js';
