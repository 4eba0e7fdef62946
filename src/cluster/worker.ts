/**
 * A cluster worker (`tres worker --cluster URL`): holds leases on shards of hosts, reads the fetch
 * requests of its shards from their streams (consumer group `workers`), fetches politely, parses,
 * judges, writes the exchange to its own WARC file and sends the outcome back. Only the holder of a
 * shard's lease fetches from its hosts, so minimum delay, Crawl-delay, robots.txt and one
 * connection per host hold across machines.
 *
 * Leases: `SET lease:i <token> NX PX ttl`, renewed every ttl/5 by a script that checks the token
 * (lease-scripts.ts). Each worker aims at a fair share, ceil(shards / live workers; live = members
 * of the heartbeat sorted set), taking free shards and releasing extra ones once nothing of them is
 * in flight. A shard taken over from a dead worker waits one minimum delay before its first fetch
 * (its hosts' last requests may have just ended) and claims the dead worker's pending requests
 * with XAUTOCLAIM.
 *
 * Fencing: right before each request leaves (every page hop and robots.txt request, after the
 * host's politeness wait), the worker confirms in Redis that the host's shard lease still holds its
 * token with more than LEASE_MARGIN_MS to live, and then that no more time than that has passed on
 * its own monotonic clock since it asked. A worker paused or starved past its lease therefore
 * never sends a request to a host that another worker may own by then.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import type { Redis } from 'ioredis';
import {
  type Clock,
  ConfigError,
  createRng,
  DeferUrlError,
  errorCode,
  RetryLaterError,
  SkipUrlError,
  systemClock,
  TresError,
} from '../common/index.js';
import type { PageJudge } from '../crawl/index.js';
import { KeywordJudge, LinkProcessor, processFetch, readSitemaps, toWarcPayload } from '../crawl/index.js';
import { DEFAULT_WEB_CLIENT_OPTIONS, type PageFetch, WebClient } from '../net/index.js';
import { WorkerWarcFile } from '../store/index.js';
import type { Action } from '../types/index.js';
import { hostOf } from '../url/index.js';
import { ClusterFaultError, isNoGroup } from './cluster-fault.js';
import {
  ClusterKeys,
  type ClusterOptions,
  type ResolvedClusterOptions,
  resolveClusterOptions,
  shardOf,
  WORKER_GROUP,
} from './cluster-options.js';
import {
  ACQUIRE_SCRIPT,
  FENCE_SCRIPT,
  ForeignHostError,
  HEARTBEAT_SCRIPT,
  LEASE_MARGIN_MS,
  LeaseLostError,
  RELEASE_SCRIPT,
  RENEW_SCRIPT,
} from './lease-scripts.js';
import {
  CLUSTER_PROTOCOL,
  decodeRequest,
  encodeOutcome,
  type FetchFailure,
  type FetchRequest,
  type OutcomeMessage,
  pageMessage,
  type WorkerCrawlConfig,
} from './messages.js';
import { closeNow, connectRedis, entriesOf, redactUrl } from './redis-connection.js';

/** Options of {@link ClusterWorker}. */
export interface WorkerOptions extends ClusterOptions {
  /** Worker id (names its consumer and its WARC file). @default `<hostname>-<pid>` */
  id?: string;
  /** Folder of the worker's WARC file `<id>.warc.gz`; `false` writes none. @default 'warc' */
  warcDir?: string | false;
  /** Fetches in flight at most. @default 64 */
  maxConcurrency?: number;
  /** The URL option as the user typed it, named in errors. @default '--cluster' */
  flag?: string;
  /** Message sink for lease changes and waiting; `false` for none. @default false */
  log?: ((line: string) => void) | false;
  /**
   * After {@link ClusterWorker.stop}, how long in ms Redis may stay unreachable before the worker
   * quits anyway, without reporting its fetches in flight or giving its leases back (their
   * requests stay pending; another worker takes them over once the leases expire). @default 5000
   */
  stopWaitMs?: number;
}

/** Defaults of {@link WorkerOptions} beyond the cluster's. */
export const DEFAULT_WORKER_OPTIONS = Object.freeze({
  warcDir: 'warc',
  maxConcurrency: 64,
  flag: '--cluster',
  stopWaitMs: 5000,
});

/** What a worker did, for its exit line and benchmarks. */
export interface WorkerSummary {
  id: string;
  fetched: number;
  failed: number;
  /** Requests of a shard taken over from another worker (XAUTOCLAIM). */
  claimed: number;
  shardsTaken: number;
  shardsReleased: number;
  warcFile: string | undefined;
}

