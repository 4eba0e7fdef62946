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
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createRng } from './common/index.js';
import {
  Crawler as CrawlLoop,
  type CrawlerOptions as CrawlLoopOptions,
  DEFAULT_CRAWLER_OPTIONS,
  KeywordJudge,
} from './crawl/index.js';
import { createStrategy, DEFAULT_STRATEGY, type Strategy, type StrategySpec } from './strategies/index.js';
import { KeywordSet } from './text/index.js';
import type { FeedbackOptions, RelevanceFeedback } from './ui/index.js';

/** Options of {@link Crawler}: the crawl loop's, where the strategy may also be a spec. */
export type CrawlerOptions = Omit<CrawlLoopOptions, 'strategy'> & {
  /**
   * A strategy name with its settings (`bfs`, `best-first`, `tres:gamma=0.5`; `tres crawl --help`
   * lists them), a parsed spec, or a Strategy object. @default 'coverage'
   */
  strategy?: string | StrategySpec | Strategy;
  /**
   * How answers to the crawl's questions (the `ask` option) retrain the judge while the crawl
   * runs: relevance feedback's retraining in a worker thread, every `retrainAfterLabels` answers
   * (see {@link FeedbackOptions}); the new judge is swapped in only if it is not worse on the
   * answers. `false`: answers are stored and emitted, nothing retrains. @default {}
   */
  retrain?: FeedbackOptions | false;
};

/**
 * The strategy of a crawl: the Strategy object given, or the one its spec names (default
 * `coverage`), made with the random stream `strategy` forked off the crawl's seed, with the
 * crawl's keywords and keyphrases, and told whether the crawl is judged by keywords alone (a
 * KeywordJudge, or no `judge`, `judgeSource` or `examplesSource`), so a seeded crawl fetches in
 * the same order wherever it is made (the Crawler, `tres crawl`, `tres repair`).
 * @throws ConfigError (field `strategy`) naming the spec as written, for an unknown strategy or setting.
 */
export function crawlStrategy(
  options: Pick<
    CrawlerOptions,
    'strategy' | 'seed' | 'keywords' | 'keyphrases' | 'judge' | 'judgeSource' | 'examplesSource'
  >,
): Strategy {
  const spec = options.strategy ?? DEFAULT_STRATEGY;
  if (typeof spec !== 'string' && 'next' in spec) return spec;
  const judge = options.judge;
  return createStrategy(spec, {
    rng: createRng(options.seed ?? DEFAULT_CRAWLER_OPTIONS.seed).fork('strategy'),
    keywords: new KeywordSet(options.keywords ?? [], options.keyphrases ?? []),
    isKeywordJudged:
      judge === undefined
        ? options.judgeSource === undefined && options.examplesSource === undefined
        : judge instanceof KeywordJudge,
  });
}

/**
 * The crawler: the crawl loop with its strategy made from its spec ({@link crawlStrategy});
 * when it asks questions, a judge that learns (`learn`) takes their answers itself, and any
 * other judge is retrained on them (the `retrain` option).
 * @throws ConfigError naming the field for bad options, an unknown strategy or setting.
 */
export class Crawler extends CrawlLoop {
  private feedback: Promise<RelevanceFeedback | undefined> | undefined;

  constructor(options: CrawlerOptions) {
    const { retrain, ...loopOptions } = options;
    super({ ...loopOptions, strategy: crawlStrategy(options) });
    if (options.ask) {
      this.on('answer', ({ question, isRelevant }) => {
        const judge = this.currentJudge;
        if (judge.learn) {
          judge.learn({ url: question.url, title: question.title, text: question.excerpt }, isRelevant);
          return;
        }
        if (retrain === false) return;
        this.feedback ??= this.startFeedback(retrain ?? {});
        this.feedback.then((f) => f?.noteLabels()).catch(() => {});
      });
    }
  }

  /**
   * The relevance feedback that retrains this crawl's judge from its answers, once the first
   * answer came (undefined before, and when `retrain` is false).
   */
  get relevanceFeedback(): Promise<RelevanceFeedback | undefined> {
    return this.feedback ?? Promise.resolve(undefined);
  }

  /** Relevance feedback on this crawl's store; loaded on the first answer (the dashboard's room). */
  private async startFeedback(options: FeedbackOptions): Promise<RelevanceFeedback | undefined> {
    const { RelevanceFeedback: Feedback } = await import('./ui/index.js');
    const store = this.openStore;
    if (store === undefined) return undefined;
    const o = this.options;
    const source = o.judgeSource;
    return new Feedback(
      {
        crawler: this,
        store,
        outDir: o.outDir,
        threshold: o.relevanceThreshold,
        keywords: o.keywords ?? [],
        ...(source && existsSync(join(source, 'model.json')) ? { baseModelDir: source } : {}),
        judgeName: this.currentJudge.name,
      },
      options,
    );
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
  booleanSetting,
  numberOrOffSetting,
  numberSetting,
  type SettingsOf,
  type SettingsSchema,
  type SettingValue,
  wordSetting,
} from './config/index.js';
export {
  type AnchorToJudge,
  type AnswerEvent,
  type AskFunction,
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
  type Question,
  type QuestionOptions,
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
export type { LabelSource, PageLabel, PageRecord, StoredPage, StoredQuestion } from './store/index.js';
export { CrawlStore } from './store/index.js';
export {
  createStrategy,
  defineStrategy,
  parseStrategySpec,
  type QueueOrder,
  QueueStrategy,
  type QueueStrategyOptions,
  registerStrategy,
  type Strategy,
  type StrategyContext,
  type StrategyEntry,
  StrategySpec,
  type StrategyStats,
  strategyEntries,
  strategyEntry,
  strategyNames,
  strategySettingsHelp,
  unregisterStrategy,
} from './strategies/index.js';
export type { Action, DiscoveredLink, Outcome, SelectionContext } from './types/index.js';
export type { FeedbackOptions, RelevanceFeedback, RetrainReport } from './ui/index.js';
