/**
 * Options of a crawl (the library's `CrawlerOptions`), their defaults in one constant, and the
 * one place they are checked. The command line and config files map onto this type.
 *
 * Also the contract of a {@link FetchRunner}, the option that says where the crawl loop's fetches
 * run: by default in this process (the loop's own WebClient and processFetch); a runner moves them
 * elsewhere (the cluster coordinator sends them to worker processes over Redis Streams,
 * src/cluster/) while the loop, the strategy and the store stay as they are. It lives here
 * because it is opened with the resolved options, which hold it.
 */
import type { Clock } from '../common/index.js';
import { ConfigError } from '../common/index.js';
import type { WebClientOptions } from '../net/index.js';
import { type PdfOptions, resolvePdfOptions } from '../pdf/index.js';
import { type RenderOptions, resolveRenderOptions } from '../render/index.js';
import type { PageRecord } from '../store/index.js';
import type { Strategy } from '../strategies/index.js';
import type { Action, LinkContextWindow, Outcome } from '../types/index.js';
import type { UrlFilterOptions } from '../url/index.js';
import { type DomainLimit, parseDomainLimit } from './domain-limit.js';
import type { PageJudge } from './judge.js';
import type { ProcessedFetch } from './process-fetch.js';
import { type AskFunction, type QuestionOptions, resolveQuestionOptions } from './question-desk.js';
import { resolveSitemapOptions, type SitemapHooks, type SitemapOptions } from './sitemap-source.js';

