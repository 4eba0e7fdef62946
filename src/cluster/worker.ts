/**
 * A cluster worker (`tres worker --cluster URL`): holds leases on shards of hosts, reads the fetch
 * requests of its shards from their streams (consumer group `workers`), fetches politely, parses,
 * judges, writes the exchange to its own WARC file and sends the outcome back. Only the holder of a
 * shard's lease fetches from its hosts, so minimum delay, Crawl-delay, robots.txt and one
 * connection per host hold across machines.
 *
 * Leases: `SET lease:i <worker> NX PX ttl`, renewed every ttl/3 by a script that checks the value.
 * Each worker aims at a fair share, ceil(shards / live workers), taking free shards and releasing
 * extra ones once nothing of them is in flight. A shard taken over from a dead worker waits one
 * minimum delay before its first fetch (its hosts' last requests may have just ended) and claims
 * the dead worker's pending requests with XAUTOCLAIM.
 */
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import type { Redis } from 'ioredis';
import { type Clock, systemClock } from '../common/clock.js';
import { ConfigError, DeferUrlError, errorCode, RetryLaterError } from '../common/errors.js';
import { createRng } from '../common/rng.js';
import type { PageJudge } from '../crawl/judge.js';
import { KeywordJudge } from '../crawl/keyword-judge.js';
import { LinkProcessor } from '../crawl/link-processor.js';
import { processFetch } from '../crawl/process-fetch.js';
import { WebClient } from '../net/index.js';
import { WorkerWarcFile } from '../store/index.js';
import type { Action } from '../types/index.js';
import { hostOf } from '../url/index.js';
import {
  ClusterKeys,
  type ClusterOptions,
  type ResolvedClusterOptions,
  resolveClusterOptions,
  shardOf,
  WORKER_GROUP,
} from './cluster-options.js';
import {
  decodeRequest,
  encodeOutcome,
  type FetchFailure,
  type FetchRequest,
  type OutcomeMessage,
  pageMessage,
  type WorkerCrawlConfig,
} from './messages.js';
import { connectRedis, entriesOf } from './redis-connection.js';

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
}

