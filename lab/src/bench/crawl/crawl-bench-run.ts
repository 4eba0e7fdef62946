/**
 * One benchmark run: one strategy, one domain limit, one seed URL, T pages. Every fetched page is
 * judged twice: by the topic's ground truth (`labelOf(finalUrl)`, the measure of record) and by
 * the crawler's own classifier (its reward), as the paper reports both (section 3.5). Numbers
 * are recorded every T / curvePoints pages for the curves.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PageEvent, PageJudge, Strategy, WebClientOptions } from 'tres-crawler';
import { Crawler, CrawlStore, createRng, createStrategy, KeywordJudge } from 'tres-crawler';
import type { UrlFilterOptions } from 'tres-crawler/internals';
import {
  KeywordSet,
  loadWordVectors,
  strategyNeedsWordVectors,
  type WordVectors,
} from 'tres-crawler/internals';
import type { BenchTopic } from './crawl-bench-topic.js';
import { ORACLE_STRATEGY, OracleStrategy } from './oracle-strategy.js';
import { WebScopeStrategy } from './web-scope.js';

/** Pages between two Wilcoxon tests, as in RLwCS (report-wilcoxon.ts tests at these steps). */
export const WILCOXON_EVERY = 200;

/** Numbers of a run at one step (a point of its curves). */
export interface CurvePoint {
  /** Fetch attempts so far (the step t). */
  step: number;
  /** Ground-truth relevant pages / attempts. */
  harvestRate: number;
  /** Distinct domains with at least one ground-truth relevant page. */
  relevantDomains: number;
  /** Classifier-judged relevant pages (reward 1) / attempts. */
  classifierHarvestRate: number;
  /** Every number the strategy reports (`frontier/size`, `frontier/leaves`, ...). */
  stats: Record<string, number>;
}

/** What one run measured. Everything but `timing` repeats exactly for the same seed at K = 1. */
export interface RunResult {
  topic: string;
  strategy: string;
  /** Domain limit as written (`none`, `10`, `5_2`). */
  domainLimit: string;
  /** Run index i, also the crawler's RNG seed. */
  run: number;
  /** The one seed URL: `seeds[i mod seeds.length]`. */
  seedUrl: string;
  /** Page budget T. */
  maxPages: number;
  stopReason: string;
  /** Fetch attempts made (T unless the frontier ran dry). */
  steps: number;
  /** Attempts that gave an HTML page. */
  pages: number;
  failures: number;
  /**
   * Pages that repeat a page fetched before: flagged by the crawler (same words or a near copy)
   * or the same page by its address ({@link pageIdentity}: scheme and `index.html` ignored). They
   * count as attempts, never as relevant pages.
   */
  duplicates?: number;
  /** Ground-truth relevant pages, each page counted once. */
  relevant: number;
  /** Ground truth: relevant pages / attempts (`crawl/harvest_rate`). */
  harvestRate: number;
  /** Ground truth: distinct domains with a relevant page (`crawl/relevant_domains`). */
  relevantDomains: number;
  /** Pages the crawler's classifier judged relevant. */
  classifierRelevant: number;
  classifierHarvestRate: number;
  classifierRelevantDomains: number;
  /** Pages relevant by both judgements (precision = both / classifierRelevant, recall = both / relevant). */
  bothRelevant: number;
  /** `frontier/size` and the other strategy numbers at the end. */
  finalStats: Record<string, number>;
  /** True if links to hosts the web does not serve were dropped (closed world). */
  isClosedWorld?: boolean;
  /** Distinct links discovered, and those pointing at hosts the web does not serve. */
  linksDiscovered?: number;
  linksOutOfWeb?: number;
  curve: CurvePoint[];
  /** Questions the simulated user answered, and how many of them "relevant" (`--judge user:...,answers=M`). */
  answers?: {
    answered: number;
    relevant: number;
    /** Steps at which a retrained judge was swapped in. */
    swapsAt?: number[];
    /** Each retraining by relevance feedback: answers, what decided, macro F1 before and after, taken or not. */
    retrains?: { labels: number; checkedOn: string; before: number; after: number; isAccepted: boolean }[];
  };
  /** `resumeMs`: from the resumed Crawler's start to its first page (restore, replay, one fetch). */
  timing: { elapsedMs: number; pagesPerSec: number; resumeMs?: number };
}