export interface CrawlerOptions {
  /** Folder of the crawl store (SQLite, WARC, JSONL). Required. */
  outDir: string;
  /** Continue the crawl stored in `outDir` instead of starting one. @default false */
  isResume?: boolean;
  /**
   * How the next URL is chosen. A name (`best-first`, `tres:gamma=0.5`) is resolved by the caller:
   * by the library's `Crawler` and `crawlStrategy` (src/index.ts), which the command line uses.
   */
  strategy: Strategy;
  /** Run seed: every random choice derives from it. @default 1 */
  seed?: number | string;
  /** Page budget T (every fetch attempt counts). `false` for none. @default 1000 */
  maxPages?: number | false;
  /** Domain limit b: `none`, a number, or `B_F` (adaptive halving). @default 'none' */
  maxPagesPerDomain?: string | number | DomainLimit;
  /** Stop after this many milliseconds. `false` for none. @default false */
  timeLimitMs?: number | false;
  /** Fetches in flight K. K = 1 is the papers' sequential MDP. @default 8 */
  maxConcurrency?: number;
  /** Retries of one URL after transient failures (network, 5xx, 429). @default 2 */
  maxRetries?: number;
  /**
   * Longest wait before a retry after a transient failure, in ms. A server asking for more
   * (Retry-After) gets its URL recorded as failed instead of waiting that long. A URL waiting
   * for its retry holds no page budget: those still waiting when the budget is spent stay in the
   * frontier for a resume.
   * A robots.txt that cannot be fetched is not bounded by this: its origin's URLs wait, holding
   * no budget, as long as `net.maxUnreachableMs` says (1 hour; RFC 9309 2.3.1.4 asks a crawler to
   * assume everything disallowed while robots.txt is unreachable), shown on the progress line as
   * "waiting for robots.txt of N hosts". @default 60_000
   */
  maxRetryDelayMs?: number;
  /**
   * "Web site" of the papers, for the domain limit and relevant domains: the registrable domain
   * (`docs.python.org` -> `python.org`) or the host without `www.` (the TRES authors' code).
   * @default 'domain'
   */
  siteMode?: 'domain' | 'host';
  /** Relevance model that gives the reward. Required unless `keywords` is given. */
  judge?: PageJudge;
  /**
   * Where `judge` was loaded from (e.g. the model folder of `tres crawl --model`). Not used by
   * the crawl; stored with its config so that a resume can load the same judge.
   * @default undefined
   */
  judgeSource?: string;
  /**
   * Where the example pages of the judge came from (`tres crawl --examples`: a folder or a file
   * of URLs, as an absolute path). Not used by the crawl; stored with its config so that a resume
   * makes the same judge. @default undefined
   */
  examplesSource?: string;
  /**
   * Topic keywords (expanded set): the stand-in keyword judge uses them when no `judge` is
   * given, and strategies with keyword features (TRES) always do.
   */
  keywords?: string[];
  /** Topic keyphrases (never expanded), for strategies with keyword features. */
  keyphrases?: string[];
  /** Reward = 1 when P(relevant) >= threshold. @default 0.5 */
  relevanceThreshold?: number;
  /** Follow links marked rel=nofollow or on pages with meta robots nofollow. @default false */
  shouldFollowNofollow?: boolean;
  /**
   * Obey `noindex` (meta robots or X-Robots-Tag): such a page is still fetched, judged and its
   * links followed (unless nofollow), but its title is not kept, it is marked `noindex` in the store
   * and `tres export` leaves it out. `false` keeps it like any page. @default true
   */
  shouldObeyNoindex?: boolean;
  /**
   * Visible text kept per page for the judge and the fingerprint, in characters; a page cut here
   * is marked `text-capped`. `false` keeps all of it. @default 200_000
   */
  maxTextChars?: number | false;
  /**
   * Links read per page; a page with more is marked `links-capped` and its later links are not
   * read. `false` reads all. @default 10_000
   */
  maxLinksPerPage?: number | false;
  /** Keep link context tokens for strategies that use them (the apprentice). @default false */
  withLinkContext?: boolean;
  /** Maximum link depth from a seed. `false` for none. @default false */
  maxDepth?: number | false;
  /** Network options: user agent, timeouts, politeness, resolve rules, address guard. */
  net?: WebClientOptions;
  /** Which URLs are in scope. */
  urlFilter?: UrlFilterOptions;
  /** Write WARC records of every response. @default true */
  shouldWriteWarc?: boolean;
  /**
   * A page whose words match a page the crawl holds is a duplicate (reward 0, never relevant):
   * exactly (always), or as a near copy whose SimHash differs in at most this many bits (0 to 3;
   * Manku et al. used 3). `false` finds exact copies only. @default 3
   */
  nearDuplicateBits?: number | false;
  /**
   * Time one page may spend being parsed, in ms (parsing yields to other fetches between slices);
   * past it the page is recorded as `TRES_PARSE_TIMEOUT`. `false` turns the limit off. @default 2000
   */
  parseTimeBudgetMs?: number | false;
  /**
   * Take URLs from the seed sites' sitemaps too (robots.txt `Sitemap:` lines, else
   * `/sitemap.xml`; index files, gzip), fetched politely like pages; `{}` for the defaults of
   * {@link SitemapOptions}, `false` for none. @default false
   */
  sitemaps?: SitemapOptions | false;
  /**
   * Read PDF responses: text, title and links extracted with pdf.js in a worker thread with time
   * and memory limits (see {@link PdfOptions}), judged and followed like HTML pages; `.pdf` URLs
   * pass the URL filter and `application/pdf` is fetched. `false` leaves PDFs out (and adds `pdf`
   * to the excluded extensions). @default {} (on, with DEFAULT_PDF_OPTIONS)
   */
  pdf?: PdfOptions | false;
  /**
   * Render HTML pages in chromium (playwright-core) so that links made by scripts are found:
   * every host, or `hosts`; each browser request goes through the crawl's politeness, robots.txt
   * and address guard (see {@link RenderOptions}). `false` renders nothing. @default false
   */
  render?: RenderOptions | false;
  /**
   * URLs the strategy's frontier holds in memory at most: past it, the links of the pages
   * recorded from then on wait on disk (the crawl store keeps every page's links) and go to the
   * strategy, valued as they arrive, whenever its frontier is under this. Bounds the
   * memory a crawl takes whatever the web offers (a strategy holds about 250 bytes per queued
   * URL). Strategies without `queueLinks` are not bounded. `false`: no bound. @default 1_000_000
   */
  maxFrontierUrls?: number | false;
  /** Milliseconds between 'progress' events. @default 1000 */
  progressIntervalMs?: number;
  /**
   * Pages between two checkpoints of what the strategy has learned (`Strategy.checkpoint`),
   * stored in crawl.sqlite so that `--resume` goes on from it; one more is taken when the crawl
   * stops or ends. A kill loses at most the learning of this many pages; each checkpoint of TRES
   * costs a few milliseconds per 1,000 stored transitions. `false`: no checkpoints (a resume
   * learns again from the start). @default 500
   */
  checkpointEveryPages?: number | false;
  /**
   * Pages between two frontier snapshots at least (`Strategy.frontierSnapshot`: everything the
   * strategy holds, the frontier included, in `frontier-snapshot.bin` beside crawl.sqlite), so
   * that `--resume` replays only the pages recorded after the last one instead of every page. A
   * snapshot is taken once the pages since the last one reach both this and a tenth of the crawl
   * so far, and when the crawl stops or ends. `false` (or `checkpointEveryPages` false): none (a
   * resume replays every page). Strategies without snapshots replay every page. @default 10000
   */
  frontierSnapshotPages?: number | false;
  /**
   * Ask the user about pages while crawling (see docs/library.md, "Questions"): every
   * `questions.everyPages` pages the crawl may choose the page whose label would teach the judge
   * most and call `ask` with it, without waiting for the answer. Answers are stored as labels
   * (source `answer`) and emitted as `answer` events. `true`: questions are only listed
   * (`openQuestions()`, the dashboard) and answered with `answerQuestion`. `false`: no questions.
   * @default false
   */
  ask?: AskFunction | boolean;
  /** Most questions a crawl asks, over all its runs; `false` asks none. @default 50 */
  maxQuestions?: number | false;
  /** How questions are chosen and kept (see {@link QuestionOptions}). @default {} */
  questions?: QuestionOptions;
  clock?: Clock;
  /**
   * Where fetches run: in this process (undefined), or elsewhere, e.g. on cluster workers
   * (src/cluster/). @default undefined
   */
  fetchRunner?: FetchRunner;
}

