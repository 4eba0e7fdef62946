/**
 * The crawl loop. K fetches in flight; whenever a slot frees, the strategy is asked for the next
 * URL among hosts that may be fetched now; `observe` is called as each page completes. With
 * K = 1 and no delays this is exactly the sequential MDP of the TRES papers.
 *
 * Every attempt is recorded in the crawl store before it counts. The loop alone decides what
 * happens after an error: retry later (RetryLaterError, up to maxRetries), skip (anything else,
 * recorded with its code), or stop (StopCrawlError, store failures).
 */
import { EventEmitter, setMaxListeners } from 'node:events';
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
import { CrawlStore, WARCINFO_CONFIG_FIELD } from '../store/index.js';
import type { Strategy } from '../strategies/index.js';
import type { Action, SelectionContext } from '../types/index.js';
import { CheckpointKeeper } from './checkpoint-keeper.js';
import { CrawlBudgets } from './crawl-budgets.js';
import {
  type CrawlerOptions,
  type FetchRunner,
  type ResolvedCrawlerOptions,
  resolveCrawlerOptions,
} from './crawl-options.js';
import { openFetchRunner, resumeFromStore } from './crawl-resume.js';
import { CrawlState } from './crawl-state.js';
import type { CrawlerEvents, CrawlProgress, CrawlSummary, StopReason } from './events.js';
import { FrontierSnapshots } from './frontier-snapshots.js';
import { FrontierSpill } from './frontier-spill.js';
import type { PageJudge } from './judge.js';
import { JudgeSlot } from './judge-slot.js';
import { KeywordJudge } from './keyword-judge.js';
import { LinkProcessor } from './link-processor.js';
import { crawlUrlFilter, LocalFetcher } from './local-fetch.js';
import { PageRecorder } from './page-recorder.js';
import { ProgressMeter } from './progress-meter.js';
import { type Question, QuestionDesk } from './question-desk.js';
import { RetryQueue } from './retry-queue.js';
import { SitemapFeed } from './sitemap-feed.js';
import { warcForCommit } from './warc-offload.js';

/**
 * Meta key of the figures a run ended with (`steps`, `frontierSize`, `strategyStats`), written
 * as the store closes, unless the crawl failed.
 */
export const END_PROGRESS_META = 'endProgress';

/** A focused crawler: construct with one options object, `await run(seeds)`, listen to events. */
export class Crawler extends EventEmitter<CrawlerEvents> {
  readonly options: ResolvedCrawlerOptions;
  private readonly clock: Clock;
  private readonly rng: Rng;
  private state!: CrawlState;
  private retries!: RetryQueue;
  private budgets!: CrawlBudgets;
  private strategy!: Strategy;
  private judges!: JudgeSlot;
  private store!: CrawlStore;
  private fetcher!: LocalFetcher;
  private links!: LinkProcessor;
  private spill!: FrontierSpill;
  /** Fetches run elsewhere (a cluster); undefined: in this process. */
  private runner: FetchRunner | undefined;
  /**
   * Aborts the fetches in flight. Each of them listens on its signal until it ends (up to
   * `maxConcurrency` at once): no leak, so Node's warning past 10 listeners is off for it.
   */
  private readonly abort = new AbortController();
  private stopReason: StopReason | undefined;
  private fatal: unknown;
  private wake: (() => void) | undefined;
  /** The last sleepUntilWoken ended by its timer (a macrotask: the event loop had its turn). */
  private wokeByTimer = false;
  private meter!: ProgressMeter;
  private isPausedFlag = false;
  private checkpoints!: CheckpointKeeper;
  private snapshots!: FrontierSnapshots;
  private recorder!: PageRecorder;
  private sitemaps: SitemapFeed | undefined;
  /** The crawl's questions to its user; undefined when it asks none (`ask`, `maxQuestions`). */
  private questionDesk: QuestionDesk | undefined;

