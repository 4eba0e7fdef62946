/**
 * The crawl loop. K fetches in flight; whenever a slot frees, the strategy is asked for the next
 * URL among hosts that may be fetched now; `observe` is called as each page completes. With
 * K = 1 and no delays this is exactly the sequential MDP of the TRES papers.
 *
 * Every attempt is recorded in the crawl store before it counts. The loop alone decides what
 * happens after an error: retry later (RetryLaterError, up to maxRetries), skip (anything else,
 * recorded with its code), or stop (StopCrawlError, store failures).
 */
import { EventEmitter } from 'node:events';
import {
  type Clock,
  ConfigError,
  createRng,
  DeferUrlError,
  errorCode,
  RetryLaterError,
  type Rng,
  StopCrawlError,
  systemClock,
} from '../common/index.js';
import { DEFAULT_FETCHER_OPTIONS, type PageFetch, retryDelayMs, WebClient } from '../net/index.js';
import { PdfExtractor } from '../pdf/index.js';
import { Renderer } from '../render/index.js';
import {
  CrawlStore,
  type PreparedWarc,
  StorageFaultError,
  WARCINFO_CONFIG_FIELD,
  type WarcPayload,
} from '../store/index.js';
import type { Strategy } from '../strategies/index.js';
import type { Action, DiscoveredLink, SelectionContext } from '../types/index.js';
import { DEFAULT_EXCLUDED_EXTENSIONS, type UrlFilterOptions } from '../url/index.js';
import {
  type CrawlerOptions,
  type FetchRunner,
  linkContextWindowOf,
  type ResolvedCrawlerOptions,
  resolveCrawlerOptions,
} from './crawl-options.js';
import { CrawlState } from './crawl-state.js';
import { domainLimitAt } from './domain-limit.js';
import type { CrawlerEvents, CrawlProgress, CrawlSummary, StopReason } from './events.js';
import type { PageJudge } from './judge.js';
import { KeywordJudge } from './keyword-judge.js';
import { LinkProcessor } from './link-processor.js';
import { PDF_MEDIA_TYPE, type ProcessedFetch, processFetch, toWarcPayload } from './process-fetch.js';
import { type Question, QuestionDesk } from './question-desk.js';
import { readSitemaps, type SitemapHooks } from './sitemap-source.js';

/**
 * Bodies from this size are gzipped for the WARC file in the thread pool (see `Crawler.warcOf`):
 * below it zlib's callback API costs the main thread about what the gzip would.
 */
const THREAD_POOL_WARC_BYTES = 32 * 1024;

/**
 * Meta key of the figures a run ended with (`steps`, `frontierSize`, `strategyStats`), written
 * as the store closes, unless the crawl failed.
 */
export const END_PROGRESS_META = 'endProgress';

interface PendingRetry {
  action: Action;
  attempt: number;
  notBeforeMs: number;
  /**
   * Deferred, not retried: the URL was never requested (DeferUrlError, e.g. its origin's
   * robots.txt is unreachable), so it holds no page budget and counts no attempt.
   */
  isDeferred: boolean;
}

/** A focused crawler: construct with one options object, `await run(seeds)`, listen to events. */
export class Crawler extends EventEmitter<CrawlerEvents> {
  readonly options: ResolvedCrawlerOptions;
  private readonly clock: Clock;
  private readonly rng: Rng;
  private state!: CrawlState;
  private readonly retries: PendingRetry[] = [];
  private strategy!: Strategy;
  private judge!: PageJudge;
  private store!: CrawlStore;
  private client!: WebClient;
  private links!: LinkProcessor;
  private pdf: PdfExtractor | undefined;
  private renderer: Renderer | undefined;
  /** Fetches run elsewhere (a cluster); undefined: in this process. */
  private runner: FetchRunner | undefined;
  private readonly abort = new AbortController();
  private stopReason: StopReason | undefined;
  private fatal: unknown;
  private wake: (() => void) | undefined;
  /** The last sleepUntilWoken ended by its timer (a macrotask: the event loop had its turn). */
  private wokeByTimer = false;
  private startedMs = 0;
  /** Attempts recorded before this run (a resume): speed counts this run's attempts only. */
  private stepsBeforeRun = 0;
  private lastProgressMs = 0;
  private isPausedFlag = false;
  private judgeVersionNow = 0;
  /** Reading sitemaps (`sitemaps` option) while the crawl runs; undefined when done or off. */
  private sitemapTask: Promise<void> | undefined;
  private readonly sitemapAbort = new AbortController();
  /** Id of the last page the latest checkpoint (saved or restored) reflects. */
  private checkpointedPage = 0;
  /** The crawl's questions to its user; undefined when it asks none (`ask`, `maxQuestions`). */
  private questionDesk: QuestionDesk | undefined;