type Resolved = Required<
  Omit<
    CrawlerOptions,
    | 'sitemaps'
    | 'pdf'
    | 'render'
    | 'judge'
    | 'judgeSource'
    | 'examplesSource'
    | 'keywords'
    | 'keyphrases'
    | 'net'
    | 'urlFilter'
    | 'clock'
    | 'strategy'
    | 'fetchRunner'
    | 'ask'
    | 'questions'
  >
>;

/** Defaults of every optional field. */
export const DEFAULT_CRAWLER_OPTIONS: Omit<Resolved, 'outDir' | 'maxPagesPerDomain'> & {
  maxPagesPerDomain: string;
  sitemaps: SitemapOptions | false;
  pdf: PdfOptions | false;
  render: RenderOptions | false;
} = {
  isResume: false,
  seed: 1,
  maxPages: 1000,
  maxPagesPerDomain: 'none',
  timeLimitMs: false,
  maxConcurrency: 8,
  maxRetries: 2,
  maxRetryDelayMs: 60_000,
  siteMode: 'domain',
  relevanceThreshold: 0.5,
  shouldFollowNofollow: false,
  shouldObeyNoindex: true,
  maxTextChars: 200_000,
  maxLinksPerPage: 10_000,
  withLinkContext: false,
  maxDepth: false,
  shouldWriteWarc: true,
  nearDuplicateBits: 3,
  parseTimeBudgetMs: 2000,
  sitemaps: false,
  pdf: {},
  render: false,
  progressIntervalMs: 1000,
  maxFrontierUrls: 1_000_000,
  checkpointEveryPages: 500,
  frontierSnapshotPages: 10_000,
  maxQuestions: 50,
};