interface HeldShard {
  /** The lease's value in Redis: this worker's id and the round it was taken in. */
  token: string;
  /** Monotonic ms before which no request of the shard is read (handover quiet time). */
  readyAtMs: number;
  /** Monotonic ms the lease is known to hold until (last renewal + ttl). */
  validUntilMs: number;
  inFlight: number;
  /** Stream entry ids of the shard's requests this worker is working on. */
  entries: Set<string>;
  /**
   * Monotonic ms of the last claim of the shard's pending requests (undefined: not yet). The first
   * claim takes every pending entry (a dead holder's); later ones, every lease life, take entries
   * pending longer than that to anyone: a request read by a worker just as it lost the shard stays
   * pending to it, and nobody else would fetch it.
   */
  claimedAtMs: number | undefined;
  isReleasing: boolean;
  abort: AbortController;
}

/** One worker process's fetch side (see the file comment). */
export class ClusterWorker {
  readonly id: string;
  readonly options: ResolvedClusterOptions;
  private readonly o: Required<Omit<WorkerOptions, keyof ClusterOptions | 'id' | 'log'>>;
  private readonly log: (line: string) => void;
  private readonly keys: ClusterKeys;
  private readonly clock: Clock;
  private cmd!: Redis;
  private reader!: Redis;
  private config!: WorkerCrawlConfig;
  private client: WebClient | undefined;
  private links!: LinkProcessor;
  private judge!: PageJudge;
  /** Version of {@link judge}: 0 for the crawl's own, then each model relevance feedback swapped in. */
  private judgeVersion = 0;
  /** Folders of swapped-in models this worker wrote (removed when it ends). */
  private readonly judgeDirs: string[] = [];
  /** A swapped-in version that could not be loaded (not tried again). */
  private failedJudgeVersion = 0;
  private warc: WorkerWarcFile | undefined;
  private readonly held = new Map<number, HeldShard>();
  private inFlight = 0;
  private isStopping = false;
  /** A fault that ends this worker (a crawl of another tres version), thrown by {@link run}. */
  private fault: ClusterFaultError | undefined;
  /** Whether the loss of the crawl's streams has been said (once per loss). */
  private hasSaidStreamsGone = false;
  /** Set when the worker quits without Redis (see {@link WorkerOptions.stopWaitMs}): why. */
  private forcedWhy: string | undefined;
  private stopWatch: ReturnType<typeof setInterval> | undefined;
  private expiryTimer: ReturnType<typeof setInterval> | undefined;
  private onGiveUp: () => void = () => {};
  /** Rounds in which this worker took leases: the n of its lease tokens. */
  private leaseRounds = 0;
  /** Sleepers of the read loop (and waits), woken early by {@link wake}. */
  private readonly sleepers = new Set<() => void>();
  /**
   * Sleepers of the lease loop, woken early only by a stop: waking it on every finished fetch
   * (as once) renewed the leases and beat the heart after every page, most of Redis's commands.
   */
  private readonly leaseSleepers = new Set<() => void>();
  private readonly summaryCounts = { fetched: 0, failed: 0, claimed: 0, shardsTaken: 0, shardsReleased: 0 };

  /** @throws ConfigError naming the field of a bad option. */
  constructor(options: WorkerOptions, deps: { clock?: Clock } = {}) {
    const flag = options.flag ?? DEFAULT_WORKER_OPTIONS.flag;
    this.options = resolveClusterOptions(options, flag);
    this.id = options.id ?? `${hostname()}-${process.pid}`;
    if (!/^[A-Za-z0-9._-]{1,100}$/.test(this.id)) {
      throw new ConfigError(
        `worker id must be letters, digits, '.', '_' or '-', got ${JSON.stringify(this.id)}`,
        {
          context: { field: 'id' },
        },
      );
    }
    const maxConcurrency = options.maxConcurrency ?? DEFAULT_WORKER_OPTIONS.maxConcurrency;
    if (!Number.isInteger(maxConcurrency) || maxConcurrency < 1) {
      throw new ConfigError(`worker maxConcurrency must be an integer >= 1, got ${maxConcurrency}`, {
        context: { field: 'maxConcurrency' },
      });
    }
    const stopWaitMs = options.stopWaitMs ?? DEFAULT_WORKER_OPTIONS.stopWaitMs;
    if (!Number.isInteger(stopWaitMs) || stopWaitMs < 0) {
      throw new ConfigError(`worker stopWaitMs must be an integer >= 0, got ${stopWaitMs}`, {
        context: { field: 'stopWaitMs' },
      });
    }
    this.o = { warcDir: options.warcDir ?? DEFAULT_WORKER_OPTIONS.warcDir, maxConcurrency, flag, stopWaitMs };
    this.log = options.log === undefined || options.log === false ? () => {} : options.log;
    this.keys = ClusterKeys.of(this.options.name);
    this.clock = deps.clock ?? systemClock;
  }