  constructor(options: CrawlerOptions) {
    super();
    this.options = resolveCrawlerOptions(options);
    this.clock = this.options.clock ?? systemClock;
    this.rng = createRng(this.options.seed);
  }

  /**
   * Crawls from `seeds` (when resuming: the stored seeds, plus any of `seeds` not stored yet) until a budget is
   * spent, the frontier is empty, or `stop()` is called. Resolves to the summary.
   * @throws ConfigError for bad seeds or a bad output folder; StopCrawlError if the store fails.
   */
  async run(seeds: string[] = []): Promise<CrawlSummary> {
    const o = this.options;
    this.links = new LinkProcessor({
      siteMode: o.siteMode,
      urlFilter: this.urlFilterOptions(),
      maxDepth: o.maxDepth,
    });
    this.strategy = o.strategy;
    // What a strategy needs besides its options it loads itself (Lim's word vectors). Awaited
    // only when there is something to load: run() must reach CrawlStore.open without yielding,
    // as callers (the live dashboard) look for the open store right after calling it.
    if (this.strategy.prepare) await this.strategy.prepare();
    this.judge = o.judge ?? new KeywordJudge({ keywords: o.keywords ?? [] });
    // Seeds are checked before the folder is touched: bad seeds leave nothing behind.
    const seedLinks = this.links.seeds(seeds);
    if (seedLinks.length === 0 && !o.isResume) {
      throw new ConfigError('a new crawl needs at least one seed URL', { context: { field: 'seeds' } });
    }
    // A crawl whose every seed is out of scope would record failures and fetch nothing: say why.
    const refused = seedLinks.map((l) => [l.url, this.links.whyRejected(l.url)] as const);
    if (!o.isResume && refused.every(([, why]) => why !== undefined)) {
      const reasons = refused.slice(0, 3).map(([url, why]) => `${url}: ${why}`);
      throw new ConfigError(
        `no seed is in the crawl's scope (${reasons.join('; ')}${refused.length > 3 ? '; ...' : ''}); change the seeds or the URL filter`,
        { context: { field: 'seeds' } },
      );
    }
    this.store = CrawlStore.open(o.outDir, {
      mode: o.isResume ? 'resume' : 'create',
      clock: this.clock,
      warc: o.shouldWriteWarc,
      nearDuplicateBits: o.nearDuplicateBits,
      seeds: seedLinks,
      meta: { config: this.describeConfig() },
      // A copy of the config in the WARC's warcinfo record: `tres repair` finds it there when
      // crawl.sqlite lost its meta table.
      warcInfo: { [WARCINFO_CONFIG_FIELD]: JSON.stringify(this.describeConfig()) },
    });
    this.state = new CrawlState(this.store);
    if (o.ask !== false && o.maxQuestions !== false && o.maxQuestions > 0) {
      this.questionDesk = new QuestionDesk({
        store: this.store,
        clock: this.clock,
        rng: this.rng.fork('questions'),
        threshold: o.relevanceThreshold,
        ask: o.ask,
        maxQuestions: o.maxQuestions,
        options: o.questions,
        onQuestion: (q) => this.emit('question', q),
        onAnswer: (a) => this.emit('answer', a),
      });
    }
    // A resume keeps the version of the judge that was swapped in last (relevance feedback).
    this.judgeVersionNow = Number(this.store.getMeta('judgeVersion') ?? 0);
    this.client = new WebClient(
      { ...o.net, ...this.pdfContentTypes(), isUrlAllowed: (url) => this.links.isUrlAllowed(url) },
      { clock: this.clock, onWarning: (message) => this.emit('warning', message) },
    );
    this.pdf = o.pdf === false ? undefined : new PdfExtractor(o.pdf);
    this.renderer =
      o.render === false
        ? undefined
        : new Renderer(this.client, o.render, { isUrlAllowed: (url) => this.links.isResourceAllowed(url) });
    this.startedMs = this.clock.monotonicMs();
    this.stepsBeforeRun = this.store.pageCount();
    let status: 'finished' | 'interrupted' | 'failed' = 'failed';
    let summary: CrawlSummary;
    try {
      if (o.fetchRunner) await this.openRunner(o.fetchRunner);
      if (o.isResume) this.resumeFromStore(seedLinks);
      else this.strategy.seed(seedLinks);
      this.startSitemaps();
      await this.loop();
      const reason = this.stopReason ?? 'frontier-empty';
      status = reason === 'interrupted' ? 'interrupted' : 'finished';
      summary = this.summary(reason);
      this.emit('done', summary);
    } catch (error) {
      try {
        await this.close(status);
      } catch {
        // The error that stopped the crawl is the one to report (a full disk fails both).
      }
      throw error;
    }
    await this.close(status);
    return summary;
  }

