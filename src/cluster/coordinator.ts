/**
 * The coordinator's side of a cluster crawl: a {@link FetchRunner} that sends each action the
 * strategy chooses to the request stream of its host's shard and resolves it when a worker's
 * outcome arrives on the outcome stream (read in a consumer group). The crawl loop, the strategy,
 * the learner and the store are the local ones, unchanged.
 *
 * At-least-once, recorded once: an outcome entry is acknowledged (XACK, then XDEL, so Redis holds
 * only what is in flight) after the loop recorded its page; an outcome for a URL already recorded
 * is acknowledged and dropped. A restarted coordinator first reads the entries its predecessor
 * left (pending or unread) and hands the loop those not recorded yet, which it records before
 * its replay.
 */
import { setMaxListeners } from 'node:events';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import type { ErrorCode } from '../common/index.js';
import {
  type Clock,
  ConfigError,
  DeferUrlError,
  RetryLaterError,
  SkipUrlError,
  systemClock,
} from '../common/index.js';
import type {
  ArrivedFetch,
  FetchRunner,
  FetchRunnerContext,
  ProcessedFetch,
  SitemapHooks,
  SitemapOptions,
} from '../crawl/index.js';
import { Politeness } from '../net/index.js';
import type { Action } from '../types/index.js';
import { hostOf } from '../url/index.js';
import {
  ClusterKeys,
  type ClusterOptions,
  COORDINATOR_CONSUMER,
  COORDINATOR_GROUP,
  type ResolvedClusterOptions,
  resolveClusterOptions,
  shardOf,
  WORKER_GROUP,
} from './cluster-options.js';
import {
  decodeOutcome,
  encodeRequest,
  type OutcomeMessage,
  toProcessed,
  type WorkerCrawlConfig,
} from './messages.js';
import { connectRedis, ensureGroup, entriesOf } from './redis-connection.js';

interface Waiting {
  action: Action;
  resolve: (result: ProcessedFetch) => void;
  reject: (error: unknown) => void;
}

/** Counters of the coordinator's traffic (for benchmarks and progress). */
export interface CoordinatorStats {
  requestsSent: number;
  outcomesRead: number;
  /** Outcomes for URLs already recorded or answered (refetches after a worker died). */
  duplicatesDropped: number;
  /** Outcomes of a previous coordinator run recorded at start. */
  arrivedAtStart: number;
  /** Redirect chains sent on to the shard of their target's host. */
  redirectsRouted: number;
}

/** Options of {@link ClusterCoordinator}: the cluster's, plus how the URL flag was typed. */
export interface CoordinatorOptions extends ClusterOptions {
  /** The URL option as the user typed it, named in errors. @default '--cluster' */
  flag?: string;
}

/** Runs a crawl's fetches on cluster workers (see the file comment). */
export class ClusterCoordinator implements FetchRunner {
  readonly options: ResolvedClusterOptions;
  readonly stats: CoordinatorStats = {
    requestsSent: 0,
    outcomesRead: 0,
    duplicatesDropped: 0,
    arrivedAtStart: 0,
    redirectsRouted: 0,
  };
  private readonly keys: ClusterKeys;
  private readonly flag: string;
  private readonly clock: Clock;
  private cmd!: Redis;
  private reader!: Redis;
  private ctx!: FetchRunnerContext;
  private epoch = 0;
  private politeness!: Politeness;
  private readonly waiting = new Map<string, Waiting>();
  /** Outcome entry ids to acknowledge once the URL is recorded. */
  private readonly toAck = new Map<string, string[]>();
  /** Outcome entry ids recorded and waiting for {@link flushAcks}. */
  private readonly pendingAcks: string[] = [];
  /** Outcomes nobody waits for and not recorded (a previous run's, arriving late), by URL. */
  private readonly unclaimed = new Map<string, { id: string; message: OutcomeMessage }>();
  /** Sitemap readings under way, by origin. */
  private readonly sitemapReads = new Map<string, { hooks: SitemapHooks; done: () => void }>();
  private reading: Promise<void> | undefined;
  private listenedSignal: AbortSignal | undefined;
  private isClosed = false;