  /**
   * Works until {@link stop}: waits for a coordinator's configuration, then fetches for it.
   * @throws ConfigError when Redis cannot be reached or the configuration cannot be used.
   */
  async run(): Promise<WorkerSummary> {
    this.cmd = await connectRedis(this.options.url, this.o.flag, {
      // Longer than the longest blocking read; a command sent while Redis is away fails after it.
      commandTimeoutMs: Math.max(5000, this.options.leaseTtlMs) + this.options.blockMs,
      connectionName: `tres-worker-${this.id}`,
    });
    this.reader = this.cmd.duplicate();
    this.reader.on('error', () => {});
    if (this.isStopping) this.watchStop();
    // Commands sent while Redis is away may never settle (ioredis keeps them for a reconnection
    // that a closed client never makes): giving up on Redis ends the wait for the loops.
    const givenUp = new Promise<void>((resolve) => {
      this.onGiveUp = resolve;
    });
    try {
      await Promise.race([this.work(), givenUp]);
    } catch (error) {
      // Commands failing because the worker gave up on Redis: the error is that, said below.
      if (this.forcedWhy === undefined) throw error;
    } finally {
      clearInterval(this.stopWatch);
      clearInterval(this.expiryTimer);
      await this.client?.close();
      this.warc?.close();
      for (const dir of this.judgeDirs) rmSync(dir, { recursive: true, force: true });
      if (this.forcedWhy === undefined) {
        await this.cmd.zrem(this.keys.workers, this.id).catch(() => {});
        await this.cmd.quit().catch(() => {});
      }
      closeNow(this.cmd);
      closeNow(this.reader);
    }
    if (this.fault !== undefined) throw this.fault;
    if (this.forcedWhy !== undefined) {
      throw new TresError(
        'TRES_CLUSTER_REDIS_GONE',
        `worker ${this.id}: ${this.forcedWhy}; quit without reporting its fetches in flight or giving its shards back (their requests stay pending, and another worker takes them over once the leases expire)`,
        { context: { field: this.o.flag } },
      );
    }
    return { id: this.id, ...this.summaryCounts, warcFile: this.warc?.path };
  }

  /** Loads the configuration, then runs the lease and read loops until a stop; then cleans up. */
  private async work(): Promise<void> {
    await this.loadConfig();
    // Fetches of a shard whose lease runs out are aborted on time, even while the loops wait.
    this.expiryTimer = setInterval(() => this.expireLeases(), 100);
    const leases = this.leaseLoop().finally(() => clearInterval(this.expiryTimer));
    // A loop that fails stops the other one, so that run() ends.
    await this.readLoop().finally(() => this.stop());
    await leases;
    await this.waitIdle();
    await this.releaseAll();
  }

  /**
   * Stops reading requests; fetches in flight finish and report, then leases are released. If
   * Redis is unreachable for `stopWaitMs` meanwhile, the worker quits without them ({@link run}
   * then throws TRES_CLUSTER_REDIS_GONE).
   */
  stop(): void {
    if (this.isStopping) return;
    this.isStopping = true;
    if (this.cmd !== undefined) this.watchStop();
    this.wake(true);
  }

  /** While stopping: quits once Redis has been unreachable for `stopWaitMs`. */
  private watchStop(): void {
    let downSinceMs: number | undefined;
    const check = () => {
      const isUp = this.cmd.status === 'ready' && this.reader.status === 'ready';
      if (isUp) {
        downSinceMs = undefined;
        return;
      }
      const now = this.clock.monotonicMs();
      downSinceMs ??= now;
      if (now - downSinceMs >= this.o.stopWaitMs) {
        this.quitNow(
          `Redis at ${redactUrl(this.options.url)} (${this.o.flag}) did not answer for ${this.o.stopWaitMs} ms after the stop`,
        );
      }
    };
    this.stopWatch = setInterval(check, Math.max(10, Math.min(250, this.o.stopWaitMs / 4)));
    check();
  }

  /**
   * Gives up on Redis: aborts every fetch (their requests stay pending for the next holder) and
   * closes the connections, which fails the commands waiting in them, so that {@link run} ends.
   */
  private quitNow(why: string): void {
    if (this.forcedWhy !== undefined) return;
    this.forcedWhy = why;
    this.isStopping = true;
    for (const [shard, h] of this.held) h.abort.abort(new LeaseLostError(shard));
    this.held.clear();
    closeNow(this.cmd);
    closeNow(this.reader);
    this.wake(true);
    this.onGiveUp();
  }

  /** Waits for the coordinator's configuration (polling), and builds the fetch side from it. */
  private async loadConfig(): Promise<void> {
    let hasSaidWaiting = false;
    for (;;) {
      const raw = await this.cmd.get(this.keys.config);
      if (raw !== null) {
        await this.applyConfig(JSON.parse(raw) as WorkerCrawlConfig);
        return;
      }
      if (this.isStopping) return;
      if (!hasSaidWaiting)
        this.log(`waiting for a coordinator (tres crawl --cluster) of crawl "${this.options.name}"`);
      hasSaidWaiting = true;
      await this.sleep(250);
    }
  }