  /** Ends the sitemap reader, the client, the PDF workers and the browser, then closes the store. */
  private async close(status: 'finished' | 'interrupted' | 'failed'): Promise<void> {
    this.sitemapAbort.abort(new Error('crawl ended'));
    await this.sitemapTask;
    await this.runner?.close();
    await this.client.close();
    await this.pdf?.close();
    await this.renderer?.close();
    this.questionDesk?.close();
    // What the strategy learned up to the last page, unless the crawl failed (its state may be
    // half-updated; the last periodic checkpoint stands).
    if (status !== 'failed') {
      this.saveCheckpoint();
      // The figures it ended with, for `tres ui DIR`: the frontier and the strategy's statistics
      // are not in the pages, so a read-only view would otherwise rebuild or lack them.
      const p = this.progress();
      this.store.setMeta(END_PROGRESS_META, {
        steps: p.steps,
        frontierSize: p.frontierSize,
        strategyStats: p.strategyStats,
      });
    }
    this.store.close({ status });
  }

  /** Stops gracefully: no new fetches; fetches in flight finish and are recorded. */
  stop(reason: StopReason = 'interrupted'): void {
    this.stopReason ??= reason;
    this.wake?.();
  }

  /** Starts no new fetch until {@link resume}; fetches in flight finish and are recorded. */
  pause(): void {
    this.isPausedFlag = true;
  }

  /** Lets a paused crawl start fetches again. */
  resume(): void {
    this.isPausedFlag = false;
    this.wake?.();
  }

  /** True between {@link pause} and {@link resume}. */
  get isPaused(): boolean {
    return this.isPausedFlag;
  }

  /**
   * Adds seed URLs to a running crawl: they are normalised and filtered like any seed, stored
   * (so a resume has them) and handed to the strategy unless already fetched.
   * @returns the URLs that were new seeds (stored now).
   * @throws ConfigError before `run()` has opened the store.
   */
  addSeeds(urls: readonly string[]): string[] {
    if (this.store === undefined) throw new ConfigError('addSeeds needs a running crawl');
    const added = this.store.addSeeds(this.links.seeds([...urls]));
    const fresh = added.filter((l) => !this.state.isFetchedOrInFlight(l.url));
    if (fresh.length > 0) this.strategy.seed(fresh);
    this.wake?.();
    return added.map((l) => l.url);
  }

  /**
   * The crawl store while `run()` runs (opened synchronously by `run()`, closed when it ends):
   * for readers in this process such as the dashboard. Record nothing in it.
   */
  get openStore(): CrawlStore | undefined {
    return this.store;
  }

  /** The relevance judge of pages fetched from now on. */
  get currentJudge(): PageJudge {
    return this.judge;
  }

  /** Version of the current judge, recorded with every page (0: the judge the crawl started with). */
  get judgeVersion(): number {
    return this.judgeVersionNow;
  }

  /**
   * Swaps the relevance judge (relevance feedback): pages whose fetch completes from now on are
   * judged by `judge` and recorded with `version`, which is kept in the store for a resume.
   * When a fetch runner judges pages (a cluster's workers), `modelDir` (the judge's model folder)
   * is handed to it; the returned promise settles once it has it.
   * @throws ConfigError before `run()` has opened the store, if `version` does not grow, or
   *   without `modelDir` when the fetch runner judges.
   */
  setJudge(judge: PageJudge, version: number, modelDir?: string): Promise<void> {
    if (this.store === undefined) throw new ConfigError('setJudge needs a running crawl');
    if (!Number.isInteger(version) || version <= this.judgeVersionNow) {
      throw new ConfigError(`judge version must grow: ${version} after ${this.judgeVersionNow}`, {
        context: { field: 'version' },
      });
    }
    const publish = this.runner?.publishJudge;
    if (publish !== undefined && modelDir === undefined) {
      throw new ConfigError("the fetch runner's workers judge pages: setJudge needs the model folder", {
        context: { field: 'modelDir' },
      });
    }
    this.judge = judge;
    this.judgeVersionNow = version;
    this.store.setMeta('judgeVersion', version);
    return publish === undefined ? Promise.resolve() : publish.call(this.runner, modelDir as string, version);
  }

  /**
   * The questions asked and not yet answered, skipped or expired (none when the crawl asks none).
   * See the `ask` option.
   */
  openQuestions(): Question[] {
    return this.questionDesk?.openQuestions() ?? [];
  }

  /**
   * Answers open question `id` (true: relevant, false: not, undefined: skip). An answer is stored
   * as a label with source `answer` and emitted as an `answer` event.
   * @returns false when no such question is open (answered, skipped, expired, unknown) or the
   *   crawl has ended.
   */
  answerQuestion(id: number, isRelevant: boolean | undefined): boolean {
    return this.questionDesk?.answer(id, isRelevant) ?? false;
  }

  /** Stops now: fetches in flight are aborted (and fetched again on resume). */
  abortNow(): void {
    this.stop('interrupted');
    this.abort.abort(new Error('crawl aborted'));
  }

