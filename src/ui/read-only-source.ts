/**
 * The dashboard of a crawl folder read without changing it (`tres ui DIR`): a finished or killed
 * crawl from its SQLite store (CrawlReader), a crawl running in another process from its
 * pages.jsonl (that process holds the store locked). The charts are rebuilt by replaying the
 * recorded attempts through a {@link CrawlMonitor}; a running crawl's file is read again at most
 * every `reloadMs`. Nothing can be changed from here.
 */
import { ConfigError } from '../common/index.js';
import { type CrawlProgress, END_PROGRESS_META, type PageEvent } from '../crawl/index.js';
import type { ListedPage, PageLabel, PageQuery } from '../store/index.js';
import { CrawlReader, JsonlPages, listedPageOf, type ReadPage } from '../store/index.js';
import { CrawlMonitor } from './crawl-monitor.js';
import type { DashboardSource, DashboardStatus } from './dashboard-source.js';
import type { FeedbackStatus } from './feedback.js';

/** Chart samples a replay makes (about). */
const REPLAY_SAMPLES = 500;

interface Loaded {
  monitor: CrawlMonitor;
  pages: ListedPage[] | undefined;
  loadedAt: number;
}

/**
 * Opens `dir` read-only.
 * @param reloadMs how often a running crawl's pages.jsonl is read again. @default 10_000
 * @throws ConfigError if `dir` holds no crawl.
 */
export async function readOnlySource(
  dir: string,
  reloadMs = 10_000,
): Promise<DashboardSource & { close(): void }> {
  let reader: CrawlReader | undefined;
  try {
    reader = CrawlReader.open(dir);
  } catch (error) {
    if (!(error instanceof ConfigError && error.context?.isLocked)) throw error;
  }
  const meta = <T>(key: string): T | undefined => reader?.meta<T>(key);
  const config = meta<Record<string, unknown>>('config');
  const load = async (): Promise<Loaded> => {
    if (reader) {
      const { attempts } = reader.counts();
      // The figures the last run ended with, when no page was recorded since (see replay).
      const end = reader.meta<EndProgress>(END_PROGRESS_META);
      const ending = end?.steps === attempts ? end : undefined;
      return {
        monitor: replay(reader.pages(), attempts, true, ending),
        pages: undefined,
        loadedAt: Date.now(),
      };
    }
    const listed: ListedPage[] = [];
    const rows: ReadPage[] = [];
    for await (const p of new JsonlPages(dir).pages()) {
      rows.push(p);
      listed.push(listedPageOf(p));
    }
    return { monitor: replay(rows, rows.length, false), pages: listed, loadedAt: Date.now() };
  };
  let loaded = await load();
  let reloading: Promise<void> | undefined;
  const fresh = (): Loaded => {
    if (!reader && Date.now() - loaded.loadedAt > reloadMs && !reloading) {
      reloading = load()
        .then((l) => {
          loaded = l;
        })
        .finally(() => {
          reloading = undefined;
        });
    }
    return loaded;
  };
  const source = {
    get monitor() {
      return fresh().monitor;
    },
    status: (): DashboardStatus => ({
      isLive: false,
      state: 'read-only',
      outDir: dir,
      strategy: String(config?.strategy ?? (reader ? '?' : 'running elsewhere')),
      judge: String(config?.judge ?? '?'),
      judgeVersion: Number(meta('judgeVersion') ?? 0),
      maxPages: budgetOf(config),
      progress: fresh().monitor.progress ?? null,
    }),
    config: () => config ?? null,
    queryPages: (q: PageQuery) => (reader ? reader.queryPages(q) : filterPages(fresh().pages ?? [], q)),
    labels: (): PageLabel[] => reader?.labels() ?? [],
    questions: () => {
      const all = reader?.questions() ?? [];
      const config = reader?.meta<{ maxQuestions?: number | false }>('config');
      return {
        isAsking: false,
        asked: all.length,
        answered: all.filter((q) => q.status === 'answered').length,
        maxQuestions: config?.maxQuestions ?? false,
        open: [],
      };
    },
    feedbackStatus: (): FeedbackStatus | null => {
      const f = meta<{ version: number; model?: string; history: FeedbackStatus['history'] }>('feedback');
      if (!f || !reader) return null;
      const labels = reader.labels();
      return {
        labels: labels.length,
        relevantLabels: labels.filter((l) => l.isRelevant).length,
        newLabels: 0,
        retrainAfterLabels: false,
        judgeVersion: f.version,
        isTraining: false,
        model: f.model ?? 'keywords',
        history: f.history,
      };
    },
    close: () => reader?.close(),
  };
  return source;
}

/** What a crawl stores as it ends (crawl/crawler.ts, END_PROGRESS_META). */
interface EndProgress {
  steps: number;
  frontierSize: number;
  strategyStats: Record<string, number>;
}

/** Pauses between two recorded attempts longer than this are a stop and a resume, not crawling. */
const RESUME_GAP_MS = 30_000;
/** A chart sample spans at least this much crawling time, so pages/s is not one burst's. */
const MIN_SAMPLE_MS = 1000;