  /** @throws ClusterFaultError `protocol` for a crawl written by another tres version. */
  private async applyConfig(config: WorkerCrawlConfig): Promise<void> {
    if ((config.protocol ?? 1) !== CLUSTER_PROTOCOL) {
      throw new ClusterFaultError(
        'protocol',
        `worker ${this.id}: the crawl "${this.options.name}" in Redis was started by a tres of cluster protocol ${config.protocol ?? 1}, and this worker speaks protocol ${CLUSTER_PROTOCOL}; run the same tres version as the coordinator`,
        { field: '--cluster-name' },
      );
    }
    if (
      this.config !== undefined &&
      this.config.epoch === config.epoch &&
      this.config.crawlId === config.crawlId
    )
      return;
    if (config.shards !== this.options.shards) {
      // The coordinator's shard count wins (it fixed it for the crawl).
      (this.options as { shards: number }).shards = config.shards;
    }
    this.links = new LinkProcessor({
      siteMode: config.siteMode,
      urlFilter: config.urlFilter,
      maxDepth: config.maxDepth,
    });
    await this.client?.close();
    // Defence in depth: the address guard (in the fetcher) and the crawl's scope apply to every
    // request and every redirect hop, whatever the coordinator sent.
    this.client = new WebClient(
      {
        ...config.net,
        isUrlAllowed: (url) => this.links.isUrlAllowed(url),
        beforeRequest: (url) => this.fence(url),
      },
      { clock: this.clock },
    );
    if ('modelDir' in config.judge && config.judge.isInRedis === true)
      this.judge = await this.judgeFromRedis(0);
    else if ('modelDir' in config.judge) {
      const { loadModel } = await import('../relevance/index.js');
      this.judge = await loadModel(config.judge.modelDir);
    } else this.judge = new KeywordJudge({ keywords: config.judge.keywords });
    // The crawl's own judge again (a new coordinator run): a swapped-in one is loaded next round.
    this.judgeVersion = 0;
    this.failedJudgeVersion = 0;
    if (this.o.warcDir !== false && this.warc === undefined) {
      this.warc = new WorkerWarcFile(resolve(join(this.o.warcDir, `${this.id}.warc.gz`)), this.clock.now(), {
        'tres-worker': this.id,
      });
    }
    this.config = config;
  }

  // ---- leases ------------------------------------------------------------------------------

  private async leaseLoop(): Promise<void> {
    const rng = createRng(`lease/${this.id}`);
    const every = Math.floor(this.options.leaseTtlMs / 5);
    while (!this.isStopping) {
      try {
        await this.tickLeases(rng);
      } catch (error) {
        if (error instanceof ClusterFaultError) {
          this.fault = error;
          this.stop();
          break;
        }
        this.log(`lease round failed (${(error as Error).message}); retrying`);
      }
      await this.sleep(every, this.leaseSleepers);
    }
  }

  private async tickLeases(rng: ReturnType<typeof createRng>): Promise<void> {
    const ttl = this.options.leaseTtlMs;
    const k = this.keys;
    const now = this.clock.monotonicMs();
    // Heartbeat, and the number of live workers.
    const live = Math.max(1, (await this.cmd.eval(HEARTBEAT_SCRIPT, 1, k.workers, this.id, ttl)) as number);
    // A newer coordinator run changes the configuration (epoch).
    const raw = await this.cmd.get(k.config);
    if (raw !== null) await this.applyConfig(JSON.parse(raw) as WorkerCrawlConfig);
    await this.swapJudge();
    const heldShards = [...this.held.keys()];
    if (heldShards.length > 0) {
      const tokens = heldShards.map((sh) => this.held.get(sh)?.token ?? '');
      const kept = (await this.cmd.eval(
        RENEW_SCRIPT,
        heldShards.length,
        ...heldShards.map((sh) => k.lease(sh)),
        ttl,
        ...tokens,
      )) as number[];
      heldShards.forEach((shard, i) => {
        const h = this.held.get(shard);
        // Only the tenure the round asked about (a shard lost and taken again meanwhile is not it).
        if (h === undefined || h.token !== tokens[i]) return;
        if (kept[i] === 1) h.validUntilMs = now + ttl - LEASE_MARGIN_MS;
        else this.lose(shard, 'lease taken or expired');
      });
    }
    const shards = this.options.shards;
    const fair = Math.ceil(shards / live);
    const active = [...this.held.entries()].filter(([, h]) => !h.isReleasing);
    if (active.length > fair) {
      // Give back the extra shards with the least in flight; they go once idle.
      active.sort((a, b) => a[1].inFlight - b[1].inFlight || a[0] - b[0]);
      for (const [shard, h] of active.slice(0, active.length - fair)) {
        h.isReleasing = true;
        this.log(`releasing shard ${shard} (fair share ${fair} of ${shards} with ${live} workers)`);
      }
    }
    for (const [shard, h] of this.held) {
      if (h.isReleasing && h.inFlight === 0) {
        await this.cmd.eval(RELEASE_SCRIPT, 1, k.lease(shard), h.token);
        if (this.held.get(shard) === h) this.held.delete(shard);
        this.summaryCounts.shardsReleased++;
      }
    }
    const need = fair - [...this.held.values()].filter((h) => !h.isReleasing).length;
    if (need <= 0) return;
    const order = Array.from({ length: shards }, (_, i) => i).filter((s) => !this.held.has(s));
    rng.shuffle(order);
    const token = `${this.id}#${++this.leaseRounds}`;
    const got = (await this.cmd.eval(
      ACQUIRE_SCRIPT,
      order.length,
      ...order.map((sh) => k.lease(sh)),
      token,
      ttl,
      need,
    )) as number[];
    // The quiet time counts from when the lease is ours, not from the start of this round.
    const takenAtMs = this.clock.monotonicMs();
    for (const index of got) {
      const shard = order[index - 1] as number;
      this.summaryCounts.shardsTaken++;
      // Hosts of the shard may have had a request end just now at the previous holder.
      const quietMs = this.config.net.minDelayMs ?? 1000;
      this.held.set(shard, {
        token,
        readyAtMs: takenAtMs + quietMs,
        validUntilMs: now + ttl - LEASE_MARGIN_MS,
        inFlight: 0,
        entries: new Set(),
        claimedAtMs: undefined,
        isReleasing: false,
        abort: new AbortController(),
      });
    }
    this.wake();
  }