  /**
   * Rebuilds the strategy from the store: stored seeds not fetched yet (plus `extraSeeds` not
   * stored yet, which are stored now), then every recorded fetch replayed in order.
   * @throws ConfigError when the store holds neither seeds nor pages (a crawl killed while being
   *   created) and no seeds were given.
   */
  private resumeFromStore(extraSeeds: DiscoveredLink[]): void {
    this.store.addSeeds(extraSeeds);
    const stored = this.store.seeds();
    if (stored.length === 0 && this.store.pageCount() === 0) {
      throw new ConfigError(
        `${this.options.outDir} holds a crawl that never started (no seeds were stored): give the seeds again to resume it`,
        { context: { file: this.options.outDir, field: 'seeds' } },
      );
    }
    // The options of this run (a resume may change budgets) become the stored ones.
    this.store.setMeta('config', this.describeConfig());
    // What the strategy had learned comes back first (its tree routes the seeds and replayed
    // links); the replay then rebuilds the frontier, learning only from pages after the checkpoint.
    const learnedThrough = this.restoreCheckpoint();
    // Seeds added now are in `stored` too; those fetched before the kill come back by replay.
    this.strategy.seed(stored.filter((l) => !this.store.isFetched(l.url)));
    for (const outcome of this.store.replayOutcomes(learnedThrough)) this.strategy.observe(outcome);
    this.checkpointedPage = this.store.lastPageId;
  }

  /**
   * Restores the stored checkpoint into the strategy when it was made by the same strategy with
   * the same config; returns the id of the last page it reflects (0: none restored).
   * @throws ConfigError if a matching checkpoint does not fit the strategy.
   */
  private restoreCheckpoint(): number {
    const strategy = this.strategy;
    if (!strategy.restore || this.options.checkpointEveryPages === false) return 0;
    const startedMs = this.clock.monotonicMs();
    const saved = this.store.loadCheckpoint();
    if (saved === undefined) return 0;
    const event = { strategy: saved.strategy, afterPage: saved.afterPage, bytes: saved.bytes };
    const config = JSON.stringify(strategy.config ?? null);
    if (saved.strategy !== strategy.name || JSON.stringify(saved.config) !== config) {
      const reason =
        saved.strategy !== strategy.name
          ? `made by strategy ${saved.strategy}, this crawl runs ${strategy.name}`
          : `made with another ${strategy.name} config`;
      this.emit('checkpoint', { kind: 'skipped', ...event, elapsedMs: 0, reason });
      return 0;
    }
    try {
      strategy.restore(saved.data);
    } catch (error) {
      throw new ConfigError(
        `the checkpoint of ${strategy.name} in ${this.options.outDir}/crawl.sqlite does not fit this tres: ${error instanceof Error ? error.message : String(error)}; resume with --checkpoint-every none to learn again from the start`,
        { cause: error, context: { file: this.options.outDir } },
      );
    }
    const elapsedMs = this.clock.monotonicMs() - startedMs;
    this.emit('checkpoint', { kind: 'restored', ...event, elapsedMs });
    this.checkpointedPage = saved.afterPage;
    return saved.afterPage;
  }

  /**
   * Stores what the strategy has learned, reflecting every page recorded so far (each recorded
   * page is observed in the same turn as it is recorded), if any page came since the last one.
   */
  private saveCheckpoint(): void {
    const strategy = this.strategy;
    if (!strategy?.checkpoint || this.options.checkpointEveryPages === false) return;
    const afterPage = this.store.lastPageId;
    if (afterPage <= this.checkpointedPage) return;
    const startedMs = this.clock.monotonicMs();
    const bytes = this.store.saveCheckpoint({
      strategy: strategy.name,
      config: strategy.config ?? null,
      afterPage,
      data: strategy.checkpoint(),
    });
    this.checkpointedPage = afterPage;
    const elapsedMs = this.clock.monotonicMs() - startedMs;
    this.emit('checkpoint', { kind: 'saved', strategy: strategy.name, afterPage, bytes, elapsedMs });
  }