/** Options after defaults are filled in and ranges checked. */
export type ResolvedCrawlerOptions = Omit<Resolved, 'maxPagesPerDomain'> & {
  sitemaps: Required<SitemapOptions> | false;
  pdf: Required<PdfOptions> | false;
  render: Required<RenderOptions> | false;
  maxPagesPerDomain: DomainLimit;
  strategy: Strategy;
  judge?: PageJudge;
  judgeSource?: string;
  examplesSource?: string;
  keywords?: string[];
  keyphrases?: string[];
  net: WebClientOptions;
  urlFilter: UrlFilterOptions;
  clock?: Clock;
  fetchRunner?: FetchRunner;
  /** The ask function, `true` (answered through the crawler), or `false` (no questions). */
  ask: AskFunction | boolean;
  questions: Required<QuestionOptions>;
};

/** Checks an integer >= `min` (or `false` when `allowFalse`). @throws ConfigError naming the field. */
function integerAtLeast(value: unknown, field: string, min: number, allowFalse: boolean): void {
  if (allowFalse && value === false) return;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
    throw new ConfigError(
      `${field} must be an integer >= ${min}${allowFalse ? ' or false' : ''}, got ${JSON.stringify(value)}`,
      { context: { field } },
    );
  }
}

function positiveInt(value: unknown, field: string, allowFalse: boolean): void {
  integerAtLeast(value, field, 1, allowFalse);
}

/**
 * Fills in defaults and checks ranges once.
 * @throws ConfigError naming the field.
 */
