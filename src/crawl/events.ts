/** Events of a crawl: one source for the store, progress line, dashboard and benchmarks. */

import type { AnswerEvent, Question } from './question-desk.js';
import type { SitemapEvent } from './sitemap-source.js';

export type { AnswerEvent, Question, SitemapEvent };

/** Why a crawl ended. */
export type StopReason = 'max-pages' | 'time-limit' | 'frontier-empty' | 'interrupted';

/** One recorded attempt (page or failure). */
export interface PageEvent {
  url: string;
  finalUrl: string;
  status: number;
  isPage: boolean;
  reward: number;
  probability: number;
  domain: string;
  depth: number;
  /** Step t after this page (attempts recorded so far). */
  step: number;
  /** New outlinks handed to the strategy. */
  newLinks: number;
  title?: string;
  errorCode?: string;
  /** URL of the page this one copies (it then has reward 0 and never counts as relevant). */
  duplicateOf?: string;
}

export interface FailureEvent {
  url: string;
  code: string;
  message: string;
}

export interface RetryEvent {
  url: string;
  code: string;
  /** Attempts made so far (a deferral adds none). */
  attempt: number;
  delayMs: number;
  /** True when the URL was deferred without a request (its origin's robots.txt is unreachable). */
  isDeferred?: boolean;
}

/** Running numbers of a crawl. Metric names in `strategyStats` are the stable ones. */
export interface CrawlProgress {
  steps: number;
  pages: number;
  relevant: number;
  relevantDomains: number;
  failures: number;
  /** Pages that copy a page fetched before (attempts, never relevant). */
  duplicates: number;
  /** Relevant pages / attempts (`crawl/harvest_rate`). */
  harvestRate: number;
  inFlight: number;
  /** URLs set aside until their origin's robots.txt can be fetched (no budget held). */
  deferred: number;
  /** Hosts with URLs waiting for a retry after a transient failure (backoff). */
  retryHosts?: number;
  /** Hosts whose robots.txt is being fetched or is unreachable for now: their URLs wait. */
  robotsHosts?: number;
  /** URLs waiting to be fetched: the strategy's frontier, and those waiting for a retry or robots.txt. */
  frontierSize: number;
  /** Milliseconds since this run started (a resume starts again at 0). */
  elapsedMs: number;
  /** Attempts recorded by this run (`steps` less those of the runs before a resume). */
  stepsThisRun: number;
  /** Attempts of this run per second of this run (`crawl/pages_per_sec`). */
  pagesPerSec: number;
  strategyStats: Record<string, number>;
}

export interface CrawlSummary extends CrawlProgress {
  stopReason: StopReason;
  outDir: string;
  strategy: string;
}

/** Event map of {@link Crawler}. */
/**
 * What the strategy's learning did at a checkpoint: `saved` (stored in crawl.sqlite), `restored`
 * (a resume goes on from it), `skipped` (a resume found one made by another strategy or config
 * and learns again from the start).
 */
export interface CheckpointEvent {
  kind: 'saved' | 'restored' | 'skipped';
  /**
   * What was saved, restored or skipped: what the strategy learned (`Strategy.checkpoint`), or
   * a frontier snapshot (everything it holds; a resume that restores one replays only the pages
   * after it, one skipped means a replay of every page). @default 'learned'
   */
  part?: 'learned' | 'frontier';
  strategy: string;
  /** Id of the last page the checkpoint reflects. */
  afterPage: number;
  /** Stored (compressed) size. */
  bytes: number;
  /** Time to take and store it (`saved`) or to load and restore it (`restored`). */
  elapsedMs: number;
  /** Why a checkpoint was skipped. */
  reason?: string;
}

export interface CrawlerEvents {
  page: [PageEvent];
  /** A checkpoint of what the strategy learned was saved, restored or skipped. */
  checkpoint: [CheckpointEvent];
  /** A sitemap read or failed (`--sitemaps`). */
  sitemap: [SitemapEvent];
  failure: [FailureEvent];
  retry: [RetryEvent];
  progress: [CrawlProgress];
  /** The crawl asked its user about a page (the `ask` option). */
  question: [Question];
  /** A question was answered relevant or not (the answer is stored as a label). */
  answer: [AnswerEvent];
  /** A condition the operator should know of, in one line (the system out of file descriptors). */
  warning: [string];
  done: [CrawlSummary];
}