  /**
   * Loads the judge relevance feedback swapped in, when its version grew: the coordinator puts
   * the model's files in Redis, so workers need no folder shared with it. A model that cannot be
   * loaded is said and skipped until a newer version; pages go on being judged by the current one (each
   * outcome carries the version that judged it).
   */
  private async swapJudge(): Promise<void> {
    const version = Number((await this.cmd.get(this.keys.judgeVersion)) ?? 0);
    if (!(version > this.judgeVersion) || version === this.failedJudgeVersion) return;
    try {
      this.judge = await this.judgeFromRedis(version);
      this.judgeVersion = version;
      this.log(`judging with the model of version ${version} (relevance feedback)`);
    } catch (error) {
      this.failedJudgeVersion = version;
      this.log(
        `cannot load the judge of version ${version}: ${(error as Error).message}; judging with version ${this.judgeVersion} until a newer one`,
      );
    }
  }

  /**
   * Loads the model whose files the coordinator put in Redis (version 0: the crawl's own; then
   * each one relevance feedback swapped in), from a folder of this worker's.
   * @throws ConfigError when the files are missing or are not a model.
   */
  private async judgeFromRedis(version: number): Promise<PageJudge> {
    const files = await this.cmd.hgetallBuffer(this.keys.judgeFiles(version));
    if (Object.keys(files).length === 0) {
      throw new ConfigError(
        `the files of judge version ${version} are not in Redis (${this.keys.judgeFiles(version)}); restart the coordinator`,
        { context: { field: 'judge' } },
      );
    }
    const dir = mkdtempSync(join(tmpdir(), `tres-judge-${this.id}-v${version}-`));
    this.judgeDirs.push(dir);
    for (const [name, bytes] of Object.entries(files)) writeFileSync(join(dir, basename(name)), bytes);
    const { loadModel } = await import('../relevance/index.js');
    return loadModel(dir);
  }

  private expireLeases(): void {
    const now = this.clock.monotonicMs();
    for (const [shard, h] of this.held)
      if (h.validUntilMs <= now) this.lose(shard, 'lease not renewed in time');
  }

  /** Stops fetching from a shard whose lease is gone; its requests stay pending for the new holder. */
  private lose(shard: number, why: string): void {
    const h = this.held.get(shard);
    if (!h) return;
    this.log(`lost shard ${shard}: ${why}`);
    h.abort.abort(new Error(`lease of shard ${shard} lost`));
    this.held.delete(shard);
  }

  private async releaseAll(): Promise<void> {
    for (const [shard, h] of this.held) {
      await this.cmd.eval(RELEASE_SCRIPT, 1, this.keys.lease(shard), h.token).catch(() => {});
    }
    this.held.clear();
  }

  /**
   * The fencing check, right before a request to `url` leaves (see the file comment).
   * @throws LeaseLostError (and aborts the shard's fetches) when the lease is gone or too close to
   *   its end; ForeignHostError for a host of a shard this worker does not hold (a redirect).
   */
  private async fence(url: string): Promise<void> {
    const shard = shardOf(hostOf(url), this.options.shards);
    const h = this.held.get(shard);
    if (h === undefined) throw new ForeignHostError(url, shard);
    if (h.abort.signal.aborted) throw new LeaseLostError(shard);
    const askedAtMs = this.clock.monotonicMs();
    const pttl = Number(await this.cmd.eval(FENCE_SCRIPT, 1, this.keys.lease(shard), h.token));
    // The lease ends no sooner than askedAt + pttl (Redis counted pttl after we asked); the time
    // the answer took (a paused or starved process) is spent from it.
    const now = this.clock.monotonicMs();
    if (pttl < LEASE_MARGIN_MS || now >= askedAtMs + pttl - LEASE_MARGIN_MS || this.held.get(shard) !== h) {
      this.lose(
        shard,
        pttl < 0 ? 'lease taken or expired (fencing check)' : 'lease too close to its end (fencing check)',
      );
      throw new LeaseLostError(shard);
    }
  }

