/**
 * `tres-crawler/internals`: the building blocks under the public API (`tres-crawler`), for
 * benchmarks and experiments that measure or recombine them: the lab in this repository
 * (lab/) imports the crawler only through `tres-crawler` and this entry. Unlike the root
 * entry, these names carry no stability promise: they may change in any release. Each is
 * documented where it is defined; the list is kept to what the lab uses.
 */

export { oneLineErrors, runProgram } from './cli/index.js';
export { ClusterCoordinator, connectRedis } from './cluster/index.js';
export { FrontierSpill } from './crawl/index.js';
export { growableBytes, SampleTable, StringIds } from './frontier/index.js';
export { parseHtml, parseMetaRefreshUrl } from './html/index.js';
export {
  decodeText,
  detectCharset,
  type FetchResult,
  type RobotsDecision,
  RobotsTxtCache,
  WebClient,
} from './net/index.js';
export { DEFAULT_PDF_OPTIONS, PdfExtractor, type PdfOptions, resolvePdfOptions } from './pdf/index.js';
export {
  type AnchorInput,
  ColdStartJudge,
  confusion,
  crossValidate,
  DEFAULT_ANCHOR_MODEL,
  DEFAULT_PAGE_MODEL,
  ensureTfBackend,
  fetchExamplePages,
  formatTable1,
  isBinaryForTraining,
  type LabeledDocument,
  loadModel,
  MODEL_NAMES,
  MODEL_TITLES,
  type ModelEvaluation,
  type ModelName,
  metricsOf,
  type RelevanceConfig,
  type RelevanceConfigInput,
  readDocumentFile,
  resolveRelevanceConfig,
  type TfBackendInfo,
  type TfBackendName,
  trainModel,
  trainToFolder,
} from './relevance/index.js';
export { DEFAULT_RENDER_OPTIONS, Renderer, type RenderOptions, type RenderPhases } from './render/index.js';
export { Mlp } from './rl/index.js';
export {
  type HandlerSite,
  keywordsOf,
  type ReplayServer,
  SiteRouter,
  SYNTHETIC_WEB_DEFAULTS,
  type SyntheticWeb,
  type SyntheticWebOptions,
  scriptSiteHandler,
  sendStatus,
} from './sandbox/index.js';
export { DuplicateIndex, decodeOutlinks, readPageText, withCrawlReader } from './store/index.js';
export {
  DdqnAgent,
  type DdqnConfig,
  type PhaseTimer,
  splitStrategySpecs,
  strategyNeedsWordVectors,
  TRES_PHASES,
  TreeFrontier,
  type TreeFrontierOptions,
  type TresPhase,
  TresStrategy,
} from './strategies/index.js';
export {
  type ContentFingerprint,
  contentFingerprint,
  detectLanguage,
  isStopword,
  KeywordSet,
  loadWordVectors,
  pageFingerprint,
  pageTokens,
  type WordVectors,
} from './text/index.js';
export type { LinkContextWindow } from './types/index.js';
export {
  CrawlMonitor,
  DEFAULT_FEEDBACK_OPTIONS,
  feedbackModelDir,
  liveSource,
  RelevanceFeedback,
  startDashboard,
} from './ui/index.js';
export {
  createUrlFilter,
  hostOf,
  hostSite,
  normalizeUrl,
  registrableDomain,
  type UrlFilterOptions,
} from './url/index.js';
