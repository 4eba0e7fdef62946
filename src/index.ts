/**
 * tres as a library. The shape Crawlee users know: construct a crawler with one typed options
 * object, subscribe to its events, `await crawler.run(seedUrls)`.
 *
 * ```ts
 * import { Crawler } from 'tres-crawler';
 * const crawler = new Crawler({ outDir: 'crawl1', strategy: 'best-first', keywords: ['cpu', 'gpu'], maxPages: 500 });
 * crawler.on('page', (p) => { if (p.reward) console.log('relevant:', p.url); });
 * const summary = await crawler.run(['https://example.org/']);
 * ```
 */
import {
  Crawler as CrawlLoop,
  type CrawlerOptions as CrawlLoopOptions,
  DEFAULT_CRAWLER_OPTIONS,
} from './crawl/index.js';
import { DEFAULT_STRATEGY, type Strategy, strategyForCrawl } from './strategies/index.js';

/** Options of {@link Crawler}: the crawl loop's, where the strategy may also be a name. */
export type CrawlerOptions = Omit<CrawlLoopOptions, 'strategy'> & {
  /**
   * A strategy name with its settings (`bfs`, `best-first`, `tres:gamma=0.5`; `tres crawl --help`
   * lists them) or a Strategy object. @default 'coverage'
   */
  strategy?: string | Strategy;
};

/**
 * The crawler: the crawl loop with the strategy resolved from its name, made from the crawl's
 * seed and keywords (`strategyForCrawl`).
 * @throws ConfigError naming the field for bad options, an unknown strategy or setting.
 */
export class Crawler extends CrawlLoop {
  constructor(options: CrawlerOptions) {
    super({
      ...options,
      strategy: strategyForCrawl(options.strategy ?? DEFAULT_STRATEGY, {
        seed: options.seed ?? DEFAULT_CRAWLER_OPTIONS.seed,
        ...(options.keywords ? { keywords: options.keywords } : {}),
        ...(options.keyphrases ? { keyphrases: options.keyphrases } : {}),
      }),
    });
  }
}

export {
  type Clock,
  ConfigError,
  createRng,
  DeferUrlError,
  ERROR_CODES,
  type ErrorCode,
  type ErrorContext,
  type ErrorThen,
  errorCode,
  errorThen,
  hash32,
  isErrorCode,
  type RecordErrorCode,
  RetryLaterError,
  type Rng,
  SkipUrlError,
  StopCrawlError,
  systemClock,
  TresError,
  type TresErrorOptions,
} from './common/index.js';
export {
  type AnchorToJudge,
  type CheckpointEvent,
  type CrawlerEvents,
  type CrawlProgress,
  type CrawlSummary,
  DEFAULT_CRAWLER_OPTIONS,
  DEFAULT_SITEMAP_OPTIONS,
  type DomainLimit,
  domainLimitAt,
  type FailureEvent,
  formatDomainLimit,
  KeywordJudge,
  type KeywordJudgeOptions,
  type PageEvent,
  type PageJudge,
  type PageToJudge,
  parseDomainLimit,
  type ResolvedCrawlerOptions,
  type RetryEvent,
  readSitemaps,
  type SitemapEvent,
  type SitemapHooks,
  type SitemapOptions,
  type SitemapStats,
  type StopReason,
} from './crawl/index.js';
export type { WebClientOptions } from './net/index.js';
export {
  createSyntheticWeb,
  type SiteSource,
  sandboxResolveRules,
  serveSandbox,
  startReplayServer,
} from './sandbox/index.js';
export type { PageRecord, StoredPage } from './store/index.js';
export { CrawlStore } from './store/index.js';
export {
  createStrategy,
  defineStrategy,
  parseStrategySpec,
  type QueueOrder,
  QueueStrategy,
  type QueueStrategyOptions,
  STRATEGIES,
  type Strategy,
  type StrategyContext,
  type StrategyEntry,
  type StrategyStats,
  strategyEntry,
  strategyNames,
  strategySettingsHelp,
} from './strategies/index.js';
export type { Action, DiscoveredLink, Outcome, SelectionContext } from './types/index.js';
