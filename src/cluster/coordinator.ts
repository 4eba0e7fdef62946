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
import { randomBytes } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
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
import { ClusterFaultError, isNoGroup, isOutOfMemory } from './cluster-fault.js';
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
import { LOCK_RENEW_SCRIPT, RELEASE_SCRIPT } from './lease-scripts.js';
import {
  CLUSTER_PROTOCOL,
  decodeOutcome,
  encodeRequest,
  type OutcomeMessage,
  toProcessed,
  type WorkerCrawlConfig,
} from './messages.js';
import { closeNow, connectRedis, ensureGroup, entriesOf, redactUrl } from './redis-connection.js';

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
  /** Outcomes of another crawl under the same name (a worker finishing a fetch for it). */
  foreignDropped: number;
  /** Times Redis had lost the crawl's keys and the coordinator recreated them. */
  recoveries: number;
  /** Requests sent again by those recoveries. */
  requestsResent: number;
}

/** Options of {@link ClusterCoordinator}: the cluster's, plus how the URL flag was typed. */
export interface CoordinatorOptions extends ClusterOptions {
  /** The URL option as the user typed it, named in errors. @default '--cluster' */
  flag?: string;
  /**
   * Message sink for what the coordinator notices and does about Redis (unreachable, restarted
   * empty, recovered); `false` for none. @default false
   */
  log?: ((line: string) => void) | false;
}

/**
 * How many lease lives Redis may stay unreachable before the coordinator stops the crawl
 * (TRES_CLUSTER_UNREACHABLE): long enough for a restart, short enough not to look hung.
 */
export const REDIS_DOWN_LEASES = 3;

/** File in the crawl folder holding the crawl's cluster id (workers stop when it changes). */
export const CRAWL_ID_FILE = 'cluster-crawl-id';