  /**
   * Reads the sitemaps of the seed origins in the background; their URLs become seeds (stored,
   * so a resume keeps them). A resume reads them again: stored seeds are not added twice.
   */
  private startSitemaps(): void {
    const options = this.options.sitemaps;
    if (options === false) return;
    const origins = [...new Set(this.store.seeds().map((l) => new URL(l.url).origin))];
    const runner = this.runner;
    const read = runner?.readSitemaps
      ? runner.readSitemaps.bind(runner)
      : (o: string[], opts: typeof options, hooks: SitemapHooks) => readSitemaps(this.client, o, opts, hooks);
    this.sitemapTask = read(origins, options, {
      isUrlAllowed: (url) => this.links.isUrlAllowed(url),
      isSitemapAllowed: (url) => this.links.isResourceAllowed(url),
      onUrls: (urls) => {
        if (this.stopReason === undefined) this.addSeeds(urls);
      },
      onSitemap: (event) => this.emit('sitemap', event),
      // In the WARC file like every response the crawl fetched (gzip off the main thread).
      onResponse: async (fetched) => {
        try {
          this.store.archiveResponse(await this.store.prepareWarc(toWarcPayload(fetched.result), undefined));
        } catch (error) {
          this.fatal ??= error;
          this.stop('interrupted');
        }
      },
      shouldStop: () => this.stopReason !== undefined,
      signal: this.sitemapAbort.signal,
    })
      .then(
        () => {},
        () => {}, // aborted as the crawl ends: the URLs added so far are stored
      )
      .finally(() => {
        this.sitemapTask = undefined;
        this.wake?.();
      });
  }

  /** Renders `fetched` when its host is to be rendered (undefined otherwise). */
  private renderPage(fetched: PageFetch, host: string): Promise<string> | undefined {
    const renderer = this.renderer;
    if (!renderer?.shouldRender(host)) return undefined;
    return renderer.render(fetched, this.abort.signal);
  }

  /** The URL filter's options; `pdf: false` keeps `.pdf` URLs out as before PDFs were read. */
  private urlFilterOptions(): UrlFilterOptions {
    const o = this.options;
    if (o.pdf !== false || o.urlFilter.excludedExtensions !== undefined) return o.urlFilter;
    return { ...o.urlFilter, excludedExtensions: [...DEFAULT_EXCLUDED_EXTENSIONS, 'pdf'] };
  }

  /** With PDFs read, `application/pdf` joins the default media types (unless the user set them). */
  private pdfContentTypes(): { allowedContentTypes?: readonly string[] } {
    const o = this.options;
    if (o.pdf === false || o.net.allowedContentTypes !== undefined) return {};
    return { allowedContentTypes: [...DEFAULT_FETCHER_OPTIONS.allowedContentTypes, PDF_MEDIA_TYPE] };
  }

  private async loop(): Promise<void> {
    const o = this.options;
    const running = new Set<Promise<void>>();
    let lastYieldMs = performance.now();
    for (;;) {
      // Fetches that fail at once (a host refused, no descriptor left) settle as microtasks and
      // wake the loop again before timers, sockets and signals get a turn: give them one at
      // least every 50 ms, so that a crawl never spins deaf to Ctrl-C.
      if (performance.now() - lastYieldMs > 50) {
        await new Promise((resolve) => setImmediate(resolve));
        lastYieldMs = performance.now();
      }
      this.maybeProgress(false);
      if (this.stopReason === undefined) this.checkBudgets();
      if (this.stopReason !== undefined && running.size === 0) break;
      while (this.stopReason === undefined && !this.isPausedFlag && running.size < o.maxConcurrency) {
        // Retries due come first; they already hold their share of the page budget.
        const hasBudget = this.hasBudgetFor(running.size);
        const next = this.takeRetry(hasBudget) ?? (hasBudget ? this.takeFromStrategy() : undefined);
        if (!next) break;
        const task = this.execute(next.action, next.attempt)
          .catch((error: unknown) => {
            // Only StopCrawlError and ConfigError get here: end the crawl after the others land.
            this.fatal ??= error;
            this.stop('interrupted');
          })
          .finally(() => {
            running.delete(task);
            this.wake?.();
          });
        running.add(task);
      }
      if (running.size === 0 && !this.isPausedFlag && !this.retries.some((r) => !r.isDeferred)) {
        // Deferred URLs wait for their origin while there is budget for them; at the end of the
        // budget they are dropped unrecorded (a resume finds them in the frontier again).
        const isEmpty = this.strategy.stats()['frontier/size'] === 0 && this.retries.length === 0;
        // Sitemaps still being read may add URLs to an empty frontier.
        if ((isEmpty && this.sitemapTask === undefined) || !this.hasBudgetFor(0)) break;
      }
      // Nothing more can start now: wait for a fetch to finish or a host to become ready.
      await this.sleepUntilWoken(running.size > 0 || this.isPausedFlag ? 1000 : 20);
      if (this.wokeByTimer) lastYieldMs = performance.now();
    }
    this.maybeProgress(true);
    if (this.fatal !== undefined) throw this.fatal;
  }

  private selection(): SelectionContext {
    const o = this.options;
    const b = domainLimitAt(
      o.maxPagesPerDomain,
      this.state.counters.steps,
      o.maxPages === false ? Number.POSITIVE_INFINITY : o.maxPages,
    );
    return {
      step: this.state.counters.steps,
      isHostReady: (host) => !this.state.isHostBusy(host) && this.isHostReady(host),
      isDomainOpen: (domain) => this.state.domainLoad(domain) < b,
      isDomainClosed: (domain) => this.state.domainCount(domain) >= b,
      isFetched: (url) => this.state.isFetchedOrInFlight(url),
      domainLimit: b,
    };
  }