export function resolveCrawlerOptions(options: CrawlerOptions): ResolvedCrawlerOptions {
  if (!options.outDir)
    throw new ConfigError('outDir is required: the folder where the crawl is stored', {
      context: { field: 'outDir' },
    });
  if (typeof options.strategy?.next !== 'function')
    throw new ConfigError(
      'strategy must be a Strategy object; a name such as "best-first" is resolved by the library\'s Crawler or crawlStrategy',
      { context: { field: 'strategy' } },
    );
  const merged = { ...DEFAULT_CRAWLER_OPTIONS, ...stripUndefined(options) };
  positiveInt(merged.maxPages, 'maxPages', true);
  positiveInt(merged.maxConcurrency, 'maxConcurrency', false);
  positiveInt(merged.progressIntervalMs, 'progressIntervalMs', false);
  positiveInt(merged.checkpointEveryPages, 'checkpointEveryPages', true);
  positiveInt(merged.frontierSnapshotPages, 'frontierSnapshotPages', true);
  positiveInt(merged.maxFrontierUrls, 'maxFrontierUrls', true);
  integerAtLeast(merged.maxDepth, 'maxDepth', 0, true);
  integerAtLeast(merged.maxTextChars, 'maxTextChars', 0, true);
  integerAtLeast(merged.maxLinksPerPage, 'maxLinksPerPage', 0, true);
  if (merged.timeLimitMs !== false) positiveInt(merged.timeLimitMs, 'timeLimitMs', false);
  positiveInt(merged.maxRetryDelayMs, 'maxRetryDelayMs', false);
  integerAtLeast(merged.maxQuestions, 'maxQuestions', 0, true);
  const ask = options.ask ?? false;
  if (typeof ask !== 'function' && typeof ask !== 'boolean') {
    throw new ConfigError(`ask must be a function, true or false, got ${JSON.stringify(ask)}`, {
      context: { field: 'ask' },
    });
  }
  integerAtLeast(merged.maxRetries, 'maxRetries', 0, false);
  if (!(merged.relevanceThreshold > 0 && merged.relevanceThreshold <= 1)) {
    throw new ConfigError(
      `relevanceThreshold must be in (0, 1], got ${JSON.stringify(merged.relevanceThreshold)}`,
      {
        context: { field: 'relevanceThreshold' },
      },
    );
  }
  if (merged.siteMode !== 'domain' && merged.siteMode !== 'host') {
    throw new ConfigError(`siteMode must be "domain" or "host", got "${merged.siteMode}"`, {
      context: { field: 'siteMode' },
    });
  }
  if (!options.judge && !options.keywords?.length) {
    throw new ConfigError(
      'a relevance judge is needed: pass `judge` (a trained model) or `keywords` (topic words)',
      {
        context: { field: 'judge' },
      },
    );
  }
  const limit = merged.maxPagesPerDomain;
  return {
    ...merged,
    outDir: options.outDir,
    strategy: options.strategy,
    maxPagesPerDomain: typeof limit === 'object' ? limit : parseDomainLimit(limit),
    sitemaps: merged.sitemaps === false ? false : resolveSitemapOptions(merged.sitemaps),
    pdf: merged.pdf === false ? false : resolvePdfOptions(merged.pdf),
    render: merged.render === false ? false : resolveRenderOptions(merged.render),
    net: options.net ?? {},
    urlFilter: options.urlFilter ?? {},
    ask,
    questions: resolveQuestionOptions(options.questions),
  };
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** What the loop tells a runner when the crawl opens. */
export interface FetchRunnerContext {
  options: ResolvedCrawlerOptions;
  /** The strategy's needs, which the fetch side must honour. */
  needsLinkContext: boolean;
  /** The part of each link's context to keep (see {@link linkContextWindowOf}); absent: all. */
  linkContextWindow?: LinkContextWindow;
  needsAnchorScores: boolean;
  /** True if `url` is recorded in the crawl store (idempotent recording). */
  isRecorded(url: string): boolean;
}

/** A page fetched before this run that the loop records before it rebuilds the strategy. */
export interface ArrivedFetch {
  action: Action;
  record: PageRecord;
  outcome: Outcome;
}

/** Runs fetches for the crawl loop (see the file comment). */
export interface FetchRunner {
  /**
   * Called once by `Crawler.run` after the store is open, before the strategy is seeded or
   * rebuilt. Resolves to fetches that finished while no loop was listening (a killed
   * coordinator's), which the loop records before its replay.
   * @throws ConfigError if the fetch side cannot be reached or holds another crawl.
   */
  open(ctx: FetchRunnerContext): Promise<ArrivedFetch[]>;
  /** True if a request to `host` may be sent now (a hint; the fetch side enforces politeness). */
  isHostReady(host: string): boolean;
  /**
   * Fetches and processes one action, throwing what the local fetch would throw
   * (RetryLaterError, DeferUrlError, SkipUrlError with `context.status`).
   * Links in the outcome may include URLs the loop knows already; the loop filters them.
   */
  fetch(action: Action, signal: AbortSignal): Promise<ProcessedFetch>;
  /**
   * Reads the sitemaps of `origins` on the fetch side, where each host's politeness is kept
   * (`hooks.onResponse` is not called: the fetch side archives the responses). Resolves when all
   * are read or `hooks.signal` aborts. Without it, the loop reads them with its own client.
   */
  readSitemaps?(
    origins: readonly string[],
    options: Required<SitemapOptions>,
    hooks: SitemapHooks,
  ): Promise<void>;
  /**
   * Hands the judge swapped in by relevance feedback (its model folder) to the fetch side, which
   * judges pages; a page's record then carries the version that judged it (`judgeVersion`).
   * Without it, a swap needs no more than {@link Crawler.setJudge}.
   */
  publishJudge?(modelDir: string, version: number): Promise<void>;
  /** The attempt of `url` is durable in the store (or needs no record): acknowledge it. */
  recorded(url: string): void;
  close(): Promise<void>;
}

/**
 * The part of each link's context the parser keeps for `strategy`: all of it when the user asked
 * for link contexts (`withLinkContext`: they are stored for their own sake) or the strategy names
 * no window; else the strategy's `linkContextWindow`.
 */
export function linkContextWindowOf(
  options: Pick<ResolvedCrawlerOptions, 'withLinkContext'>,
  strategy: Pick<Strategy, 'linkContextWindow'>,
): LinkContextWindow | undefined {
  return options.withLinkContext ? undefined : strategy.linkContextWindow;
}