/** Defaults of {@link WorkerOptions} beyond the cluster's. */
export const DEFAULT_WORKER_OPTIONS = Object.freeze({
  warcDir: 'warc',
  maxConcurrency: 64,
  flag: '--cluster',
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
  /** Monotonic ms before which no request of the shard is read (handover quiet time). */
  readyAtMs: number;
  /** Monotonic ms the lease is known to hold until (last renewal + ttl). */
  validUntilMs: number;
  inFlight: number;
  isReleasing: boolean;
  abort: AbortController;
}

/** Renews every lease still held by ARGV[1] (one round trip); 1 or 0 per key. */
const RENEW_SCRIPT = `local out = {}
for i, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then out[i] = redis.call('PEXPIRE', key, ARGV[2]) else out[i] = 0 end
end
return out`;
/** Takes free leases in KEYS order until ARGV[3] are taken (one round trip); their indexes, from 1. */
const ACQUIRE_SCRIPT = `local got = {}
for i, key in ipairs(KEYS) do
  if #got >= tonumber(ARGV[3]) then break end
  if redis.call('SET', key, ARGV[1], 'PX', ARGV[2], 'NX') then got[#got + 1] = i end
end
return got`;
/**
 * A lease counts as lost this long before the TTL this worker last set runs out, so that its
 * fetches are aborted before another worker can take the shard (scheduling delays on a busy machine).
 */
const LEASE_MARGIN_MS = 500;
const RELEASE_SCRIPT = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`;

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
  private warc: WorkerWarcFile | undefined;
  private readonly held = new Map<number, HeldShard>();
  private inFlight = 0;
  private isStopping = false;
  /** Sleepers of the lease and read loops, woken early by {@link wake}. */
  private readonly sleepers = new Set<() => void>();
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
    this.o = { warcDir: options.warcDir ?? DEFAULT_WORKER_OPTIONS.warcDir, maxConcurrency, flag };
    this.log = options.log === undefined || options.log === false ? () => {} : options.log;
    this.keys = ClusterKeys.of(this.options.name);
    this.clock = deps.clock ?? systemClock;
  }

  /**
   * Works until {@link stop}: waits for a coordinator's configuration, then fetches for it.
   * @throws ConfigError when Redis cannot be reached or the configuration cannot be used.
   */
  async run(): Promise<WorkerSummary> {
    this.cmd = await connectRedis(this.options.url, this.o.flag);
    this.reader = this.cmd.duplicate();
    this.reader.on('error', () => {});
    try {
      await this.loadConfig();
      // Fetches of a shard whose lease runs out are aborted on time, even while the loops wait.
      const expiry = setInterval(() => this.expireLeases(), 100);
      const leases = this.leaseLoop().finally(() => clearInterval(expiry));
      await this.readLoop();
      await leases;
      await this.waitIdle();
      await this.releaseAll();
    } finally {
      await this.client?.close();
      this.warc?.close();
      await this.cmd.del(this.keys.worker(this.id)).catch(() => {});
      await this.cmd.quit().catch(() => {});
      this.reader.disconnect();
    }
    return { id: this.id, ...this.summaryCounts, warcFile: this.warc?.path };
  }

  /** Stops reading requests; fetches in flight finish and report, then leases are released. */
  stop(): void {
    this.isStopping = true;
    this.wake();
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
      if (!hasSaidWaiting)
        this.log(`waiting for a coordinator (tres crawl --cluster) of crawl "${this.options.name}"`);
      hasSaidWaiting = true;
      if (this.isStopping) return;
      await this.clock.sleep(250);
    }
  }

  private async applyConfig(config: WorkerCrawlConfig): Promise<void> {
    if (this.config !== undefined && this.config.epoch === config.epoch) return;
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
      { ...config.net, isUrlAllowed: (url) => this.links.isUrlAllowed(url) },
      { clock: this.clock },
    );
    if ('modelDir' in config.judge) {
      const { loadModel } = await import('../relevance/index.js');
      this.judge = await loadModel(config.judge.modelDir);
    } else this.judge = new KeywordJudge({ keywords: config.judge.keywords });
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
        this.log(`lease round failed (${(error as Error).message}); retrying`);
      }
      await this.sleep(every);
    }
  }

  private async tickLeases(rng: ReturnType<typeof createRng>): Promise<void> {
    const ttl = this.options.leaseTtlMs;
    const k = this.keys;
    const now = this.clock.monotonicMs();
    // Heartbeat, and the number of live workers.
    await this.cmd.set(k.worker(this.id), '1', 'PX', ttl);
    const live = Math.max(1, (await this.cmd.keys(k.workerPattern)).length);
    // A newer coordinator run changes the configuration (epoch).
    const raw = await this.cmd.get(k.config);
    if (raw !== null) await this.applyConfig(JSON.parse(raw) as WorkerCrawlConfig);
    const heldShards = [...this.held.keys()];
    if (heldShards.length > 0) {
      const kept = (await this.cmd.eval(
        RENEW_SCRIPT,
        heldShards.length,
        ...heldShards.map((sh) => k.lease(sh)),
        this.id,
        ttl,
      )) as number[];
      heldShards.forEach((shard, i) => {
        const h = this.held.get(shard);
        if (h && kept[i] === 1) h.validUntilMs = now + ttl - LEASE_MARGIN_MS;
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
        await this.cmd.eval(RELEASE_SCRIPT, 1, k.lease(shard), this.id);
        this.held.delete(shard);
        this.summaryCounts.shardsReleased++;
      }
    }
    const need = fair - [...this.held.values()].filter((h) => !h.isReleasing).length;
    if (need <= 0) return;
    const order = Array.from({ length: shards }, (_, i) => i).filter((s) => !this.held.has(s));
    rng.shuffle(order);
    const got = (await this.cmd.eval(
      ACQUIRE_SCRIPT,
      order.length,
      ...order.map((sh) => k.lease(sh)),
      this.id,
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
        readyAtMs: takenAtMs + quietMs,
        validUntilMs: now + ttl - LEASE_MARGIN_MS,
        inFlight: 0,
        isReleasing: false,
        abort: new AbortController(),
      });
    }
    this.wake();
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
    for (const shard of this.held.keys()) {
      await this.cmd.eval(RELEASE_SCRIPT, 1, this.keys.lease(shard), this.id).catch(() => {});
    }
    this.held.clear();
  }

  // ---- requests ----------------------------------------------------------------------------

  private async readLoop(): Promise<void> {
    const claimedFrom = new Set<number>();
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
        if (claimedFrom.has(shard)) continue;
        claimedFrom.add(shard);
        await this.claimPending(shard);
      }
      for (const shard of claimedFrom) if (!this.held.has(shard)) claimedFrom.delete(shard);
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
        // NOGROUP: a new coordinator run is recreating the streams.
        if (!String((error as Error).message).includes('NOGROUP'))
          this.log(`read failed: ${(error as Error).message}`);
        await this.sleep(this.options.blockMs);
        continue;
      }
      for (const { key, id, fields } of entriesOf(reply))
        this.start(Number(key.slice(key.lastIndexOf(':') + 1)), id, fields);
    }
  }

  private async claimPending(shard: number): Promise<void> {
    let cursor = '0-0';
    for (;;) {
      const reply = (await this.cmd.xautoclaim(
        this.keys.requests(shard),
        WORKER_GROUP,
        this.id,
        0,
        cursor,
        'COUNT',
        100,
      )) as [string, Array<[string, string[] | null]>];
      const [next, entries] = reply;
      for (const [id, fields] of entries) {
        if (fields === null) continue;
        this.summaryCounts.claimed++;
        this.start(shard, id, fields);
      }
      if (next === '0-0') return;
      cursor = next;
    }
  }

  private start(shard: number, entryId: string, fields: string[]): void {
    const h = this.held.get(shard);
    if (!h) return; // lost meanwhile: the entry stays pending for the new holder
    h.inFlight++;
    this.inFlight++;
    this.handle(shard, h, entryId, fields)
      .catch((error: unknown) =>
        this.log(`request ${entryId} of shard ${shard}: ${(error as Error).message}`),
      )
      .finally(() => {
        h.inFlight--;
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
    const base = { epoch: request.epoch, url: request.url, worker: this.id };
    const refuse = this.refusal(request, shard);
    if (refuse !== undefined) {
      this.summaryCounts.failed++;
      await this.finish(shard, entryId, { ...base, failure: refuse });
      return;
    }
    const action: Action = {
      url: request.url,
      host: request.host,
      domain: request.domain,
      depth: request.depth,
    };
    if (request.parentUrl !== undefined) action.parentUrl = request.parentUrl;
    const client = this.client as WebClient;
    const c = this.config;
    let message: OutcomeMessage;
    try {
      const fetched = await client.fetchPage(action.url, { signal: h.abort.signal });
      const processed = await processFetch(fetched, action, {
        judge: this.judge,
        threshold: c.threshold,
        links: this.links,
        shouldFollowNofollow: c.shouldFollowNofollow,
        withLinkContext: c.withLinkContext,
        shouldScoreAnchors: c.shouldScoreAnchors,
        parseTimeBudgetMs: c.parseTimeBudgetMs,
        isKnown: () => false,
      });
      // The WARC record is written before the outcome is sent: a page in the store is always in a WARC file.
      const at =
        this.warc && processed.warc
          ? this.warc.append(processed.warc.warc, processed.record.probability)
          : undefined;
      message = pageMessage(processed, base, at && this.warc ? { file: this.warc.path, ...at } : undefined);
      this.summaryCounts.fetched++;
    } catch (error) {
      if (h.abort.signal.aborted) return; // lease lost: the new holder fetches it
      this.summaryCounts.failed++;
      message = { ...base, failure: failureOf(error) };
    }
    await this.finish(shard, entryId, message);
  }

  /** Why this worker will not fetch `request` (scope, shard), or undefined. */
  private refusal(request: FetchRequest, shard: number): FetchFailure | undefined {
    const skip = (code: string, message: string): FetchFailure => ({
      kind: 'skip',
      code,
      message,
      status: 0,
    });
    let host: string;
    try {
      host = hostOf(request.url);
    } catch {
      return skip('TRES_URL_FILTERED', `not a URL: ${request.url}`);
    }
    if (!this.links.isUrlAllowed(request.url))
      return skip('TRES_URL_FILTERED', `${request.url} is outside the crawl's scope`);
    if (host !== request.host || shardOf(host, this.options.shards) !== shard) {
      return skip('TRES_CLUSTER_WRONG_SHARD', `${request.url} was sent to shard ${shard}, not its host's`);
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

  private wake(): void {
    for (const done of [...this.sleepers]) done();
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.sleepers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.sleepers.add(done);
    });
  }
}

/** A thrown fetch error as the crawl loop would classify it. */
function failureOf(error: unknown): FetchFailure {
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