  private takeFromStrategy(): { action: Action; attempt: number } | undefined {
    const action = this.strategy.next(this.selection());
    return action ? { action, attempt: 0 } : undefined;
  }

  /** A retry that is due on a ready host; deferred URLs only when `hasBudget` (they hold none). */
  private takeRetry(hasBudget: boolean): { action: Action; attempt: number } | undefined {
    const now = this.clock.monotonicMs();
    const i = this.retries.findIndex(
      (r) =>
        r.notBeforeMs <= now &&
        (hasBudget || !r.isDeferred) &&
        !this.state.isHostBusy(r.action.host) &&
        this.isHostReady(r.action.host),
    );
    if (i < 0) return undefined;
    const [retry] = this.retries.splice(i, 1);
    if (retry) this.state.unwait(retry.action.url);
    return retry;
  }

  private hasBudgetFor(inFlight: number): boolean {
    const max = this.options.maxPages;
    const held = this.retries.reduce((n, r) => n + (r.isDeferred ? 0 : 1), 0);
    return max === false || this.state.counters.steps + inFlight + held < max;
  }

  private checkBudgets(): void {
    const o = this.options;
    if (o.timeLimitMs !== false && this.clock.monotonicMs() - this.startedMs >= o.timeLimitMs)
      this.stop('time-limit');
    if (o.maxPages !== false && this.state.counters.steps >= o.maxPages) this.stop('max-pages');
  }

  private async execute(action: Action, attempt: number): Promise<void> {
    this.state.start(action.url, action.host, action.domain);
    // The judge (and its version) as the fetch starts: a swap mid-fetch cannot mix the two.
    const judge = this.judge;
    const judgeVersion = this.judgeVersionNow;
    try {
      if (this.runner) {
        const result = await this.runner.fetch(action, this.abort.signal);
        // A fetch side that judges says which version judged the page.
        result.record.judgeVersion ??= judgeVersion;
        // Its fetch side cannot know what this loop holds: its links are filtered here.
        this.dropLinksKnownSince(result);
        this.commit(action, result.record, result.outcome, result.warc);
        this.runner.recorded(action.url);
        return;
      }
      const fetched = await this.client.fetchPage(action.url, { signal: this.abort.signal });
      const result = await processFetch(fetched, action, {
        judge,
        threshold: this.options.relevanceThreshold,
        links: this.links,
        shouldFollowNofollow: this.options.shouldFollowNofollow,
        withLinkContext: this.options.withLinkContext || this.strategy.needsLinkContext === true,
        linkContextWindow: linkContextWindowOf(this.options, this.strategy),
        parseTimeBudgetMs: this.options.parseTimeBudgetMs,
        shouldObeyNoindex: this.options.shouldObeyNoindex,
        userAgentToken: this.options.net.userAgentToken ?? 'tres',
        maxTextChars: this.options.maxTextChars,
        maxLinksPerPage: this.options.maxLinksPerPage,
        shouldScoreAnchors: this.strategy.needsAnchorScores === true,
        isKnown: (url) => this.state.isFetchedOrInFlight(url),
        ...(this.pdf ? { pdf: this.pdf } : {}),
        ...(this.renderer ? { render: (f) => this.renderPage(f, action.host) } : {}),
      });
      result.record.judgeVersion = judgeVersion;
      this.commit(action, result.record, result.outcome, await this.warcOf(result));
    } catch (error) {
      if (this.abort.signal.aborted) return; // not recorded: fetched again on resume
      if (error instanceof StopCrawlError || error instanceof ConfigError) throw error;
      if (error instanceof DeferUrlError) {
        if (this.stopReason === undefined) this.defer(action, attempt, error);
        return; // not recorded: a stopped crawl finds the URL in its frontier on resume
      }
      if (error instanceof RetryLaterError && this.stopReason === undefined) {
        const delay = retryDelayMs(error, attempt + 1, {
          maxRetries: this.options.maxRetries,
          rng: this.rng.fork(`retry/${action.url}`),
        });
        if (delay !== false && delay <= this.options.maxRetryDelayMs) {
          const notBeforeMs = this.clock.monotonicMs() + delay;
          this.retries.push({ action, attempt: attempt + 1, notBeforeMs, isDeferred: false });
          this.state.wait(action.url);
          this.emit('retry', {
            url: action.url,
            code: errorCode(error),
            attempt: attempt + 1,
            delayMs: delay,
          });
          return;
        }
      }
      const code = errorCode(error);
      const status = (error as { context?: { status?: number } }).context?.status ?? 0;
      const record = {
        url: action.url,
        status,
        host: action.host,
        domain: action.domain,
        depth: action.depth,
        reward: 0,
        probability: 0,
        errorCode: code,
        isPage: false,
        ...(action.parentUrl === undefined ? {} : { parentUrl: action.parentUrl }),
      };
      this.commit(
        action,
        record,
        {
          action,
          finalUrl: action.url,
          isPage: false,
          reward: 0,
          probability: 0,
          links: [],
          errorCode: code,
        },
        undefined,
      );
      this.runner?.recorded(action.url);
      const message = error instanceof Error ? error.message : String(error);
      const why = code === 'TRES_URL_FILTERED' ? this.links.whyRejected(action.url) : undefined;
      this.emit('failure', { url: action.url, code, message: why ? `${message}: ${why}` : message });
    } finally {
      this.state.finish(action.url, action.host, action.domain);
    }
  }