/** Inputs of {@link runOnce}. */
export interface RunSpec {
  topic: BenchTopic;
  strategy: string;
  domainLimit: string;
  run: number;
  maxPages: number;
  concurrency: number;
  curvePoints: number;
  relevanceThreshold: number;
  /** Network options of the topic's web. */
  net: WebClientOptions;
  /** URL filter of the topic's web. @default the crawler's */
  urlFilter?: UrlFilterOptions;
  /**
   * The crawler's classifier; undefined: the keyword judge with the topic's keywords; a function:
   * a judge made for this run (one that learns during the crawl, from examples drawn with the
   * run's seed).
   */
  judge: PageJudge | undefined | ((run: number) => Promise<PageJudge>);
  /**
   * Questions the crawl may ask, answered at once from the ground truth, and learnt by a judge
   * that has `learn(page, isRelevant)` (the simulated user of `--judge user:...,answers=M`).
   * @default 0 (no questions)
   */
  answers?: number;
  /**
   * The answers retrain the judge by relevance feedback (the crawler's `retrain`), which reads
   * the pages back from the WARC file, so this run writes one. @default false
   */
  isRetrainedOnAnswers?: boolean;
  /** Hosts the web serves (for the crawl scope and its counts). */
  servedHosts?: ReadonlySet<string>;
  /** Drop links to hosts the web does not serve. @default true when servedHosts is given */
  isClosedWorld?: boolean;
  /** True if the web has a page at the URL; the closed world drops links to other URLs too. @default any */
  hasPage?: (url: string) => boolean;
  /** Copy the run's crawl store here before deleting it (to inspect what it fetched). @default none */
  keepStoreIn?: string;
  /**
   * Stop the crawl after this many attempts and resume it (a new Crawler and strategy on the same
   * store, as `tres crawl --resume` does) to `maxPages`: the resume benchmark. @default none
   */
  stopAt?: number;
  /** The crawler's `checkpointEveryPages` (false: a resume learns again). @default the crawler's */
  checkpointEveryPages?: number | false;
}

/**
 * The strategy of a run, made as the crawler would make it (same RNG stream, same keywords), or
 * the oracle, wrapped in the run's crawl scope.
 */
function makeStrategy(
  spec: RunSpec,
  wordVectors: WordVectors | undefined,
  judge: PageJudge | undefined,
): Strategy {
  const inner =
    spec.strategy === ORACLE_STRATEGY
      ? new OracleStrategy(spec.topic.isRelevantPage ?? spec.topic.labelOf)
      : createStrategy(spec.strategy, {
          rng: createRng(spec.run).fork('strategy'),
          // The topic's keywords and keyphrases whatever judges the pages: they are TRES's
          // keyword features (and Han's, Lim's), as `tres crawl --model M --keywords K` gives
          // them.
          keywords: new KeywordSet(spec.topic.keywords, spec.topic.keyphrases ?? []),
          ...(wordVectors ? { wordVectors } : {}),
          isKeywordJudged: judge === undefined || judge instanceof KeywordJudge,
        });
  if (!spec.servedHosts) return inner;
  return new WebScopeStrategy(inner, spec.servedHosts, spec.isClosedWorld ?? true, spec.hasPage);
}

/**
 * Crawler options every benchmark run uses (written into results.json). No retries: a local
 * server has no transient failures, and a retry waits on the wall clock (robots.txt unavailable:
 * 10 minutes), which would stall the run and break exact repeats. No WARC: nothing reads it.
 */
export const BENCH_CRAWLER_SETTINGS = {
  maxRetries: 0,
  shouldWriteWarc: false,
  // A web site is a host without "www.", as the TRES authors' code counts domains (the domain
  // limit b and relevant domains); registrable domains would make gcc.gnu.org and www.gnu.org
  // (or docs.python.org and www.python.org) one site.
  siteMode: 'host',
} as const;

/** Which seed URL run `run` starts from (the paper: one seed per run). */
export function seedOfRun(seeds: readonly string[], run: number): string {
  return seeds[run % seeds.length]!;
}

/**
 * Runs one crawl in a temporary store (removed afterwards) and measures it.
 * @throws whatever the crawl throws (a StopCrawlError, a ConfigError).
 */