  // ---- requests ----------------------------------------------------------------------------

  private async readLoop(): Promise<void> {
    while (!this.isStopping) {
      const now = this.clock.monotonicMs();
      const ready: number[] = [];
      for (const [shard, h] of this.held) {
        if (h.isReleasing || h.readyAtMs > now) continue;
        if (h.validUntilMs <= now) {
          this.lose(shard, 'lease not renewed in time');
          continue;
        }
        ready.push(shard);
      }
      // Requests a previous holder read but never answered: claim them before reading new ones.
      for (const shard of ready) {
        const h = this.held.get(shard);
        if (h === undefined) continue;
        if (h.claimedAtMs !== undefined && now - h.claimedAtMs < this.options.leaseTtlMs) continue;
        const minIdleMs = h.claimedAtMs === undefined ? 0 : this.options.leaseTtlMs;
        const before = h.claimedAtMs;
        h.claimedAtMs = now;
        try {
          await this.claimPending(shard, h, minIdleMs);
        } catch (error) {
          // NOGROUP: the streams are gone or being recreated; claimed again next time round.
          h.claimedAtMs = before;
          if (isNoGroup(error)) this.sayStreamsGone();
          else this.log(`claim of shard ${shard} failed: ${(error as Error).message}`);
        }
      }
      const room = this.o.maxConcurrency - this.inFlight;
      if (ready.length === 0 || room <= 0) {
        await this.sleep(ready.length === 0 ? 50 : 1000);
        continue;
      }
      let reply: unknown;
      try {
        reply = await this.reader.xreadgroup(
          'GROUP',
          WORKER_GROUP,
          this.id,
          'COUNT',
          room,
          'BLOCK',
          this.options.blockMs,
          'STREAMS',
          ...ready.map((s) => this.keys.requests(s)),
          ...ready.map(() => '>'),
        );
      } catch (error) {
        // NOGROUP: the streams are gone (Redis restarted empty) or a new coordinator run is
        // recreating them.
        if (isNoGroup(error)) this.sayStreamsGone();
        else this.log(`read failed: ${(error as Error).message}`);
        await this.sleep(this.options.blockMs);
        continue;
      }
      this.hasSaidStreamsGone = false;
      for (const { key, id, fields } of entriesOf(reply))
        this.start(Number(key.slice(key.lastIndexOf(':') + 1)), id, fields);
    }
  }

  /** Says once per loss that the crawl's streams are gone from Redis. */
  private sayStreamsGone(): void {
    if (this.hasSaidStreamsGone) return;
    this.hasSaidStreamsGone = true;
    this.log(
      `the request streams of crawl "${this.options.name}" are gone from Redis (restarted empty or flushed?): waiting for its coordinator to recreate them`,
    );
  }

  private async claimPending(shard: number, h: HeldShard, minIdleMs: number): Promise<void> {
    let cursor = '0-0';
    for (;;) {
      const reply = (await this.cmd.xautoclaim(
        this.keys.requests(shard),
        WORKER_GROUP,
        this.id,
        minIdleMs,
        cursor,
        'COUNT',
        100,
      )) as [string, Array<[string, string[] | null]>];
      const [next, entries] = reply;
      for (const [id, fields] of entries) {
        // Null fields: deleted meanwhile. An entry this worker works on now is not started twice.
        if (fields === null || h.entries.has(id)) continue;
        this.summaryCounts.claimed++;
        this.start(shard, id, fields);
      }
      if (next === '0-0') return;
      cursor = next;
    }
  }

  private start(shard: number, entryId: string, fields: string[]): void {
    const h = this.held.get(shard);
    // Lost meanwhile: the entry stays pending, and the holder claims it (claimPending).
    if (!h || h.entries.has(entryId)) return;
    h.inFlight++;
    h.entries.add(entryId);
    this.inFlight++;
    this.handle(shard, h, entryId, fields)
      .catch((error: unknown) =>
        this.log(`request ${entryId} of shard ${shard}: ${(error as Error).message}`),
      )
      .finally(() => {
        h.inFlight--;
        h.entries.delete(entryId);
        this.inFlight--;
        this.wake();
      });
  }