  /** @throws ConfigError naming the field of a bad option. */
  constructor(options: CoordinatorOptions, deps: { clock?: Clock } = {}) {
    this.flag = options.flag ?? '--cluster';
    this.options = resolveClusterOptions(options, this.flag);
    this.keys = ClusterKeys.of(this.options.name);
    this.clock = deps.clock ?? systemClock;
  }

  async open(ctx: FetchRunnerContext): Promise<ArrivedFetch[]> {
    this.ctx = ctx;
    const o = ctx.options;
    const config = workerConfigOf(ctx, this.options.shards);
    this.cmd = await connectRedis(this.options.url, this.flag);
    this.reader = this.cmd.duplicate();
    this.reader.on('error', () => {});
    const k = this.keys;
    if (!o.isResume) {
      // A new crawl under a name used before starts from empty streams (SCAN, not KEYS: one
      // Redis may hold other crawls and much else).
      let cursor = '0';
      do {
        const [next, stale] = await this.cmd.scan(cursor, 'MATCH', `${k.prefix}*`, 'COUNT', 1000);
        if (stale.length > 0) await this.cmd.del(...stale);
        cursor = next;
      } while (cursor !== '0');
    } else {
      const previous = await this.cmd.get(k.config);
      const shards = previous === null ? undefined : (JSON.parse(previous) as WorkerCrawlConfig).shards;
      if (shards !== undefined && shards !== this.options.shards) {
        throw new ConfigError(
          `the crawl "${this.options.name}" in Redis has ${shards} shards; resume it with the same number (not ${this.options.shards})`,
          { context: { field: 'shards' } },
        );
      }
    }
    this.epoch = await this.cmd.incr(k.epoch);
    config.epoch = this.epoch;
    // Requests of an earlier run are stale: their URLs are back in the rebuilt frontier. Fetches of
    // them already under way still report, and are used below or when chosen again.
    const pipe = this.cmd.multi();
    for (let s = 0; s < this.options.shards; s++) {
      pipe.del(k.requests(s));
      pipe.xgroup('CREATE', k.requests(s), WORKER_GROUP, '$', 'MKSTREAM');
    }
    if ('modelDir' in config.judge) {
      // The crawl's own model travels through Redis too: workers need no copy of the folder.
      pipe.del(k.judgeFiles(0)).hset(k.judgeFiles(0), modelFiles(config.judge.modelDir));
      config.judge.isInRedis = true;
    }
    pipe.set(k.config, JSON.stringify(config));
    await pipe.exec();
    await ensureGroup(this.cmd, k.outcomes, COORDINATOR_GROUP, '0');
    this.politeness = new Politeness(
      { minDelayMs: o.net.minDelayMs ?? 1000, maxConnectionsPerHost: 1 },
      { clock: this.clock },
    );
    const arrived = await this.drainAtStart();
    this.reading = this.readLoop();
    return arrived;
  }

  isHostReady(host: string): boolean {
    return this.politeness.isHostReady(host);
  }

