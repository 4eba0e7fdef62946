/**
 * Where the crawl loop's fetches run. By default in this process (the loop's own WebClient and
 * processFetch); a {@link FetchRunner} moves them elsewhere (the cluster coordinator sends them to
 * worker processes over Redis Streams, src/cluster/) while the loop, the strategy and the store
 * stay as they are.
 */
import type { PageRecord } from '../store/index.js';
import type { Action, Outcome } from '../types/index.js';
import type { ResolvedCrawlerOptions } from './crawl-options.js';
import type { ProcessedFetch } from './process-fetch.js';
import type { SitemapHooks, SitemapOptions } from './sitemap-source.js';

/** What the loop tells a runner when the crawl opens. */
export interface FetchRunnerContext {
  options: ResolvedCrawlerOptions;
  /** The strategy's needs, which the fetch side must honour. */
  needsLinkContext: boolean;
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