  constructor(options: CrawlerOptions) {
    super();
    this.options = resolveCrawlerOptions(options);
    this.clock = this.options.clock ?? systemClock;
    this.rng = createRng(this.options.seed);
    setMaxListeners(0, this.abort.signal);
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
      urlFilter: crawlUrlFilter(o),
      maxDepth: o.maxDepth,
    });
    this.strategy = o.strategy;
    // What a strategy needs besides its options it loads itself (Lim's word vectors). Awaited
    // only when there is something to load: run() must reach CrawlStore.open without yielding,
    // as callers (the live dashboard) look for the open store right after calling it.
    if (this.strategy.prepare) await this.strategy.prepare();
    this.judges = new JudgeSlot(o.judge ?? new KeywordJudge({ keywords: o.keywords ?? [] }));
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
    this.retries = new RetryQueue({
      clock: this.clock,
      state: this.state,
      maxRetries: o.maxRetries,
      maxRetryDelayMs: o.maxRetryDelayMs,
      rng: this.rng,
    });
    this.checkpoints = new CheckpointKeeper({
      store: this.store,
      strategy: this.strategy,
      clock: this.clock,
      everyPages: o.checkpointEveryPages,
      outDir: o.outDir,
      onEvent: (event) => this.emit('checkpoint', event),
    });
    this.spill = new FrontierSpill({
      store: this.store,
      strategy: this.strategy,
      isKnown: (url) => this.state.isFetchedOrInFlight(url),
      maxFrontierUrls: o.maxFrontierUrls,
    });
    this.snapshots = new FrontierSnapshots({
      store: this.store,
      strategy: this.strategy,
      spill: this.spill,
      clock: this.clock,
      outDir: o.outDir,
      minPages: o.checkpointEveryPages === false ? false : o.frontierSnapshotPages,
      onEvent: (event) => this.emit('checkpoint', event),
    });
    if (!o.isResume) this.snapshots.forget();
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
    this.recorder = new PageRecorder({
      store: this.store,
      strategy: this.strategy,
      state: this.state,
      checkpoints: this.checkpoints,
      snapshots: this.snapshots,
      spill: this.spill,
      questionDesk: this.questionDesk,
      withLinkContext: o.withLinkContext,
      onPage: (event) => this.emit('page', event),
    });
    // A resume keeps the version of the judge that was swapped in last (relevance feedback).
    this.judges.readVersion(this.store);
    this.fetcher = new LocalFetcher({
      options: o,
      strategy: this.strategy,
      links: this.links,
      clock: this.clock,
      isKnown: (url) => this.state.isFetchedOrInFlight(url),
      onWarning: (message) => this.emit('warning', message),
    });
    this.budgets = new CrawlBudgets(o, this.clock, this.state);
    this.meter = new ProgressMeter({
      clock: this.clock,
      state: this.state,
      retries: this.retries,
      strategy: this.strategy,
      spill: this.spill,
      startedMs: this.budgets.startedMs,
      stepsBeforeRun: this.store.pageCount(),
      intervalMs: o.progressIntervalMs,
      // None of its own under a fetch runner.
      pendingRobotsOrigins: () => (this.runner ? [] : this.fetcher.client.robots.pendingOrigins()),
      onProgress: (progress) => this.emit('progress', progress),
    });
    let status: 'finished' | 'interrupted' | 'failed' = 'failed';
    let summary: CrawlSummary;
    try {
      if (o.fetchRunner) {
        this.runner = o.fetchRunner;
        await openFetchRunner(o.fetchRunner, {
          options: o,
          strategy: this.strategy,
          store: this.store,
          recorder: this.recorder,
        });
      }
      if (o.isResume) {
        resumeFromStore(
          {
            store: this.store,
            strategy: this.strategy,
            checkpoints: this.checkpoints,
            snapshots: this.snapshots,
            spill: this.spill,
            outDir: o.outDir,
            describeConfig: () => this.describeConfig(),
          },
          seedLinks,
        );
      } else this.strategy.seed(seedLinks);
      this.startSitemaps(o.sitemaps);
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
    await this.sitemaps?.close();
    await this.runner?.close();
    await this.fetcher.close();
    this.questionDesk?.close();
    // What the strategy learned up to the last page, and its frontier, unless the crawl failed
    // (its state may be half-updated; the last periodic checkpoint and snapshot stand).
    if (status !== 'failed') {
      this.checkpoints.save();
      this.snapshots.save();
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
    return this.judges?.judge;
  }

  /** Version of the current judge, recorded with every page (0: the judge the crawl started with). */
  get judgeVersion(): number {
    return this.judges?.version ?? 0;
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
    return this.judges.swap(judge, version, this.store, this.runner, modelDir);
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

  /** Reads the seed origins' sitemaps in the background (see SitemapFeed); off when `false`. */
  private startSitemaps(options: ResolvedCrawlerOptions['sitemaps']): void {
    if (options === false) return;
    this.sitemaps = new SitemapFeed({
      store: this.store,
      links: this.links,
      client: this.fetcher.client,
      runner: this.runner,
      isStopping: () => this.stopReason !== undefined,
      addSeeds: (urls) => this.addSeeds(urls),
      onSitemap: (event) => this.emit('sitemap', event),
      onFault: (error) => {
        this.fatal ??= error;
        this.stop('interrupted');
      },
      onEnd: () => this.wake?.(),
    });
    this.sitemaps.start(options);
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
      this.meter.maybeEmit(false);
      if (this.stopReason === undefined) {
        const spent = this.budgets.spent();
        if (spent !== undefined) this.stop(spent);
      }
      if (this.stopReason !== undefined && running.size === 0) break;
      while (this.stopReason === undefined && !this.isPausedFlag && running.size < o.maxConcurrency) {
        // Retries due come first.
        if (!this.hasBudgetFor(running.size)) break;
        const next = this.takeRetry() ?? this.takeFromStrategy();
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
      if (running.size === 0 && !this.isPausedFlag && this.retries.retryCount === 0) {
        // Deferred URLs wait for their origin while there is budget for them; at the end of the
        // budget they, and retries still waiting, are left unrecorded (a resume finds them in the
        // frontier again).
        const isEmpty =
          this.strategy.stats()['frontier/size'] === 0 && this.retries.size === 0 && !this.spill.isHolding;
        // Sitemaps still being read may add URLs to an empty frontier.
        if ((isEmpty && this.sitemaps?.isReading !== true) || !this.hasBudgetFor(0)) break;
      }
      // Nothing more can start now: wait for a fetch to finish or a host to become ready.
      await this.sleepUntilWoken(running.size > 0 || this.isPausedFlag ? 1000 : 20);
      if (this.wokeByTimer) lastYieldMs = performance.now();
    }
    this.meter.maybeEmit(true);
    if (this.fatal !== undefined) throw this.fatal;
  }

  private selection(): SelectionContext {
    const b = this.budgets.domainLimit();
    return {
      step: this.state.counters.steps,
      isHostReady: (host) => this.isHostFree(host),
      isDomainOpen: (domain) => this.state.domainLoad(domain) < b,
      isDomainClosed: (domain) => this.state.domainCount(domain) >= b,
      isFetched: (url) => this.state.isFetchedOrInFlight(url),
      domainLimit: b,
    };
  }

  private takeFromStrategy(): { action: Action; attempt: number } | undefined {
    this.spill.refill();
    const action = this.strategy.next(this.selection());
    if (action === undefined) return undefined;
    this.snapshots.took(action);
    return { action, attempt: 0 };
  }

  /** A retry or a deferred URL that is due on a free host. */
  private takeRetry(): { action: Action; attempt: number } | undefined {
    return this.retries.take((host) => this.isHostFree(host));
  }

  private hasBudgetFor(inFlight: number): boolean {
    return this.budgets.hasBudgetFor(inFlight);
  }

  /** No fetch of `host` is in flight and its politeness lets one start now. */
  private isHostFree(host: string): boolean {
    return !this.state.isHostBusy(host) && this.isHostReady(host);
  }

  private async execute(action: Action, attempt: number): Promise<void> {
    this.state.start(action.url, action.host, action.domain);
    // The judge (and its version) as the fetch starts: a swap mid-fetch cannot mix the two.
    const judge = this.judges.judge;
    const judgeVersion = this.judges.version;
    try {
      if (this.runner) {
        const result = await this.runner.fetch(action, this.abort.signal);
        // A fetch side that judges says which version judged the page.
        result.record.judgeVersion ??= judgeVersion;
        // Its fetch side cannot know what this loop holds: its links are filtered here.
        this.recorder.dropLinksKnownSince(result);
        this.recorder.record(action, result.record, result.outcome, result.warc);
        this.runner.recorded(action.url);
        return;
      }
      const result = await this.fetcher.fetch(action, judge, this.abort.signal);
      result.record.judgeVersion = judgeVersion;
      const warc = await warcForCommit(result, this.store, this.options, (r) =>
        this.recorder.dropLinksKnownSince(r),
      );
      this.recorder.record(action, result.record, result.outcome, warc);
    } catch (error) {
      if (this.abort.signal.aborted) return; // not recorded: fetched again on resume
      if (error instanceof StopCrawlError || error instanceof ConfigError) throw error;
      if (error instanceof DeferUrlError) {
        if (this.stopReason === undefined) this.defer(action, attempt, error);
        return; // not recorded: a stopped crawl finds the URL in its frontier on resume
      }
      if (error instanceof RetryLaterError && this.stopReason === undefined) {
        const delay = this.retries.retryLater(action, attempt, error);
        if (delay !== false) {
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
      this.recorder.recordFailure(action, code, status);
      this.runner?.recorded(action.url);
      const message = error instanceof Error ? error.message : String(error);
      const why = code === 'TRES_URL_FILTERED' ? this.links.whyRejected(action.url) : undefined;
      this.emit('failure', { url: action.url, code, message: why ? `${message}: ${why}` : message });
    } finally {
      this.state.finish(action.url, action.host, action.domain);
    }
  }

  private isHostReady(host: string): boolean {
    return this.runner ? this.runner.isHostReady(host) : this.fetcher.client.isHostReady(host);
  }

  /** Keeps `action` aside until `error.retryAfterMs` has passed, counting no attempt. */
  private defer(action: Action, attempt: number, error: DeferUrlError): void {
    const delayMs = this.retries.defer(action, attempt, error);
    this.emit('retry', { url: action.url, code: error.code, attempt, delayMs, isDeferred: true });
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

  /** Current numbers of the crawl (also sent as 'progress' events). */
  progress(): CrawlProgress {
    return this.meter.progress();
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
      judge: this.judges.judge.name,
    };
  }
}
