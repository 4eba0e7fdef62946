/**
 * DocWeb: a real web of Debian documentation sites (about 90k pages on 75 hosts and prefixes),
 * built from packages into a cache folder and served on loopback by Host header. Topics are YAML
 * files whose rules label pages; samples of labelled pages train a topic's classifier.
 * See README.md in this folder.
 */
export {
  type CommandResult,
  type CommandRunner,
  type DebDownload,
  hasPackageLists,
  parsePrintUris,
  planDownloads,
  runCommand,
} from './apt.js';
export {
  buildDocweb,
  DOCWEB_BUILD_DEFAULTS,
  type DocwebBuildOptions,
  type DocwebBuildSummary,
} from './build.js';
export {
  type CacheLayout,
  cacheLayout,
  DOCWEB_DB_FILE,
  defaultCacheDir,
  EXTRACTED_MARKER,
  packageDir,
} from './cache-layout.js';
export { type HtmlContents, readHtmlContents } from './contents-index.js';
export {
  type DocwebCounts,
  DocwebDb,
  type DocwebPageRow,
  type DocwebSiteRow,
  type DocwebTables,
  writeDocwebDb,
} from './docweb-db.js';
export {
  DOCWEB_SERVE_DEFAULTS,
  type DocwebServeOptions,
  type DocwebServer,
  docwebSiteSources,
  startDocweb,
} from './docweb-server.js';
export { type FetchPackagesOptions, type FetchReport, fetchPackages, isExtracted } from './fetch-packages.js';
export {
  appendToManifest,
  describeCandidate,
  type GrowOptions,
  type GrowReport,
  growDocweb,
} from './grow.js';
export {
  GROW_PLAN_DEFAULTS,
  type GrowCandidate,
  type GrowPlan,
  type GrowPlanOptions,
  planGrowth,
} from './grow-plan.js';
export { HUB_DEFAULT_SECTIONS, HUB_HOST, type HubOptions, type HubPage, writeHub } from './hub.js';
export { buildHub, type HubBuild, hubHandler, readHubIndex } from './hub-site.js';
export {
  countLinkGraph,
  formatLinkGraph,
  type LinkGraphCounts,
  servedPageLookup,
  type UnservedHost,
  writeLinkGraph,
} from './link-graph.js';
export {
  DEFAULT_MANIFEST_PATH,
  DEFAULT_TOPICS_DIR,
  loadManifest,
  type Manifest,
  type ManifestSite,
  parseManifestSite,
  selectSites,
} from './manifest.js';
export { type PackageInfo, parsePackages, readAvailablePackages, readTranslations } from './package-lists.js';
export {
  type ExcludeRules,
  PAGE_EXTENSIONS,
  pageUrl,
  type ScannedPage,
  type SiteScan,
  scanSitePages,
} from './page-scan.js';
export {
  drawSpread,
  SAMPLE_DEFAULTS,
  SAMPLE_DRAWS,
  type SampleDraw,
  type SampleOptions,
  type SampleReport,
  sampleTrainingData,
} from './sample.js';
export { type SanitizeReport, sanitizeLinks } from './sanitize-links.js';
export {
  checkSeeds,
  findPage,
  pageKey,
  pageLinks,
  readPageHtml,
  type SeedCheckReport,
  type SeedLink,
} from './seed-check.js';
export {
  type HubIndex,
  loadTopic,
  loadTopics,
  makeLabeler,
  parseTopic,
  type Topic,
  type TopicRule,
} from './topic.js';
export { formatTopicReport, type RuleCount, type TopicReport, topicReport } from './topic-report.js';