  fetch(action: Action, signal: AbortSignal): Promise<ProcessedFetch> {
    return new Promise<ProcessedFetch>((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason);
      // One listener per fetch in flight on the crawl's signal: K of them is expected.
      if (signal !== this.listenedSignal) {
        setMaxListeners(0, signal);
        this.listenedSignal = signal;
      }
      const early = this.unclaimed.get(action.url);
      // A hint only (the worker owning the host enforces politeness); a retry may come early.
      if (this.politeness.isHostReady(action.host)) this.politeness.acquire(action.host);
      const onAbort = () => {
        if (this.waiting.get(action.url) !== waiting) return;
        this.waiting.delete(action.url);
        this.politeness.release(action.host);
        reject(signal.reason);
      };
      const waiting: Waiting = {
        action,
        resolve: (result) => {
          signal.removeEventListener('abort', onAbort);
          resolve(result);
        },
        reject: (error) => {
          signal.removeEventListener('abort', onAbort);
          reject(error);
        },
      };
      this.waiting.set(action.url, waiting);
      signal.addEventListener('abort', onAbort, { once: true });
      if (early) {
        // Fetched already, by a request of an earlier run: no need to fetch it again.
        this.unclaimed.delete(action.url);
        this.answer(early.id, early.message);
        return;
      }
      const shard = shardOf(action.host, this.options.shards);
      this.stats.requestsSent++;
      this.cmd.xadd(this.keys.requests(shard), '*', ...encodeRequest(action, this.epoch)).catch(onAbort);
    });
  }

  /**
   * Has each origin's sitemaps read by the worker holding its host's shard (the politeness owner
   * of the host); URLs arrive through `hooks.onUrls` as the workers find them, filtered again by
   * `hooks.isUrlAllowed`. Resolves when every origin is read, or when `hooks.signal` aborts.
   */
  async readSitemaps(
    origins: readonly string[],
    options: Required<SitemapOptions>,
    hooks: SitemapHooks,
  ): Promise<void> {
    await Promise.all(
      origins.map(
        (origin) =>
          new Promise<void>((resolve) => {
            if (hooks.signal?.aborted || this.isClosed) return resolve();
            const done = () => {
              if (this.sitemapReads.get(origin)?.done === done) this.sitemapReads.delete(origin);
              hooks.signal?.removeEventListener('abort', done);
              resolve();
            };
            this.sitemapReads.set(origin, { hooks, done });
            hooks.signal?.addEventListener('abort', done, { once: true });
            const host = hostOf(origin);
            const request = encodeRequest({ url: origin, host, domain: '', depth: 0 }, this.epoch, {
              sitemaps: options,
            });
            this.cmd
              .xadd(this.keys.requests(shardOf(host, this.options.shards)), '*', ...request)
              .catch(done);
          }),
      ),
    );
  }

  /**
   * Publishes the judge relevance feedback swapped in: the files of `modelDir` go into Redis
   * (a few hundred KB for the linear models), then the version, which workers read every lease
   * round (a fifth of the lease life) and load. Each outcome says which version judged its page.
   * @throws ConfigError when the folder cannot be read.
   */
  async publishJudge(modelDir: string, version: number): Promise<void> {
    const files = modelFiles(modelDir);
    const tx = this.cmd
      .multi()
      .hset(this.keys.judgeFiles(version), files)
      .set(this.keys.judgeVersion, String(version));
    // Redis keeps the current model only (a worker still loading the previous one skips it).
    if (version > 1) tx.del(...Array.from({ length: version - 1 }, (_, i) => this.keys.judgeFiles(i + 1)));
    await tx.exec();
  }

  recorded(url: string): void {
    const ids = this.toAck.get(url) ?? [];
    this.toAck.delete(url);
    const late = this.unclaimed.get(url);
    if (late) {
      ids.push(late.id);
      this.unclaimed.delete(url);
    }
    this.ack(ids);
  }

  async close(): Promise<void> {
    if (this.isClosed || this.cmd === undefined) return;
    this.isClosed = true;
    await this.reading;
    for (const w of this.waiting.values()) w.reject(new Error('the cluster coordinator closed'));
    this.waiting.clear();
    this.flushAcks();
    await this.cmd.quit().catch(() => {});
    this.reader.disconnect();
  }

  /** Entries left by a previous run: pending to this consumer, then unread; not blocking. */
  private async drainAtStart(): Promise<ArrivedFetch[]> {
    const byUrl = new Map<string, ArrivedFetch>();
    for (const start of ['0', '>']) {
      for (;;) {
        const reply = await this.cmd.xreadgroup(
          'GROUP',
          COORDINATOR_GROUP,
          COORDINATOR_CONSUMER,
          'COUNT',
          1000,
          'STREAMS',
          this.keys.outcomes,
          start === '0' ? '0' : '>',
        );
        const entries = entriesOf(reply);
        if (entries.length === 0) break;
        for (const { id, fields } of entries) {
          this.stats.outcomesRead++;
          const m = decodeOutcome(fields);
          if (m.page === undefined || this.ctx.isRecorded(m.url) || byUrl.has(m.url)) {
            if (m.page !== undefined) this.stats.duplicatesDropped++;
            this.ack([id]);
            continue;
          }
          const action = actionOf(m);
          const { record, outcome } = toProcessed(m.page, action, () => true);
          byUrl.set(m.url, { action, record, outcome });
          this.toAck.set(m.url, [id]);
        }
        // Pending entries come back in full on every read from 0: one pass is all of them.
        if (start === '0') break;
      }
    }
    this.stats.arrivedAtStart = byUrl.size;
    return [...byUrl.values()];
  }

  private async readLoop(): Promise<void> {
    while (!this.isClosed) {
      let reply: unknown;
      try {
        reply = await this.reader.xreadgroup(
          'GROUP',
          COORDINATOR_GROUP,
          COORDINATOR_CONSUMER,
          'COUNT',
          512,
          'BLOCK',
          this.options.blockMs,
          'STREAMS',
          this.keys.outcomes,
          '>',
        );
      } catch {
        // Redis away: ioredis reconnects; unacknowledged entries stay pending for a later run.
        await new Promise((r) => setTimeout(r, this.options.blockMs));
        continue;
      }
      for (const { id, fields } of entriesOf(reply)) {
        this.stats.outcomesRead++;
        this.answer(id, decodeOutcome(fields));
      }
    }
  }

  /** Hands an outcome to the fetch waiting for it, or keeps/drops it (see the file comment). */
  private answer(id: string, m: OutcomeMessage): void {
    if (m.sitemap !== undefined) {
      const read = m.epoch === this.epoch ? this.sitemapReads.get(m.url) : undefined;
      // onUrls stores the URLs as seeds before the entry is acknowledged.
      if (read !== undefined && m.sitemap.urls !== undefined)
        read.hooks.onUrls(m.sitemap.urls.filter((url) => read.hooks.isUrlAllowed(url)));
      if (read !== undefined && m.sitemap.event !== undefined) read.hooks.onSitemap?.(m.sitemap.event);
      if (read !== undefined && m.sitemap.isDone) read.done();
      this.ack([id]);
      return;
    }
    const waiting = this.waiting.get(m.url);
    if (waiting !== undefined && m.moved !== undefined) {
      // The page redirected to a host another worker owns: the rest of the chain goes there.
      this.ack([id]);
      this.stats.redirectsRouted++;
      const at = m.moved.to;
      const request = encodeRequest(waiting.action, this.epoch, {
        via: { at, redirects: m.moved.redirects },
      });
      this.cmd
        .xadd(this.keys.requests(shardOf(hostOf(at), this.options.shards)), '*', ...request)
        .catch((error: unknown) => {
          if (this.waiting.get(m.url) !== waiting) return;
          this.waiting.delete(m.url);
          this.politeness.release(waiting.action.host);
          waiting.reject(error);
        });
      return;
    }
    if (waiting === undefined) {
      if (
        m.page === undefined ||
        this.ctx.isRecorded(m.url) ||
        this.toAck.has(m.url) ||
        this.unclaimed.has(m.url)
      ) {
        this.stats.duplicatesDropped++;
        this.ack([id]);
      } else this.unclaimed.set(m.url, { id, message: m });
      return;
    }
    this.waiting.delete(m.url);
    this.politeness.release(waiting.action.host);
    if (m.failure !== undefined) {
      // Codes come from workers of the same tres (the catalogue's codes).
      const f = { ...m.failure, code: m.failure.code as ErrorCode };
      const options = { context: { url: m.url, status: f.status, worker: m.worker } };
      if (f.kind === 'skip') {
        this.toAck.set(m.url, [id]);
        waiting.reject(new SkipUrlError(f.code, f.message, options));
        return;
      }
      // Nothing to record for a retry or a deferral: the loop keeps the URL itself.
      this.ack([id]);
      const retry = { ...options, ...(f.retryAfterMs === undefined ? {} : { retryAfterMs: f.retryAfterMs }) };
      waiting.reject(
        f.kind === 'defer'
          ? new DeferUrlError(f.code, f.message, retry)
          : new RetryLaterError(f.code, f.message, retry),
      );
      return;
    }
    const page = m.page;
    if (page === undefined) {
      this.ack([id]);
      waiting.reject(
        new SkipUrlError('TRES_CLUSTER_BAD_OUTCOME', `worker ${m.worker} sent an empty outcome for ${m.url}`),
      );
      return;
    }
    this.toAck.set(m.url, [id]);
    const { record, outcome } = toProcessed(page, waiting.action, () => true);
    waiting.resolve({ record, outcome, warc: undefined });
  }

  /**
   * Acknowledges (and deletes) outcome entries. Those of one turn of the event loop go out in one
   * transaction: a transaction per page was a socket write per page, a fifth of the coordinator's
   * CPU time.
   */
  private ack(ids: string[]): void {
    if (ids.length === 0) return;
    if (this.pendingAcks.length === 0) setImmediate(() => this.flushAcks());
    this.pendingAcks.push(...ids);
  }

  private flushAcks(): void {
    const ids = this.pendingAcks.splice(0);
    if (ids.length === 0) return;
    const k = this.keys.outcomes;
    this.cmd
      .multi()
      .xack(k, COORDINATOR_GROUP, ...ids)
      .xdel(k, ...ids)
      .exec()
      .catch(() => {
        // Left pending: a later run reads it, finds the URL recorded and drops it.
      });
  }
}