/**
 * Feeds stored attempts through a monitor as the live crawl's events would have come. The
 * elapsed time counts crawling only (gaps between a stop and a resume left out) and each sample
 * spans at least MIN_SAMPLE_MS, so the pages/s chart shows rates the crawl had. The frontier is
 * not stored; it is rebuilt as the URLs discovered (outlinks, seeds) and not fetched yet, which is
 * what the frontier holds before a strategy's own limits (domain limit, depth) drop some.
 */
function replay(
  pages: Iterable<ReadPage>,
  total: number,
  hasOutlinks: boolean,
  end?: EndProgress,
): CrawlMonitor {
  const monitor = new CrawlMonitor();
  const every = Math.max(1, Math.floor(total / REPLAY_SAMPLES));
  const relevantDomains = new Set<string>();
  const fetched = new Set<string>();
  const discovered = new Set<string>();
  let steps = 0;
  let okPages = 0;
  let relevant = 0;
  let failures = 0;
  let duplicates = 0;
  let lastAt: number | undefined;
  let elapsedMs = 0;
  // The first sample too waits for MIN_SAMPLE_MS of crawling (a few pages over milliseconds is no rate).
  let sampledAtMs = 0;
  let hasSample = false;
  const progress = (): CrawlProgress => ({
    steps,
    pages: okPages,
    relevant,
    relevantDomains: relevantDomains.size,
    failures,
    duplicates,
    harvestRate: steps === 0 ? 0 : relevant / steps,
    inFlight: 0,
    deferred: 0,
    frontierSize: hasOutlinks ? discovered.size : Number.NaN, // pages.jsonl keeps no outlinks: a gap
    elapsedMs,
    stepsThisRun: steps,
    pagesPerSec: elapsedMs > 0 ? (steps * 1000) / elapsedMs : 0,
    strategyStats: {},
  });
  for (const p of pages) {
    steps++;
    const gap = lastAt === undefined ? 0 : p.fetchedAt - lastAt;
    if (gap > 0 && gap < RESUME_GAP_MS) elapsedMs += gap;
    lastAt = p.fetchedAt;
    if (p.isPage) okPages++;
    else failures++;
    if (p.duplicateOf !== undefined) duplicates++;
    if (p.reward > 0) {
      relevant++;
      relevantDomains.add(p.domain);
    }
    for (const url of [p.url, p.finalUrl]) {
      fetched.add(url);
      discovered.delete(url);
    }
    for (const link of p.outlinks) if (!fetched.has(link.url)) discovered.add(link.url);
    const event: PageEvent = {
      url: p.url,
      finalUrl: p.finalUrl,
      status: p.status,
      isPage: p.isPage,
      reward: p.reward,
      probability: p.probability,
      domain: p.domain,
      depth: p.depth,
      step: steps,
      newLinks: p.outlinks.length,
    };
    if (p.title !== undefined) event.title = p.title;
    if (p.errorCode !== undefined) event.errorCode = p.errorCode;
    monitor.onPage(event);
    if (steps % every === 0 && elapsedMs - sampledAtMs >= MIN_SAMPLE_MS) {
      sampledAtMs = elapsedMs;
      hasSample = true;
      monitor.onProgress(progress());
    }
  }
  // The final figures always (the header shows them); a chart point only if they span enough time.
  // The crawl's own last figures, when stored, are the frontier and statistics it ended with: the
  // rebuilt frontier also counts URLs the strategy dropped (domain limit, depth).
  const last = (): CrawlProgress => {
    const p = progress();
    return end ? { ...p, frontierSize: end.frontierSize, strategyStats: end.strategyStats } : p;
  };
  if (!hasSample || sampledAtMs !== elapsedMs || end)
    monitor.onProgress(last(), !hasSample || elapsedMs - sampledAtMs >= MIN_SAMPLE_MS);
  return monitor;
}

/** The in-memory form of the store's page query (for pages.jsonl). */
function filterPages(all: ListedPage[], q: PageQuery): { total: number; pages: ListedPage[] } {
  const search = q.search?.toLowerCase();
  const hits = all.filter(
    (p) =>
      (q.id === undefined || p.id === q.id) &&
      (q.relevance !== 'relevant' || p.reward > 0) &&
      (q.relevance !== 'irrelevant' || (p.reward === 0 && p.isPage)) &&
      (!q.domain || p.domain === q.domain) &&
      (q.status === undefined || p.status === q.status) &&
      (!search || p.url.toLowerCase().includes(search) || p.title.toLowerCase().includes(search)),
  );
  hits.reverse();
  const offset = Math.max(0, q.offset ?? 0);
  const limit = Math.min(500, Math.max(1, q.limit ?? 50));
  return { total: hits.length, pages: hits.slice(offset, offset + limit) };
}

/** The page budget in a stored config: a number, false for none, null when not stored. */
export function budgetOf(config: Record<string, unknown> | undefined | null): number | false | null {
  const max = config?.maxPages;
  return typeof max === 'number' || max === false ? max : null;
}