/** The crawl id kept in `path`, or undefined (a crawl started before the file existed). */
function keptCrawlId(path: string): string | undefined {
  try {
    const id = readFileSync(path, 'utf8').trim();
    return /^[0-9a-f]{16}$/.test(id) ? id : undefined;
  } catch {
    return undefined;
  }
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
    foreignDropped: 0,
    recoveries: 0,
    requestsResent: 0,
  };
  private readonly keys: ClusterKeys;
  private readonly flag: string;
  private readonly clock: Clock;
  private readonly log: (line: string) => void;
  /** The value of the coordinator's lock while this coordinator holds it. */
  private readonly lockToken = `${hostname()}-${process.pid}-${randomBytes(4).toString('hex')}`;
  private crawlId = '';
  /** The configuration workers read, as published (kept for a recovery). */
  private config: WorkerCrawlConfig | undefined;
  /** The judge relevance feedback swapped in last (kept for a recovery). */
  private published: { modelDir: string; version: number } | undefined;
  private isConnected = false;
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
  private readonly sitemapReads = new Map<
    string,
    { hooks: SitemapHooks; done: () => void; options: Required<SitemapOptions> }
  >();
  private reading: Promise<void> | undefined;
  private listenedSignal: AbortSignal | undefined;
  private isClosed = false;
  /** Set once {@link close} closed the connections: no command is sent any more. */
  private isDisconnected = false;
  /** The fault that ended the cluster's side of the crawl; every fetch from then on rejects with it. */
  private fault: ClusterFaultError | undefined;
  /** URLs whose request could not be sent (Redis away): sent again once Redis answers. */
  private readonly unsent = new Set<string>();
  private watchTimer: ReturnType<typeof setTimeout> | undefined;
  /** Monotonic ms of Redis's last answer to the watch. */
  private lastAnswerMs = 0;
  private hasSaidDown = false;
  private recovering: Promise<void> | undefined;

  /** @throws ConfigError naming the field of a bad option. */
  constructor(options: CoordinatorOptions, deps: { clock?: Clock } = {}) {
    this.flag = options.flag ?? '--cluster';
    this.options = resolveClusterOptions(options, this.flag);
    this.keys = ClusterKeys.of(this.options.name);
    this.clock = deps.clock ?? systemClock;
    this.log = options.log === undefined || options.log === false ? () => {} : options.log;
  }

  /**
   * Connects to Redis and takes the crawl name's lock, before anything of the crawl is written
   * (the CLI calls it before it creates the crawl folder; {@link open} calls it otherwise). A
   * lock whose holder stopped renewing it (a killed coordinator) is waited for, up to a lease life.
   * @throws ClusterFaultError `unreachable` or `auth` (Redis), `busy` (a live coordinator holds
   *   the name); ConfigError for a database Redis does not have.
   */
  async connect(): Promise<void> {
    if (this.isConnected) return;
    const ttl = this.options.leaseTtlMs;
    this.cmd = await connectRedis(this.options.url, this.flag, {
      // Longer than the longest blocking read, shorter than the wait that ends the crawl.
      commandTimeoutMs: Math.max(5000, ttl) + this.options.blockMs,
      connectionName: `tres-coordinator-${this.options.name}`,
    });
    try {
      await this.takeLock();
    } catch (error) {
      this.cmd.disconnect();
      throw error;
    }
    this.reader = this.cmd.duplicate();
    this.reader.on('error', () => {});
    this.isConnected = true;
  }

  async open(ctx: FetchRunnerContext): Promise<ArrivedFetch[]> {
    this.ctx = ctx;
    const config = workerConfigOf(ctx, this.options.shards);
    await this.connect();
    try {
      return await this.start(config);
    } catch (error) {
      if (error instanceof ClusterFaultError || error instanceof ConfigError) throw error;
      if (isOutOfMemory(error)) throw redisFull(this.options.url, this.flag, error);
      throw new ClusterFaultError(
        'unreachable',
        `${this.flag} ${redactUrl(this.options.url)}: Redis failed while the crawl started (${firstLineOf(error)}); run the same command again once Redis answers`,
        { field: this.flag, cause: error },
      );
    }
  }

  /** Publishes the crawl in Redis and reads what a previous run left (see {@link open}). */
  private async start(config: WorkerCrawlConfig): Promise<ArrivedFetch[]> {
    const o = this.ctx.options;
    const k = this.keys;
    const previousRaw = await this.cmd.get(k.config);
    const previous = previousRaw === null ? undefined : (JSON.parse(previousRaw) as WorkerCrawlConfig);
    if (!o.isResume) {
      // A new crawl under a name used before starts from empty streams (SCAN, not KEYS: one
      // Redis may hold other crawls and much else). The lock is this coordinator's own.
      let cursor = '0';
      do {
        const [next, found] = await this.cmd.scan(cursor, 'MATCH', `${k.prefix}*`, 'COUNT', 1000);
        const stale = found.filter((key) => key !== k.coordinatorLock);
        if (stale.length > 0) await this.cmd.del(...stale);
        cursor = next;
      } while (cursor !== '0');
    } else {
      const shards = previous?.shards;
      if (shards !== undefined && shards !== this.options.shards) {
        throw new ConfigError(
          `the crawl "${this.options.name}" in Redis has ${shards} shards; resume it with the same number (not ${this.options.shards})`,
          { context: { field: 'shards' } },
        );
      }
    }
    // The crawl's id is kept in its folder too: a resume after Redis lost the crawl's keys keeps
    // it, so that the workers still running for the crawl do not take it for another one.
    const idFile = join(o.outDir, CRAWL_ID_FILE);
    const kept = o.isResume ? keptCrawlId(idFile) : undefined;
    this.crawlId = kept ?? (o.isResume ? previous?.crawlId : undefined) ?? randomBytes(8).toString('hex');
    if (kept !== this.crawlId) writeFileSync(idFile, `${this.crawlId}\n`);
    this.epoch = await this.cmd.incr(k.epoch);
    config.epoch = this.epoch;
    config.crawlId = this.crawlId;
    config.protocol = CLUSTER_PROTOCOL;
    if ('modelDir' in config.judge) config.judge.isInRedis = true;
    this.config = config;
    // Requests of an earlier run are stale: their URLs are back in the rebuilt frontier. Fetches of
    // them already under way still report, and are used below or when chosen again.
    await this.publishConfig();
    this.politeness = new Politeness(
      { minDelayMs: o.net.minDelayMs ?? 1000, maxConnectionsPerHost: 1 },
      { clock: this.clock },
    );
    const arrived = await this.drainAtStart();
    this.reading = this.readLoop();
    this.lastAnswerMs = this.clock.monotonicMs();
    this.scheduleWatch();
    return arrived;
  }

  /**
   * Empties the request streams and creates their group, puts the judge's files and the
   * configuration (with this run's epoch) in Redis, and creates the outcome group (from the
   * stream's start: outcomes workers sent before it existed are read too).
   */
  private async publishConfig(): Promise<void> {
    const k = this.keys;
    const config = this.config as WorkerCrawlConfig;
    const pipe = this.cmd.multi();
    for (let s = 0; s < this.options.shards; s++) {
      pipe.del(k.requests(s));
      pipe.xgroup('CREATE', k.requests(s), WORKER_GROUP, '$', 'MKSTREAM');
    }
    if ('modelDir' in config.judge) {
      // The crawl's own model travels through Redis too: workers need no copy of the folder.
      pipe.del(k.judgeFiles(0)).hset(k.judgeFiles(0), modelFiles(config.judge.modelDir));
    }
    if (this.published !== undefined) {
      pipe
        .hset(k.judgeFiles(this.published.version), modelFiles(this.published.modelDir))
        .set(k.judgeVersion, String(this.published.version));
    }
    pipe.set(k.epoch, String(this.epoch));
    pipe.set(k.config, JSON.stringify(config));
    const replies = (await pipe.exec()) ?? [];
    const failed = replies.find(([error]) => error !== null)?.[0];
    if (failed) throw failed;
    await ensureGroup(this.cmd, k.outcomes, COORDINATOR_GROUP, '0');
  }

  /** Takes the crawl name's lock (see {@link connect}). */
  private async takeLock(): Promise<void> {
    const k = this.keys;
    const ttl = this.options.leaseTtlMs;
    let lastPttl: number | undefined;
    let lastAtMs = 0;
    let lastHolder: string | null = null;
    for (;;) {
      if ((await this.cmd.set(k.coordinatorLock, this.lockToken, 'PX', ttl, 'NX')) === 'OK') return;
      const [holder, pttl] = await Promise.all([
        this.cmd.get(k.coordinatorLock),
        this.cmd.pttl(k.coordinatorLock),
      ]);
      const atMs = this.clock.monotonicMs();
      if (holder === null) continue; // expired between the two calls
      // A live holder renews every fifth of its lease life: its lock's life grows back instead of
      // running down with the time that passed.
      const elapsedMs = atMs - lastAtMs;
      if (lastPttl !== undefined && (holder !== lastHolder || pttl > lastPttl - elapsedMs + ttl * 0.15)) {
        throw new ClusterFaultError(
          'busy',
          `--cluster-name ${this.options.name}: another coordinator (${holder}) is running this crawl on ${redactUrl(this.options.url)}; stop it first, or give another --cluster-name`,
          { field: '--cluster-name' },
        );
      }
      if (lastPttl === undefined) {
        this.log(
          `the lock of crawl "${this.options.name}" is held by ${holder} (${pttl} ms left): waiting to see whether it is alive`,
        );
      }
      lastPttl = pttl;
      lastAtMs = atMs;
      lastHolder = holder;
      // Half a lease life between looks: a live holder renews at least twice meanwhile, so its
      // lock's life ends up at least 0.3 lease lives above what mere waiting leaves.
      await sleep(Math.max(50, Math.min(pttl + 20, Math.ceil(ttl / 2))));
    }
  }

  isHostReady(host: string): boolean {
    return this.politeness.isHostReady(host);
  }

  fetch(action: Action, signal: AbortSignal): Promise<ProcessedFetch> {
    return new Promise<ProcessedFetch>((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason);
      if (this.fault !== undefined) return reject(this.fault);
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
      this.stats.requestsSent++;
      this.send(action);
    });
  }

  /**
   * Puts the request of a waiting fetch on its shard's stream. A request Redis refuses for lack
   * of memory ends the crawl (TRES_CLUSTER_REDIS_FULL); one that cannot be sent now (Redis away)
   * is sent again by the watch once Redis answers.
   */
  private send(action: Action, extra: Parameters<typeof encodeRequest>[2] = {}): void {
    const shard = shardOf(hostOf(extra.via?.at ?? action.url), this.options.shards);
    this.cmd
      .xadd(this.keys.requests(shard), '*', ...encodeRequest(action, this.epoch, extra))
      .catch((error: unknown) => {
        if (this.isClosed || !this.waiting.has(action.url)) return;
        if (isOutOfMemory(error)) this.fail(redisFull(this.options.url, this.flag, error));
        else this.unsent.add(action.url);
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
            this.sitemapReads.set(origin, { hooks, done, options });
            hooks.signal?.addEventListener('abort', done, { once: true });
            this.sendSitemapRequest(origin, options);
          }),
      ),
    );
  }

  /** Asks the holder of the origin's shard to read its sitemaps (a failure to send ends the reading). */
  private sendSitemapRequest(origin: string, options: Required<SitemapOptions>): void {
    const host = hostOf(origin);
    const request = encodeRequest({ url: origin, host, domain: '', depth: 0 }, this.epoch, {
      sitemaps: options,
    });
    this.cmd
      .xadd(this.keys.requests(shardOf(host, this.options.shards)), '*', ...request)
      .catch(() => this.sitemapReads.get(origin)?.done());
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
    this.published = { modelDir, version };
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

  /**
   * Ends the cluster's side: rejects what still waits, acknowledges what was recorded and gives
   * the lock back. Bounded in time: with Redis away it waits at most a second for it.
   */
  async close(): Promise<void> {
    if (this.isClosed || !this.isConnected) return;
    this.isClosed = true;
    clearTimeout(this.watchTimer);
    // The blocking read fails at once: the read loop ends.
    closeNow(this.reader);
    await this.reading;
    for (const w of this.waiting.values())
      w.reject(this.fault ?? new Error('the cluster coordinator closed'));
    this.waiting.clear();
    for (const read of [...this.sitemapReads.values()]) read.done();
    this.flushAcks();
    // With Redis away there is nobody to say goodbye to: close at once.
    if (this.cmd.status === 'ready') {
      // A stopped coordinator's successor (--resume) need not wait for the lock to expire.
      if (this.fault?.kind !== 'busy')
        await within(this.cmd.eval(RELEASE_SCRIPT, 1, this.keys.coordinatorLock, this.lockToken), 1000);
      await within(this.cmd.quit(), 1000);
    }
    closeNow(this.cmd);
    this.isDisconnected = true;
  }

  // ---- Redis's health: the watch ---------------------------------------------------------------

  /** Tells the operator once that Redis has not answered for a lease life or more. */
  private sayDown(reason?: string): void {
    if (this.hasSaidDown || this.isClosed || this.fault !== undefined) return;
    this.hasSaidDown = true;
    const downMs = this.clock.monotonicMs() - this.lastAnswerMs;
    this.log(
      `Redis at ${redactUrl(this.options.url)} has not answered for ${Math.round(downMs / 1000)} s${reason === undefined ? '' : ` (${reason})`}; waiting up to ${Math.round((REDIS_DOWN_LEASES * this.options.leaseTtlMs) / 1000)} s for it (Ctrl-C twice stops now)`,
    );
  }

  private scheduleWatch(): void {
    if (this.isClosed || this.fault !== undefined) return;
    this.watchTimer = setTimeout(
      () => {
        void this.watch().finally(() => this.scheduleWatch());
      },
      Math.floor(this.options.leaseTtlMs / 5),
    );
  }

  /**
   * Every fifth of a lease life: renews the lock, which also tells whether Redis still holds the
   * crawl (a Redis restarted empty or flushed has lost it: {@link recover}) and whether another
   * coordinator took the name over; sends the requests Redis could not take; and ends the crawl
   * when Redis has not answered for {@link REDIS_DOWN_LEASES} lease lives.
   */
  private async watch(): Promise<void> {
    const ttl = this.options.leaseTtlMs;
    // A command to a Redis that went away fails only after its timeout, which can be longer than
    // a lease life: the operator is told of the silence when it reaches a lease life, not then.
    const silence = setTimeout(
      () => this.sayDown(),
      Math.max(0, this.lastAnswerMs + ttl - this.clock.monotonicMs()),
    );
    let held: number;
    try {
      held = Number(
        await this.cmd.eval(LOCK_RENEW_SCRIPT, 1, this.keys.coordinatorLock, this.lockToken, ttl),
      );
    } catch (error) {
      if (isOutOfMemory(error)) {
        this.fail(redisFull(this.options.url, this.flag, error));
        return;
      }
      const downMs = this.clock.monotonicMs() - this.lastAnswerMs;
      if (downMs >= REDIS_DOWN_LEASES * ttl) {
        this.fail(
          new ClusterFaultError(
            'unreachable',
            `${this.flag} ${redactUrl(this.options.url)}: Redis has not answered for ${Math.round(downMs / 1000)} s (${(error as Error).message}); the crawl stopped with every recorded page in its store: start Redis and run the same command with --resume`,
            { field: this.flag, cause: error },
          ),
        );
      } else if (downMs >= ttl) {
        this.sayDown((error as Error).message);
      }
      return;
    } finally {
      clearTimeout(silence);
    }
    this.lastAnswerMs = this.clock.monotonicMs();
    if (this.hasSaidDown) {
      this.hasSaidDown = false;
      this.log(`Redis at ${redactUrl(this.options.url)} answers again`);
    }
    if (held === -1) {
      const holder = await this.cmd.get(this.keys.coordinatorLock).catch(() => null);
      this.fail(
        new ClusterFaultError(
          'busy',
          `--cluster-name ${this.options.name}: another coordinator (${holder ?? 'unknown'}) took this crawl over in Redis; this one stopped with every recorded page in its store`,
          { field: '--cluster-name' },
        ),
      );
      return;
    }
    try {
      if (held === 0) await this.recover('the lock was gone');
      if (this.unsent.size > 0) this.resendUnsent();
    } catch (error) {
      if (isOutOfMemory(error)) this.fail(redisFull(this.options.url, this.flag, error));
      else this.log(`could not restore the crawl in Redis yet (${(error as Error).message}); trying again`);
    }
  }

  /**
   * Redis lost the crawl's keys (restarted without persistence, flushed) or its lock expired:
   * takes the lock again, and if the configuration or the outcome group is gone, publishes them
   * again with the request streams and sends every request still waiting for an outcome again.
   * The store is the authority: a waiting URL is not recorded, so it is fetched again, and an
   * outcome that arrives twice is recorded once.
   */
  private recover(why: string): Promise<void> {
    this.recovering ??= this.recoverNow(why).finally(() => {
      this.recovering = undefined;
    });
    return this.recovering;
  }

  private async recoverNow(why: string): Promise<void> {
    if (this.isClosed || this.fault !== undefined) return;
    const k = this.keys;
    const ttl = this.options.leaseTtlMs;
    const took = await this.cmd.set(k.coordinatorLock, this.lockToken, 'PX', ttl, 'NX');
    if (took !== 'OK') {
      const renewed = Number(
        await this.cmd.eval(LOCK_RENEW_SCRIPT, 1, k.coordinatorLock, this.lockToken, ttl),
      );
      if (renewed !== 1) {
        const holder = await this.cmd.get(k.coordinatorLock);
        this.fail(
          new ClusterFaultError(
            'busy',
            `--cluster-name ${this.options.name}: another coordinator (${holder ?? 'unknown'}) took this crawl over in Redis while it had lost its keys; this one stopped with every recorded page in its store`,
            { field: '--cluster-name' },
          ),
        );
        return;
      }
    }
    const raw = await this.cmd.get(k.config);
    const stored = raw === null ? undefined : (JSON.parse(raw) as WorkerCrawlConfig);
    const hasGroup = await this.cmd
      .xinfo('GROUPS', k.outcomes)
      .then((groups) => (groups as unknown[][]).some((g) => g[1] === COORDINATOR_GROUP))
      .catch(() => false);
    if (stored?.epoch === this.epoch && stored.crawlId === this.crawlId && hasGroup) {
      // Only the lock had expired (this process paused longer than a lease life): nothing lost.
      this.log(`took the lock of crawl "${this.options.name}" again (${why}); the crawl's keys were intact`);
      return;
    }
    this.log(
      `Redis lost the keys of crawl "${this.options.name}" (${why}: restarted empty or flushed); recreating them and sending the ${this.waiting.size} requests in flight again`,
    );
    await this.publishConfig();
    this.stats.recoveries++;
    for (const w of this.waiting.values()) {
      this.stats.requestsResent++;
      this.send(w.action);
    }
    this.unsent.clear();
    for (const [origin, read] of this.sitemapReads) this.sendSitemapRequest(origin, read.options);
  }

  private resendUnsent(): void {
    const urls = [...this.unsent];
    this.unsent.clear();
    for (const url of urls) {
      const w = this.waiting.get(url);
      if (w !== undefined) this.send(w.action);
    }
  }

  /**
   * Ends the cluster's side of the crawl with `fault`: every fetch waiting and every later one
   * rejects with it, which stops the crawl loop (a StopCrawlError) with the store intact.
   */
  private fail(fault: ClusterFaultError): void {
    if (this.fault !== undefined || this.isClosed) return;
    this.fault = fault;
    clearTimeout(this.watchTimer);
    for (const w of [...this.waiting.values()]) w.reject(fault);
    this.waiting.clear();
    for (const read of [...this.sitemapReads.values()]) read.done();
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
    // A read that failed (timed out while Redis was paused or away) may still have been served
    // once Redis answered: its entries are then pending to this consumer, and only a read from
    // 0 (this consumer's pending entries) brings them back.
    let shouldReadPending = false;
    while (!this.isClosed) {
      let reply: unknown;
      const isPendingRead = shouldReadPending;
      try {
        reply = isPendingRead
          ? await this.reader.xreadgroup(
              'GROUP',
              COORDINATOR_GROUP,
              COORDINATOR_CONSUMER,
              'COUNT',
              512,
              'STREAMS',
              this.keys.outcomes,
              '0',
            )
          : await this.reader.xreadgroup(
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
        shouldReadPending = false;
      } catch (error) {
        if (this.isClosed) break;
        shouldReadPending = true;
        // The outcome group is gone (Redis restarted empty, keys deleted): recreate the crawl's
        // keys now rather than at the next watch. Other failures (Redis away) are the watch's to
        // judge; unacknowledged entries stay pending.
        if (isNoGroup(error)) await this.recover('the outcome group was gone').catch(() => {});
        await sleep(this.options.blockMs);
        continue;
      }
      // Entries answered already and waiting for their acknowledgement are not answered twice.
      const handled = isPendingRead
        ? new Set([
            ...[...this.toAck.values()].flat(),
            ...this.pendingAcks,
            ...[...this.unclaimed.values()].map((u) => u.id),
          ])
        : undefined;
      for (const { id, fields } of entriesOf(reply)) {
        if (handled?.has(id)) continue;
        this.stats.outcomesRead++;
        this.answer(id, decodeOutcome(fields));
      }
    }
  }

  /** Hands an outcome to the fetch waiting for it, or keeps/drops it (see the file comment). */
  private answer(id: string, m: OutcomeMessage): void {
    if (m.crawl !== undefined && m.crawl !== this.crawlId) {
      // A worker finishing a fetch for the crawl that used this name before.
      this.stats.foreignDropped++;
      this.ack([id]);
      return;
    }
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
      // A recovery sends the request again from its start (the chain is not kept).
      this.send(waiting.action, { via: { at: m.moved.to, redirects: m.moved.redirects } });
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
    // After close (the connection is gone): left pending, as below.
    if (ids.length === 0 || this.isDisconnected) return;
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

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Waits for `promise` (its failure ignored) at most `ms`; the timer does not outlive the wait. */
async function within(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    promise.then(
      () => {},
      () => {},
    ),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
    }),
  ]);
  clearTimeout(timer);
}

/** Redis refused a write for lack of memory. */
export function redisFull(url: string, flag: string, cause: unknown): ClusterFaultError {
  return new ClusterFaultError(
    'full',
    `${flag} ${redactUrl(url)}: Redis is out of memory (${firstLineOf(cause)}); raise its maxmemory or free memory there, then run the same command with --resume (every recorded page is in the store)`,
    { field: flag, cause },
  );
}

function firstLineOf(error: unknown): string {
  return String((error as Error | undefined)?.message ?? error).split('\n')[0] ?? '';
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