export async function runOnce(spec: RunSpec): Promise<RunResult> {
  const seedUrl = seedOfRun(spec.topic.seeds, spec.run);
  const outDir = mkdtempSync(join(tmpdir(), 'tres-bench-crawl-'));
  // Word vectors only for strategies that use them (Lim's), loaded once per process.
  const wordVectors = strategyNeedsWordVectors(spec.strategy) ? await loadWordVectors() : undefined;
  const judge = typeof spec.judge === 'function' ? await spec.judge(spec.run) : spec.judge;
  // The crawler hands each answer to the judge's learn, as a crawl of `tres crawl` does.
  const asks =
    (spec.answers ?? 0) > 0 && (typeof judge?.learn === 'function' || spec.isRetrainedOnAnswers === true);
  const makeCrawler = (maxPages: number, isResume: boolean) =>
    new Crawler({
      outDir,
      isResume,
      strategy: makeStrategy(spec, wordVectors, judge),
      seed: spec.run,
      maxPages,
      maxPagesPerDomain: spec.domainLimit,
      maxConcurrency: spec.concurrency,
      relevanceThreshold: spec.relevanceThreshold,
      ...(judge ? { judge } : { keywords: spec.topic.keywords }),
      ...(asks
        ? {
            ask: async (q: { url: string }) => spec.topic.labelOf(q.url),
            maxQuestions: spec.answers,
          }
        : {}),
      ...BENCH_CRAWLER_SETTINGS,
      ...(asks && spec.isRetrainedOnAnswers ? { shouldWriteWarc: true } : {}),
      ...(spec.checkpointEveryPages === undefined ? {} : { checkpointEveryPages: spec.checkpointEveryPages }),
      progressIntervalMs: 60_000,
      net: spec.net,
      ...(spec.urlFilter ? { urlFilter: spec.urlFilter } : {}),
    });
  const isStopped = spec.stopAt !== undefined && spec.stopAt < spec.maxPages;
  let crawler = makeCrawler(isStopped ? (spec.stopAt as number) : spec.maxPages, false);
  const every = Math.max(1, Math.floor(spec.maxPages / spec.curvePoints));
  const gtDomains = new Set<string>();
  const pagesSeen = new Set<string>();
  let duplicates = 0;
  const clfDomains = new Set<string>();
  let relevant = 0;
  let classifierRelevant = 0;
  let bothRelevant = 0;
  let lastStep = 0;
  const curve: CurvePoint[] = [];
  const addPoint = (step: number) => {
    const stats = crawler.progress().strategyStats;
    curve.push({
      step,
      harvestRate: relevant / step,
      relevantDomains: gtDomains.size,
      classifierHarvestRate: classifierRelevant / step,
      stats: { ...stats },
    });
  };
  const onPage = (e: PageEvent) => {
    // Each page counts once however it was reached (http or https, dir/ or dir/index.html), by
    // its address here, independently of the crawler's own duplicate detection.
    const identity = pageIdentity(e.finalUrl);
    const isDuplicate = e.isPage && (e.duplicateOf !== undefined || pagesSeen.has(identity));
    if (e.isPage) pagesSeen.add(identity);
    if (isDuplicate) duplicates++;
    const isRelevant = e.isPage && !isDuplicate && spec.topic.labelOf(e.finalUrl);
    const isJudgedRelevant = e.isPage && !isDuplicate && e.reward > 0;
    if (isRelevant) {
      relevant++;
      gtDomains.add(e.domain);
    }
    if (isJudgedRelevant) {
      classifierRelevant++;
      clfDomains.add(e.domain);
    }
    if (isRelevant && isJudgedRelevant) bothRelevant++;
    lastStep = e.step;
    // Points every T / curvePoints pages, and every 200 pages for the paired tests of the report.
    if (e.step % every === 0 || e.step % WILCOXON_EVERY === 0) {
      const step = e.step;
      const snapshot = { relevant, classifierRelevant, domains: gtDomains.size };
      // 'page' is emitted just before the strategy observes the page; read its stats once the
      // observation (same synchronous turn) is done, so the point shows the frontier after step t.
      queueMicrotask(() => {
        const stats = crawler.progress().strategyStats;
        curve.push({
          step,
          harvestRate: snapshot.relevant / step,
          relevantDomains: snapshot.domains,
          classifierHarvestRate: snapshot.classifierRelevant / step,
          stats: { ...stats },
        });
      });
    }
  };
  crawler.on('page', onPage);
  const answers: NonNullable<RunResult['answers']> = { answered: 0, relevant: 0 };
  let judgeVersion = 0;
  if (asks) {
    crawler.on('answer', (e) => {
      answers.answered++;
      if (e.isRelevant) answers.relevant++;
    });
    crawler.on('page', (e) => {
      if (crawler.judgeVersion === judgeVersion) return;
      judgeVersion = crawler.judgeVersion;
      answers.swapsAt = [...(answers.swapsAt ?? []), e.step];
    });
  }
  let resumeMs: number | undefined;
  try {
    let summary = await crawler.run([seedUrl]);
    if (isStopped && summary.steps >= (spec.stopAt as number)) {
      // As `tres crawl --resume`: a new process's Crawler and strategy on the same store.
      crawler = makeCrawler(spec.maxPages, true);
      const startedMs = performance.now();
      crawler.on('page', (e) => {
        resumeMs ??= performance.now() - startedMs;
        onPage(e);
      });
      summary = await crawler.run();
    }
    if (asks && spec.isRetrainedOnAnswers) {
      // The crawl has closed its store: its meta `feedback` keeps every retraining's report.
      const store = CrawlStore.open(outDir, { mode: 'resume' });
      const meta = store.getMeta<{ history: Record<string, unknown>[] }>('feedback');
      store.close();
      const history = (meta?.history ?? []) as {
        error?: string;
        userLabels: number;
        checkedOn: string;
        before: { macroF1: number };
        after: { macroF1: number };
        isAccepted: boolean;
      }[];
      answers.retrains = history.flatMap((h) =>
        h.error !== undefined
          ? []
          : [
              {
                labels: h.userLabels,
                checkedOn: h.checkedOn,
                before: round2(h.before.macroF1),
                after: round2(h.after.macroF1),
                isAccepted: h.isAccepted,
              },
            ],
      );
    }
    // A run that stopped early (frontier empty) still ends its curve at its last step.
    if (lastStep > 0 && curve[curve.length - 1]?.step !== lastStep) addPoint(lastStep);
    const steps = summary.steps;
    return {
      topic: spec.topic.name,
      strategy: spec.strategy,
      domainLimit: spec.domainLimit,
      run: spec.run,
      seedUrl,
      maxPages: spec.maxPages,
      stopReason: summary.stopReason,
      steps,
      pages: summary.pages,
      failures: summary.failures,
      duplicates,
      relevant,
      harvestRate: steps === 0 ? 0 : relevant / steps,
      relevantDomains: gtDomains.size,
      classifierRelevant,
      classifierHarvestRate: steps === 0 ? 0 : classifierRelevant / steps,
      classifierRelevantDomains: clfDomains.size,
      bothRelevant,
      finalStats: { ...summary.strategyStats },
      ...(spec.servedHosts
        ? {
            isClosedWorld: spec.isClosedWorld ?? true,
            linksDiscovered: summary.strategyStats['scope/links_discovered'] ?? 0,
            linksOutOfWeb: summary.strategyStats['scope/links_out_of_web'] ?? 0,
          }
        : {}),
      curve,
      ...(asks ? { answers } : {}),
      timing: {
        elapsedMs: Math.round(summary.elapsedMs),
        pagesPerSec: round2(summary.pagesPerSec),
        ...(resumeMs === undefined ? {} : { resumeMs: Math.round(resumeMs) }),
      },
    };
  } finally {
    if (spec.keepStoreIn !== undefined) cpSync(outDir, spec.keepStoreIn, { recursive: true });
    rmSync(outDir, { recursive: true, force: true });
  }
}

const round2 = (v: number) => Math.round(v * 100) / 100;

/**
 * The identity of a page for counting: host, path and query, with the scheme dropped and a final
 * `index.html` / `index.htm` read as its folder, so the copies a web serves under several
 * spellings count as one page.
 */
export function pageIdentity(url: string): string {
  try {
    const u = new URL(url);
    const path = u.pathname.replace(/\/index\.html?$/i, '/');
    return `${u.host.toLowerCase()}${path}${u.search}`;
  } catch {
    return url;
  }
}