/**
 * The files of a model folder, by name, to put in Redis.
 * @throws ConfigError naming the folder when it cannot be read.
 */
function modelFiles(modelDir: string): Record<string, Buffer> {
  const files: Record<string, Buffer> = {};
  try {
    for (const name of readdirSync(modelDir)) {
      const path = join(modelDir, name);
      if (statSync(path).isFile()) files[name] = readFileSync(path);
    }
  } catch (error) {
    throw new ConfigError(
      `cannot read the model folder ${modelDir} to send it to the workers: ${(error as Error).message}`,
      { context: { file: modelDir } },
    );
  }
  return files;
}

function actionOf(m: OutcomeMessage): Action {
  const r = m.page?.record;
  const action: Action = { url: m.url, host: r?.host ?? '', domain: r?.domain ?? '', depth: r?.depth ?? 0 };
  if (r?.parentUrl !== undefined) action.parentUrl = r.parentUrl;
  return action;
}

/**
 * The configuration workers read: everything they need to fetch, parse and judge as this crawl
 * would locally.
 * @throws ConfigError when the judge is an object workers cannot load (give a model folder or keywords).
 */
export function workerConfigOf(ctx: FetchRunnerContext, shards: number): WorkerCrawlConfig {
  const o = ctx.options;
  let judge: WorkerCrawlConfig['judge'];
  if (o.judgeSource !== undefined) judge = { modelDir: o.judgeSource };
  else if (o.judge === undefined && o.keywords?.length) judge = { keywords: [...o.keywords] };
  else
    throw new ConfigError(
      'a cluster crawl needs a relevance judge its workers can load: a model folder (--model) or --keywords',
      { context: { field: 'judge' } },
    );
  // Functions stay behind (isUrlAllowed: workers apply the crawl's scope themselves); RegExp
  // patterns travel as their source.
  const { isUrlAllowed: _f, ...net } = o.net;
  const pattern = (p: string | RegExp) => (typeof p === 'string' ? p : p.source);
  const urlFilter = {
    ...o.urlFilter,
    ...(o.urlFilter.includePatterns ? { includePatterns: o.urlFilter.includePatterns.map(pattern) } : {}),
    ...(o.urlFilter.excludePatterns ? { excludePatterns: o.urlFilter.excludePatterns.map(pattern) } : {}),
  };
  return {
    epoch: 0,
    shards,
    net,
    siteMode: o.siteMode,
    urlFilter,
    maxDepth: o.maxDepth,
    judge,
    threshold: o.relevanceThreshold,
    shouldFollowNofollow: o.shouldFollowNofollow,
    withLinkContext: ctx.needsLinkContext,
    ...(ctx.linkContextWindow === undefined ? {} : { linkContextWindow: ctx.linkContextWindow }),
    shouldScoreAnchors: ctx.needsAnchorScores,
    parseTimeBudgetMs: o.parseTimeBudgetMs,
  };
}
