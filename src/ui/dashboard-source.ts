/**
 * What the dashboard server reads and steers: a live crawl in this process (its monitor, store,
 * feedback and controls), or a crawl folder read-only (`tres ui DIR`: a finished crawl from its
 * SQLite store, a running one from its pages.jsonl).
 */
import type { CrawlProgress } from '../crawl/index.js';
import type { CrawlStore, ListedPage, PageLabel, PageQuery } from '../store/index.js';
import type { CrawlMonitor } from './crawl-monitor.js';
import type { FeedbackStatus, RelevanceFeedback } from './feedback.js';

/** State of the crawl as the dashboard shows it. */
export interface DashboardStatus {
  /** True for a crawl running in this process (controls and labels work). */
  isLive: boolean;
  state: 'running' | 'paused' | 'stopping' | 'finished' | 'interrupted' | 'failed' | 'read-only';
  outDir: string;
  strategy: string;
  judge: string;
  judgeVersion: number;
  /** The page budget (attempts), false for none, null when unknown: the dashboard's ETA. */
  maxPages: number | false | null;
  progress: CrawlProgress | null;
}

/** Controls of a live crawl. */
export interface CrawlControls {
  pause(): void;
  resume(): void;
  stop(): void;
  /** @returns the URLs that were new seeds. */
  addSeeds(urls: string[]): string[];
}

/** Everything the server needs. */
export interface DashboardSource {
  readonly monitor: CrawlMonitor;
  status(): DashboardStatus;
  config(): unknown;
  queryPages(q: PageQuery): { total: number; pages: ListedPage[] };
  labels(): PageLabel[];
  /** Present for a live crawl. */
  readonly controls?: CrawlControls;
  /** Present for a live crawl whose store keeps page text (WARC). */
  readonly feedback?: RelevanceFeedback;
  /** Feedback state of a read-only crawl (from its meta), if any. */
  feedbackStatus(): FeedbackStatus | null;
}

/** A crawl running in this process. */
export interface LiveCrawl {
  crawler: {
    pause(): void;
    resume(): void;
    stop(): void;
    addSeeds(urls: readonly string[]): string[];
    readonly isPaused: boolean;
    readonly judgeVersion: number;
    readonly currentJudge: { name: string };
    progress(): CrawlProgress;
  };
  store: CrawlStore;
  monitor: CrawlMonitor;
  feedback?: RelevanceFeedback;
  strategy: string;
  outDir: string;
  /** The crawl's page budget, false for none. */
  maxPages?: number | false;
}

/** The source of a crawl running in this process. */
export function liveSource(live: LiveCrawl): DashboardSource {
  let ended: DashboardStatus['state'] | undefined;
  let isStopping = false;
  const source: DashboardSource = {
    monitor: live.monitor,
    status: () => ({
      isLive: ended === undefined,
      state: ended ?? (isStopping ? 'stopping' : live.crawler.isPaused ? 'paused' : 'running'),
      outDir: live.outDir,
      strategy: live.strategy,
      judge: live.crawler.currentJudge.name,
      judgeVersion: live.crawler.judgeVersion,
      maxPages: live.maxPages ?? null,
      progress: live.monitor.progress ?? null,
    }),
    config: () => live.store.getMeta('config') ?? null,
    queryPages: (q) => live.store.queryPages(q),
    labels: () => live.store.labels(),
    controls: {
      pause: () => live.crawler.pause(),
      resume: () => live.crawler.resume(),
      stop: () => {
        isStopping = true;
        live.crawler.stop();
      },
      addSeeds: (urls) => live.crawler.addSeeds(urls),
    },
    feedbackStatus: () => live.feedback?.status() ?? null,
  };
  if (live.feedback) Object.assign(source, { feedback: live.feedback });
  return source;
}