  /**
   * A page's WARC payload for its commit: gzipped in libuv's thread pool ahead of it when the
   * body is large and other fetches are in flight to fill the wait, else as fetched (gzipped in
   * `recordPage`, on the main thread). On 300 DocWeb pages of 91 KB on average, gzip on the main
   * thread took 0.86-0.99 ms a page and the thread pool's callback API kept it busy 0.17-0.21
   * ms; on 5.7 KB the callback API cost the main thread as much as the work (results/engine.md).
   */
  private async warcOf(result: ProcessedFetch): Promise<{ warc: WarcPayload | PreparedWarc } | undefined> {
    const exchange = result.warc?.warc;
    if (
      exchange === undefined ||
      !this.options.shouldWriteWarc ||
      this.options.maxConcurrency < 2 ||
      exchange.body.byteLength < THREAD_POOL_WARC_BYTES
    )
      return result.warc;
    const prepared = await this.store.prepareWarc(exchange, result.record.probability);
    this.dropLinksKnownSince(result);
    return { warc: prepared };
  }

  /**
   * Drops from a page's links those fetched, started or redirected to since it was parsed: while
   * its WARC records were gzipped in the thread pool, or while a runner's fetch side (which cannot
   * know what this loop holds) parsed it, other fetches went on and were recorded first. A page's
   * recorded outlinks then leave out every page recorded before it, as they do when nothing waits
   * between parse and commit (`tres repair` reads them again that way). The record's outlinks and
   * the outcome's links stay one array.
   */
  private dropLinksKnownSince(result: ProcessedFetch): void {
    const links = result.outcome.links.filter((l) => !this.state.isFetchedOrInFlight(l.url));
    if (links.length === result.outcome.links.length) return;
    result.outcome.links = links;
    result.record.outlinks = links;
  }

  private isHostReady(host: string): boolean {
    return this.runner ? this.runner.isHostReady(host) : this.client.isHostReady(host);
  }

  /** Opens the fetch runner and records what it fetched while no loop listened (before any replay). */
  private async openRunner(runner: FetchRunner): Promise<void> {
    this.runner = runner;
    const arrived = await runner.open({
      options: this.options,
      needsLinkContext: this.options.withLinkContext || this.strategy.needsLinkContext === true,
      linkContextWindow: linkContextWindowOf(this.options, this.strategy),
      needsAnchorScores: this.strategy.needsAnchorScores === true,
      isRecorded: (url) => this.store.isFetched(url),
    });
    for (const a of arrived) {
      if (this.store.isFetched(a.action.url)) {
        runner.recorded(a.action.url);
        continue;
      }
      const links = a.outcome.links.filter(
        (l) => !this.store.isFetched(l.url) && !this.store.isRedirectTarget(l.url),
      );
      a.record.outlinks = links;
      // Recorded only: a resume's replay hands it to the strategy, a new crawl has none.
      this.commit(a.action, a.record, { ...a.outcome, links }, undefined, false);
      runner.recorded(a.action.url);
    }
  }

  /** Keeps `action` aside until `error.retryAfterMs` has passed, counting no attempt. */
  private defer(action: Action, attempt: number, error: DeferUrlError): void {
    const delayMs = Math.max(1, error.retryAfterMs ?? 1000);
    this.retries.push({ action, attempt, notBeforeMs: this.clock.monotonicMs() + delayMs, isDeferred: true });
    this.state.wait(action.url);
    this.emit('retry', { url: action.url, code: error.code, attempt, delayMs, isDeferred: true });
  }

