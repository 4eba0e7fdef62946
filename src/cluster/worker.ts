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
 * with XAUTOCLAIM. Work follows too: a worker with requests in two or more shards hands one over
 * to a worker that had none for a lease round (shard-leases.ts, rebalance.ts).
 *
 * Fencing: right before each request leaves (every page hop and robots.txt request, after the
 * host's politeness wait), the worker confirms in Redis that the host's shard lease still holds its
 * token with more than LEASE_MARGIN_MS to live, and then that no more time than that has passed on
 * its own monotonic clock since it asked. A worker paused or starved past its lease therefore
 * never sends a request to a host that another worker may own by then.
 */
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import type { Redis } from 'ioredis';
import { type Clock, ConfigError, systemClock, TresError } from '../common/index.js';
import { LinkProcessor } from '../crawl/index.js';
import { WebClient } from '../net/index.js';
import { WorkerWarcFile } from '../store/index.js';
import type { Action } from '../types/index.js';
import { ClusterFaultError, isNoGroup } from './cluster-fault.js';
import {
  ClusterKeys,
  type ClusterOptions,
  type ResolvedClusterOptions,
  resolveClusterOptions,
  WORKER_GROUP,
} from './cluster-options.js';
import {
  CLUSTER_PROTOCOL,
  decodeRequest,
  encodeOutcome,
  type FetchRequest,
  type OutcomeMessage,
  type WorkerCrawlConfig,
} from './messages.js';
import { closeNow, connectRedis, entriesOf, redactUrl } from './redis-connection.js';
import { type HeldShard, ShardLeases } from './shard-leases.js';
import { failureOf, fetchChain, pageOutcome, refusal } from './worker-fetch.js';
import { WorkerJudge } from './worker-judge.js';
import { readSitemapsFor } from './worker-sitemaps.js';

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
  /** Shards handed over to an idle worker (rebalance.ts), of those released. */
  shardsHandedOver: number;
  warcFile: string | undefined;
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
  private judges!: WorkerJudge;
  private warc: WorkerWarcFile | undefined;
  private leases!: ShardLeases;
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
  /** Sleepers of the read loop (and waits), woken early by {@link wake}. */
  private readonly sleepers = new Set<() => void>();
  /**
   * Sleepers of the lease loop, woken early only by a stop: waking it on every finished fetch
   * (as once) renewed the leases and beat the heart after every page, most of Redis's commands.
   */
  private readonly leaseSleepers = new Set<() => void>();
  private readonly summaryCounts = {
    fetched: 0,
    failed: 0,
    claimed: 0,
    shardsTaken: 0,
    shardsReleased: 0,
    shardsHandedOver: 0,
  };

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
    this.leases = new ShardLeases({
      cmd: this.cmd,
      keys: this.keys,
      id: this.id,
      options: this.options,
      clock: this.clock,
      log: this.log,
      onTaken: () => this.wake(),
      counts: this.summaryCounts,
    });
    this.judges = new WorkerJudge({ cmd: this.cmd, keys: this.keys, id: this.id, log: this.log });
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
      this.judges.removeFiles();
      if (this.forcedWhy === undefined) {
        await this.cmd
          .multi()
          .zrem(this.keys.workers, this.id)
          .hdel(this.keys.loads, this.id)
          .exec()
          .catch(() => {});
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
    this.expiryTimer = setInterval(() => this.leases.expire(), 100);
    const leases = this.leaseLoop().finally(() => clearInterval(this.expiryTimer));
    // A loop that fails stops the other one, so that run() ends.
    await this.readLoop().finally(() => this.stop());
    await leases;
    await this.waitIdle();
    await this.leases.releaseAll();
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
    this.leases.dropAll();
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
        this.log(
          `waiting for a coordinator (tres crawl --cluster) of crawl "${this.options.name}"${await this.otherCrawls()}`,
        );
      hasSaidWaiting = true;
      await this.sleep(250);
    }
  }

  /** The crawls whose coordinator runs on this Redis, as the waiting line names them (a typo in --cluster-name). */
  private async otherCrawls(): Promise<string> {
    const names: string[] = [];
    let cursor = '0';
    do {
      const [next, found] = await this.cmd.scan(cursor, 'MATCH', 'tres:*:coordinator', 'COUNT', 1000);
      for (const key of found) names.push(key.slice('tres:'.length, -':coordinator'.length));
      cursor = next;
    } while (cursor !== '0' && names.length < 10);
    if (names.length === 0) return '';
    return `; Redis holds ${names.length === 1 ? 'the crawl' : 'the crawls'} ${names.map((n) => `"${n}"`).join(', ')} with a coordinator running (is --cluster-name right?)`;
  }

  /**
   * @throws ClusterFaultError `protocol` for a crawl written by another tres version;
   *   `other-crawl` when another crawl took the name of the one this worker fetches for.
   */
  private async applyConfig(config: WorkerCrawlConfig): Promise<void> {
    if ((config.protocol ?? 1) !== CLUSTER_PROTOCOL) {
      throw new ClusterFaultError(
        'protocol',
        `worker ${this.id}: the crawl "${this.options.name}" in Redis was started by a tres of cluster protocol ${config.protocol ?? 1}, and this worker speaks protocol ${CLUSTER_PROTOCOL}; run the same tres version as the coordinator`,
        { field: '--cluster-name' },
      );
    }
    const joined = this.config?.crawlId;
    if (joined !== undefined && config.crawlId !== undefined && config.crawlId !== joined) {
      throw new ClusterFaultError(
        'other-crawl',
        `worker ${this.id}: the crawl "${this.options.name}" in Redis is another crawl now (id ${config.crawlId}; this worker joined crawl ${joined}, whose pages its WARC file holds); start a worker for the new crawl`,
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
        beforeRequest: (url) => this.leases.fence(url),
      },
      { clock: this.clock },
    );
    // The crawl's own judge again (a new coordinator run): a swapped-in one is loaded next round.
    await this.judges.useCrawlJudge(config.judge);
    if (this.o.warcDir !== false && this.warc === undefined) {
      this.warc = new WorkerWarcFile(resolve(join(this.o.warcDir, `${this.id}.warc.gz`)), this.clock.now(), {
        'tres-worker': this.id,
      });
    }
    this.config = config;
  }

  // ---- leases ------------------------------------------------------------------------------

  private async leaseLoop(): Promise<void> {
    const every = Math.floor(this.options.leaseTtlMs / 5);
    while (!this.isStopping) {
      try {
        await this.leaseRound();
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

  /** Heartbeat, a newer configuration, a swapped-in judge, then the leases (ShardLeases.round). */
  private async leaseRound(): Promise<void> {
    const k = this.keys;
    const now = this.clock.monotonicMs();
    // Heartbeat (with this worker's load), and the number of live workers.
    const live = await this.leases.heartbeat();
    // A newer coordinator run changes the configuration (epoch).
    const raw = await this.cmd.get(k.config);
    if (raw !== null) await this.applyConfig(JSON.parse(raw) as WorkerCrawlConfig);
    await this.judges.swapIfNewer();
    await this.leases.round(now, live, this.config.net.minDelayMs ?? 1000);
  }

  // ---- requests ----------------------------------------------------------------------------

  private async readLoop(): Promise<void> {
    while (!this.isStopping) {
      const now = this.clock.monotonicMs();
      const ready: number[] = [];
      for (const [shard, h] of this.leases.held) {
        if (h.isReleasing || h.readyAtMs > now) continue;
        if (h.validUntilMs <= now) {
          this.leases.lose(shard, 'lease not renewed in time');
          continue;
        }
        ready.push(shard);
      }
      // Requests a previous holder read but never answered: claim them before reading new ones.
      for (const shard of ready) {
        const h = this.leases.held.get(shard);
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
    const h = this.leases.held.get(shard);
    // Lost meanwhile: the entry stays pending, and the holder claims it (claimPending).
    if (!h || h.entries.has(entryId)) return;
    h.inFlight++;
    h.started++;
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
    const refuse = refusal(request, shard, this.links, this.options.shards);
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
    const judged = { judge: this.judges.judge, version: this.judges.version };
    let message: OutcomeMessage;
    try {
      const fetched = await fetchChain(this.client as WebClient, request, {
        signal: h.abort.signal,
        shards: this.options.shards,
        isHeld: (s) => this.leases.held.has(s),
        config: this.config,
      });
      message =
        'moved' in fetched
          ? { ...base, moved: fetched.moved }
          : await pageOutcome(fetched, action, judged, base, {
              config: this.config,
              links: this.links,
              warc: this.warc,
              counts: this.summaryCounts,
            });
    } catch (error) {
      if (h.abort.signal.aborted) return; // lease lost: the new holder fetches it
      this.summaryCounts.failed++;
      message = { ...base, failure: failureOf(error) };
    }
    // Gave up on Redis: nothing can be sent; the request stays pending for another worker.
    if (this.forcedWhy !== undefined) return;
    await this.finish(shard, entryId, message);
  }

  /**
   * Reads the sitemaps of the request's origin (readSitemapsFor); the request is acknowledged
   * with the last message. A lease lost midway leaves it pending: the next holder reads again.
   */
  private async readSitemapsOf(
    shard: number,
    h: HeldShard,
    entryId: string,
    request: FetchRequest,
  ): Promise<void> {
    const base = { epoch: request.epoch, url: request.url, worker: this.id, crawl: this.config.crawlId };
    const isDone = await readSitemapsFor(request, {
      client: this.client as WebClient,
      links: this.links,
      warc: this.warc,
      signal: h.abort.signal,
      isStopping: () => this.isStopping,
      send: (sitemap) => this.cmd.xadd(this.keys.outcomes, '*', ...encodeOutcome({ ...base, sitemap })),
    });
    if (!isDone || this.forcedWhy !== undefined) return;
    await this.finish(shard, entryId, { ...base, sitemap: { isDone: true } });
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
