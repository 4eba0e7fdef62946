/**
 * What the dashboard server reads and steers: a live crawl in this process (its monitor, store,
 * feedback and controls), or a crawl folder read-only (`tres ui DIR`: a finished crawl from its
 * SQLite store, a running one from its pages.jsonl).
 */
import type { CrawlProgress, Question } from '../crawl/index.js';
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

/** The crawl's questions to its user, as the dashboard shows them. */
export interface QuestionsView {
  /** True when the crawl asks questions (a live crawl with asking on). */
  isAsking: boolean;
  /** Questions asked so far, over all runs of the crawl. */
  asked: number;
  /** Of those, answered relevant or not. */
  answered: number;
  /** The crawl's budget of questions; false: none. */
  maxQuestions: number | false;
  /** Open questions, oldest first. */
  open: Question[];
}

/** Controls of a live crawl. */
export interface CrawlControls {
  pause(): void;
  resume(): void;
  stop(): void;
  /** @returns the URLs that were new seeds. */
  addSeeds(urls: string[]): string[];
  /** Answers open question `id` (undefined skips it); false when it is not open. */
  answerQuestion(id: number, isRelevant: boolean | undefined): boolean;
}

/** Everything the server needs. */
export interface DashboardSource {
  readonly monitor: CrawlMonitor;
  status(): DashboardStatus;
  config(): unknown;
  queryPages(q: PageQuery): { total: number; pages: ListedPage[] };
  labels(): PageLabel[];
  questions(): QuestionsView;
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
    readonly options: { readonly ask: unknown; readonly maxQuestions: number | false };
    openQuestions(): Question[];
    answerQuestion(id: number, isRelevant: boolean | undefined): boolean;
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
    questions: () => {
      const { ask, maxQuestions } = live.crawler.options;
      const all = live.store.questions();
      return {
        isAsking: ask !== false && maxQuestions !== false && maxQuestions > 0,
        asked: all.length,
        answered: all.filter((q) => q.status === 'answered').length,
        maxQuestions: ask === false ? false : maxQuestions,
        open: live.crawler.openQuestions(),
      };
    },
    controls: {
      pause: () => live.crawler.pause(),
      resume: () => live.crawler.resume(),
      stop: () => {
        isStopping = true;
        live.crawler.stop();
      },
      addSeeds: (urls) => live.crawler.addSeeds(urls),
      answerQuestion: (id, isRelevant) => live.crawler.answerQuestion(id, isRelevant),
    },
    feedbackStatus: () => live.feedback?.status() ?? null,
  };
  if (live.feedback) Object.assign(source, { feedback: live.feedback });
  return source;
}
