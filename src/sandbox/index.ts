/**
 * The sandbox room: webs to crawl without the Internet. A replay server on loopback serving many
 * sites by Host header and URL prefix (folders or handlers), fault sites for every way a site can
 * misbehave, and a seeded procedural synthetic web with ground-truth labels.
 */

export {
  BROKEN_HTML_PAGES,
  type BrokenHtmlPage,
  CHARSET_PAGES,
  type CharsetPage,
  decodeWindows1252,
  encodeWindows1252,
  FAULT_INDEX_URL,
  FAULT_ROBOTS_TXT,
  FAULT_SITES_DEFAULTS,
  type FaultSitesOptions,
  faultSites,
  gzipBomb,
  type LinkFarm,
  type LinkFarmOptions,
  ROBOTS_VIOLATION_MARKER,
  scriptSiteHandler,
  startLinkFarm,
  TINY_PDF,
  TINY_PNG,
} from './faults/index.js';
export type { FolderSite, HandlerSite, SiteHandler, SiteSource } from './replay/index.js';
export {
  contentTypeOf,
  REPLAY_SERVER_DEFAULTS,
  type ReplayServer,
  type ReplayServerOptions,
  type ReplayServerStats,
  type Route,
  SiteRouter,
  sandboxResolveRules,
  sendStatus,
  startReplayServer,
} from './replay/index.js';
export { type Sandbox, type ServeSandboxOptions, serveSandbox } from './serve-sandbox.js';
export type { HostTable, LinkTarget, PageRef } from './synthetic/index.js';
export {
  createSyntheticWeb,
  keywordsOf,
  LABELS_TSV,
  loadSyntheticWeb,
  type MaterializeOptions,
  materializedSites,
  materializeWeb,
  type PageLabel,
  resolveSyntheticOptions,
  SITES_DIR,
  SYNTHETIC_WEB_DEFAULTS,
  type SyntheticWeb,
  type SyntheticWebOptions,
  type SyntheticWebStats,
  syntheticWebStats,
  WEB_JSON,
  writeLabelsFile,
} from './synthetic/index.js';