  private async handle(shard: number, h: HeldShard, entryId: string, fields: string[]): Promise<void> {
    let request: FetchRequest;
    try {
      request = decodeRequest(fields);
    } catch {
      await this.finish(shard, entryId, undefined);
      return;
    }
    const base = { epoch: request.epoch, url: request.url, worker: this.id, crawl: this.config.crawlId };
    const refuse = this.refusal(request, shard);
    if (refuse === undefined && request.sitemaps !== undefined) {
      await this.readSitemapsOf(shard, h, entryId, request);
      return;
    }
    if (refuse !== undefined) {
      this.summaryCounts.failed++;
      // A refused sitemap request still ends its reading (the coordinator waits for the end).
      const sitemap = { event: { url: request.url, urls: 0, code: refuse.code }, isDone: true };
      await this.finish(
        shard,
        entryId,
        request.sitemaps === undefined ? { ...base, failure: refuse } : { ...base, sitemap },
      );
      return;
    }
    const action: Action = {
      url: request.url,
      host: request.host,
      domain: request.domain,
      depth: request.depth,
    };
    if (request.parentUrl !== undefined) action.parentUrl = request.parentUrl;
    // The judge (and its version) as the fetch starts: a swap mid-fetch cannot mix the two.
    const judged = { judge: this.judge, version: this.judgeVersion };
    let message: OutcomeMessage;
    try {
      const fetched = await this.fetchChain(request, h);
      message =
        'moved' in fetched
          ? { ...base, moved: fetched.moved }
          : await this.pageOutcome(fetched, action, judged, base);
    } catch (error) {
      if (h.abort.signal.aborted) return; // lease lost: the new holder fetches it
      this.summaryCounts.failed++;
      message = { ...base, failure: failureOf(error) };
    }
    // Gave up on Redis: nothing can be sent; the request stays pending for another worker.
    if (this.forcedWhy !== undefined) return;
    await this.finish(shard, entryId, message);
  }

  /** Parses and judges a fetched page, appends it to this worker's WARC file: its outcome. */
  private async pageOutcome(
    fetched: PageFetch,
    action: Action,
    judged: { judge: PageJudge; version: number },
    base: { epoch: number; url: string; worker: string; crawl?: string },
  ): Promise<OutcomeMessage> {
    const c = this.config;
    const processed = await processFetch(fetched, action, {
      judge: judged.judge,
      threshold: c.threshold,
      links: this.links,
      shouldFollowNofollow: c.shouldFollowNofollow,
      withLinkContext: c.withLinkContext,
      ...(c.linkContextWindow === undefined ? {} : { linkContextWindow: c.linkContextWindow }),
      shouldScoreAnchors: c.shouldScoreAnchors,
      parseTimeBudgetMs: c.parseTimeBudgetMs,
      isKnown: () => false,
    });
    processed.record.judgeVersion = judged.version;
    // The WARC record is written before the outcome is sent: a page in the store is always in a WARC file.
    const at =
      this.warc && processed.warc
        ? this.warc.append(processed.warc.warc, processed.record.probability)
        : undefined;
    this.summaryCounts.fetched++;
    return pageMessage(processed, base, at && this.warc ? { file: this.warc.path, ...at } : undefined);
  }

  /**
   * Fetches the request's page, following redirects while their hosts are in shards this worker
   * holds; a redirect to another shard's host ends here as `moved` (the coordinator sends the rest
   * of the chain to that shard's holder). A chain continued from another worker (`via`) starts at
   * its last target and counts the redirects before it, for loops and the redirect cap.
   * @throws SkipUrlError TRES_REDIRECT_LOOP / TRES_TOO_MANY_REDIRECTS across workers; what
   *   `WebClient.fetchPage` throws.
   */
  private async fetchChain(
    request: FetchRequest,
    h: HeldShard,
  ): Promise<PageFetch | { moved: { to: string; redirects: string[] } }> {
    const client = this.client as WebClient;
    const shards = this.options.shards;
    const fetched = await client.fetchPage(request.via?.at ?? request.url, {
      signal: h.abort.signal,
      shouldFollow: (next) => {
        try {
          return this.held.has(shardOf(hostOf(next), shards));
        } catch {
          return true; // not a URL with a host: fetchPage refuses it with the usual error
        }
      },
    });
    const redirects = [...(request.via?.redirects ?? []), ...fetched.redirects];
    const status = fetched.result.status;
    const next = status >= 300 && status < 400 ? fetched.result.location : undefined;
    const chain = next === undefined ? redirects : [...redirects, next];
    const max = this.config.net.maxRedirects ?? DEFAULT_WEB_CLIENT_OPTIONS.maxRedirects;
    const seen = new Set<string>([withoutHash(request.url)]);
    for (const url of chain) {
      if (seen.has(withoutHash(url))) {
        throw new SkipUrlError(
          'TRES_REDIRECT_LOOP',
          `Redirect loop: ${chain.join(' -> ')} (from ${request.url})`,
          {
            context: { url: request.url, status, redirects: chain },
          },
        );
      }
      seen.add(withoutHash(url));
    }
    if (chain.length > max) {
      throw new SkipUrlError('TRES_TOO_MANY_REDIRECTS', `More than ${max} redirects from ${request.url}`, {
        context: { url: request.url, status, redirects: chain },
      });
    }
    // fetchPage stops at a 3xx with a Location only when shouldFollow refused it: another shard's.
    if (next !== undefined) return { moved: { to: next, redirects: chain } };
    return { ...fetched, requestedUrl: request.url, redirects };
  }