  private commit(
    action: Action,
    record: Parameters<CrawlStore['recordPage']>[0],
    fetchedOutcome: Parameters<Strategy['observe']>[0],
    warc: Parameters<CrawlStore['recordPage']>[1],
    shouldObserve = true,
  ): void {
    // A copy of a page the crawl holds (the same page under another URL: http and https,
    // dir/ and dir/index.html, or a near copy) earns nothing. Decided here, in commit order, so
    // of two copies fetched at once the first recorded is the original.
    let outcome = fetchedOutcome;
    const match = record.fingerprint ? this.store.findDuplicate(record.fingerprint) : undefined;
    if (match) {
      record.duplicateOf = match.id;
      record.reward = 0;
      // An exact copy's links are the original's, respelled (http:// for https://): a mirror
      // of the site the agent would learn to crawl again.
      if (match.isExact) record.outlinks = [];
      outcome = { ...outcome, reward: 0, isDuplicate: true, links: match.isExact ? [] : outcome.links };
    }
    // A page recorded without being observed (one a runner fetched while no loop listened) keeps
    // its contexts: the strategy has not reached the state it will replay it in.
    if (shouldObserve && !this.options.withLinkContext) this.strategy.dropUnreadContexts?.(outcome);
    try {
      this.store.recordPage(record, warc);
    } catch (error) {
      if (error instanceof StorageFaultError) throw error; // names the file and what to do
      throw new StopCrawlError(
        'TRES_STORE_WRITE',
        `cannot record ${action.url} in the crawl store: ${String(error)}`,
        {
          cause: error,
          context: { url: action.url },
        },
      );
    }
    const c = this.state.counters;
    this.emit('page', {
      url: action.url,
      finalUrl: outcome.finalUrl,
      status: record.status,
      isPage: outcome.isPage,
      reward: outcome.reward,
      probability: outcome.probability,
      domain: action.domain,
      depth: action.depth,
      step: c.steps,
      newLinks: outcome.links.length,
      ...(record.title === undefined ? {} : { title: record.title }),
      ...(outcome.errorCode === undefined ? {} : { errorCode: outcome.errorCode }),
      ...(match ? { duplicateOf: this.store.urlOf(match.id) ?? '' } : {}),
    });
    if (!shouldObserve) return;
    // Asked about before `observe`: the strategy's link model still holds what it expected.
    this.questionDesk?.afterPage(
      this.store.lastPageId,
      action,
      outcome,
      outcome.isPage ? this.strategy.linkProbability?.(action) : undefined,
    );
    this.strategy.observe(outcome);
    const every = this.options.checkpointEveryPages;
    if (every !== false && this.store.lastPageId - this.checkpointedPage >= every) this.saveCheckpoint();
  }

  private sleepUntilWoken(maxMs: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.wokeByTimer = true;
        resolve();
      }, maxMs);
      this.wokeByTimer = false;
      this.wake = () => {
        this.wake = undefined;
        clearTimeout(timer);
        resolve();
      };
    });
  }

  private maybeProgress(force: boolean): void {
    const now = this.clock.monotonicMs();
    if (!force && now - this.lastProgressMs < this.options.progressIntervalMs) return;
    this.lastProgressMs = now;
    this.emit('progress', this.progress());
  }

  /** Current numbers of the crawl (also sent as 'progress' events). */
  progress(): CrawlProgress {
    const c = this.state.counters;
    const elapsedMs = this.clock.monotonicMs() - this.startedMs;
    const stats = this.strategy?.stats() ?? { 'frontier/size': 0 };
    return {
      ...c,
      harvestRate: c.steps === 0 ? 0 : c.relevant / c.steps,
      inFlight: this.state.inFlightCount,
      deferred: this.retries.reduce((n, r) => n + (r.isDeferred ? 1 : 0), 0),
      ...this.waitingHosts(),
      frontierSize: stats['frontier/size'],
      elapsedMs,
      stepsThisRun: c.steps - this.stepsBeforeRun,
      pagesPerSec: elapsedMs > 0 ? ((c.steps - this.stepsBeforeRun) * 1000) / elapsedMs : 0,
      strategyStats: stats,
    };
  }

  /** Hosts waiting for a retry, and for their robots.txt (deferred, or its fetch under way). */
  private waitingHosts(): { retryHosts: number; robotsHosts: number } {
    const retry = new Set<string>();
    const robots = new Set<string>();
    for (const r of this.retries) (r.isDeferred ? robots : retry).add(r.action.host);
    // No client before run() has started, and none of its own under a fetch runner.
    const client = this.runner ? undefined : (this.client as WebClient | undefined);
    for (const origin of client?.robots.pendingOrigins() ?? []) robots.add(new URL(origin).host);
    return { retryHosts: retry.size, robotsHosts: robots.size };
  }

  private summary(reason: StopReason): CrawlSummary {
    return {
      ...this.progress(),
      stopReason: reason,
      outDir: this.options.outDir,
      strategy: this.strategy.name,
    };
  }

  private describeConfig(): Record<string, unknown> {
    // Whether to ask is the caller's choice per run (a function cannot be stored): left out.
    const { judge, clock, strategy, fetchRunner: _runner, ask: _ask, ...rest } = this.options;
    return {
      ...rest,
      strategy: strategy.name,
      strategyConfig: this.strategy.config ?? null,
      judge: this.judge.name,
    };
  }
}