  /**
   * Reads the sitemaps of the request's origin (the crawl's `--sitemaps`) as a local crawl does,
   * through this worker's client (its politeness, robots.txt and fencing), archiving each sitemap
   * response in its WARC file, and sends what it finds as it goes; the request is acknowledged
   * with the last message. A lease lost midway leaves it pending: the next holder reads again
   * (the coordinator stores a seed once).
   */
  private async readSitemapsOf(
    shard: number,
    h: HeldShard,
    entryId: string,
    request: FetchRequest,
  ): Promise<void> {
    const base = { epoch: request.epoch, url: request.url, worker: this.id, crawl: this.config.crawlId };
    const sends: Promise<unknown>[] = [];
    const send = (sitemap: NonNullable<OutcomeMessage['sitemap']>) =>
      sends.push(this.cmd.xadd(this.keys.outcomes, '*', ...encodeOutcome({ ...base, sitemap })));
    try {
      await readSitemaps(
        this.client as WebClient,
        [request.url],
        request.sitemaps as NonNullable<FetchRequest['sitemaps']>,
        {
          isUrlAllowed: (url) => this.links.isUrlAllowed(url),
          isSitemapAllowed: (url) => this.links.isResourceAllowed(url),
          onUrls: (urls) => send({ urls }),
          onSitemap: (event) => send({ event }),
          onResponse: (fetched) => {
            this.warc?.append(toWarcPayload(fetched.result), 0);
          },
          shouldStop: () => this.isStopping || h.abort.signal.aborted,
          signal: h.abort.signal,
        },
      );
    } catch {
      // Aborted: the lease is gone, and the next holder reads the sitemaps again.
    }
    await Promise.all(sends);
    if (h.abort.signal.aborted || this.isStopping || this.forcedWhy !== undefined) return;
    await this.finish(shard, entryId, { ...base, sitemap: { isDone: true } });
  }

  /** Why this worker will not fetch `request` (scope, shard), or undefined. */
  private refusal(request: FetchRequest, shard: number): FetchFailure | undefined {
    const skip = (code: string, message: string): FetchFailure => ({
      kind: 'skip',
      code,
      message,
      status: 0,
    });
    // A continued redirect chain is fetched from its last target, on this shard's host.
    const target = request.via?.at ?? request.url;
    let host: string;
    try {
      host = hostOf(target);
    } catch {
      return skip('TRES_URL_FILTERED', `not a URL: ${target}`);
    }
    // A sitemap request names an origin; each sitemap URL is checked as it is read.
    if (request.sitemaps === undefined && !this.links.isUrlAllowed(request.url))
      return skip('TRES_URL_FILTERED', `${request.url} is outside the crawl's scope`);
    const expectedHost = request.via === undefined ? request.host : host;
    if (host !== expectedHost || shardOf(host, this.options.shards) !== shard) {
      return skip('TRES_CLUSTER_WRONG_SHARD', `${target} was sent to shard ${shard}, not its host's`);
    }
    return undefined;
  }

  /** Sends the outcome and acknowledges (and deletes) the request, in one transaction. */
  private async finish(shard: number, entryId: string, message: OutcomeMessage | undefined): Promise<void> {
    const key = this.keys.requests(shard);
    const tx = this.cmd.multi();
    if (message !== undefined) tx.xadd(this.keys.outcomes, '*', ...encodeOutcome(message));
    await tx.xack(key, WORKER_GROUP, entryId).xdel(key, entryId).exec();
  }

  private async waitIdle(): Promise<void> {
    while (this.inFlight > 0) await this.sleep(50);
  }

  /** Wakes the read loop; with `andLeases`, the lease loop too (a stop). */
  private wake(andLeases = false): void {
    for (const done of [...this.sleepers]) done();
    if (andLeases) for (const done of [...this.leaseSleepers]) done();
  }

  private sleep(ms: number, sleepers = this.sleepers): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        sleepers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      sleepers.add(done);
    });
  }
}

function withoutHash(url: string): string {
  const hash = url.indexOf('#');
  return hash < 0 ? url : url.slice(0, hash);
}

/** A thrown fetch error as the crawl loop would classify it. */
function failureOf(error: unknown): FetchFailure {
  if (error instanceof ForeignHostError) {
    return { kind: 'skip', code: 'TRES_CLUSTER_FOREIGN_HOST', message: error.message, status: 0 };
  }
  const code = errorCode(error);
  const message = error instanceof Error ? error.message : String(error);
  const status = (error as { context?: { status?: number } }).context?.status ?? 0;
  if (error instanceof DeferUrlError) {
    return {
      kind: 'defer',
      code,
      message,
      status,
      ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }),
    };
  }
  if (error instanceof RetryLaterError) {
    return {
      kind: 'retry',
      code,
      message,
      status,
      ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }),
    };
  }
  return { kind: 'skip', code, message, status };
}
