/**
 * Options shared by the coordinator and the workers of a cluster crawl, their defaults in one
 * constant, the Redis key layout and the host-to-shard hash. Every key of one crawl starts with
 * `tres:<name>:`, so one Redis serves several crawls side by side.
 */
import { ConfigError } from '../common/index.js';
import { redactUrl } from './redis-connection.js';

/** Options of a cluster crawl (coordinator and workers). */
export interface ClusterOptions {
  /**
   * Redis URL: `redis://[[USER]:PASSWORD@]HOST[:PORT][/DB]` or `rediss://` for TLS (ioredis
   * reads user, password, database and TLS from it). Required.
   */
  url: string;
  /** Name of the crawl in Redis (key prefix `tres:<name>:`). @default 'crawl' */
  name?: string;
  /**
   * Shards hosts are hashed into; one worker holds each shard (the politeness owner of its
   * hosts). More shards than workers lets the load spread; fixed for the life of a crawl.
   * @default 64
   */
  shards?: number;
  /**
   * Life of a shard lease in ms; a worker renews its leases every fifth of it, and a dead
   * worker's shards are taken over after it. @default 10_000
   */
  leaseTtlMs?: number;
  /** Longest a blocking stream read waits, in ms. @default 200 */
  blockMs?: number;
}

/** Defaults of every optional field of {@link ClusterOptions}. */
export const DEFAULT_CLUSTER_OPTIONS: Readonly<Required<Omit<ClusterOptions, 'url'>>> = Object.freeze({
  name: 'crawl',
  shards: 64,
  leaseTtlMs: 10_000,
  blockMs: 200,
});

/** Options after defaults and checks. */
export type ResolvedClusterOptions = Required<ClusterOptions>;

/**
 * Fills in defaults and checks every field.
 * @param flag how the user typed the URL option (named in errors), e.g. `--cluster`
 * @throws ConfigError naming the field.
 */
export function resolveClusterOptions(options: ClusterOptions, flag = 'url'): ResolvedClusterOptions {
  const o = { ...DEFAULT_CLUSTER_OPTIONS, ...stripUndefined(options) } as ResolvedClusterOptions;
  let parsed: URL | undefined;
  try {
    parsed = new URL(o.url);
  } catch {
    parsed = undefined;
  }
  if (parsed === undefined || (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:')) {
    throw new ConfigError(
      `${flag} must be a Redis URL such as redis://127.0.0.1:6379 or rediss://user:password@host:6380/0, got ${parsed === undefined ? JSON.stringify(o.url.replace(/\/\/[^@/]*@/, '//***@')) : redactUrl(o.url)}`,
      { context: { field: flag } },
    );
  }
  const db = parsed.pathname.replace(/^\//, '');
  if (db !== '' && !/^\d{1,5}$/.test(db)) {
    throw new ConfigError(
      `${flag}: the database in a Redis URL is a number (redis://host:6379/0), got ${JSON.stringify(`/${db}`)}`,
      { context: { field: flag } },
    );
  }
  if (!/^[A-Za-z0-9._-]{1,64}$/.test(o.name)) {
    throw new ConfigError(
      `cluster name must be 1 to 64 letters, digits, '.', '_' or '-', got ${JSON.stringify(o.name)}`,
      {
        context: { field: 'name' },
      },
    );
  }
  for (const [field, value, min] of [
    ['shards', o.shards, 1],
    ['leaseTtlMs', o.leaseTtlMs, 1000],
    ['blockMs', o.blockMs, 1],
  ] as const) {
    if (!Number.isInteger(value) || value < min) {
      throw new ConfigError(`cluster ${field} must be an integer >= ${min}, got ${JSON.stringify(value)}`, {
        context: { field },
      });
    }
  }
  return o;
}

/** Redis keys of one crawl. */
export class ClusterKeys {
  constructor(readonly prefix: string) {}

  static of(name: string): ClusterKeys {
    return new ClusterKeys(`tres:${name}:`);
  }

  /** JSON of the crawl's {@link WorkerCrawlConfig}, written by the coordinator. */
  get config(): string {
    return `${this.prefix}config`;
  }
  /**
   * The coordinator's lock: its token, with the lease life as expiry, renewed every fifth of it.
   * A second coordinator of the same name is refused while it is renewed.
   */
  get coordinatorLock(): string {
    return `${this.prefix}coordinator`;
  }
  /** Incremented by every coordinator start: requests of older runs are stale. */
  get epoch(): string {
    return `${this.prefix}epoch`;
  }
  /** Outcome stream, read by the coordinator's consumer group. */
  get outcomes(): string {
    return `${this.prefix}out`;
  }
  /** Fetch-request stream of shard `i`, read by the workers' consumer group. */
  requests(shard: number): string {
    return `${this.prefix}req:${shard}`;
  }
  /** Lease of shard `i`: value = worker id, TTL = lease life. */
  lease(shard: number): string {
    return `${this.prefix}lease:${shard}`;
  }
  /**
   * The judge swapped in by relevance feedback: its version (a number; absent: the crawl's own
   * judge, version 0). Workers read it every lease round and load the new model when it grows.
   */
  get judgeVersion(): string {
    return `${this.prefix}judge`;
  }
  /**
   * Hash of the files of judge `version`'s model folder (file name -> bytes); version 0 is the
   * crawl's own `--model`.
   */
  judgeFiles(version: number): string {
    return `${this.prefix}judge:${version}`;
  }
  /**
   * Sorted set of live workers: member = worker id, score = its last heartbeat on Redis's clock
   * (ms); members older than the lease life are dropped. Their count sets each one's fair share.
   */
  get workers(): string {
    return `${this.prefix}workers`;
  }
  /**
   * Hash of the live workers' loads: worker id -> requests in its shards' streams (queued or in
   * flight), written with each heartbeat. An idle worker (0) is handed shards with work.
   */
  get loads(): string {
    return `${this.prefix}loads`;
  }
  /** Set of the shards another worker handed over to worker `id`, for it to take. */
  handovers(id: string): string {
    return `${this.prefix}handover:${id}`;
  }
}

/** Consumer group of the request streams (all workers) and of the outcome stream. */
export const WORKER_GROUP = 'workers';
export const COORDINATOR_GROUP = 'coordinator';
/** The coordinator's consumer name: a restarted coordinator finds its predecessor's pending entries. */
export const COORDINATOR_CONSUMER = 'coordinator';

/** Shard of a host: FNV-1a (32 bit) of the host name modulo `shards`. Stable across processes. */
export function shardOf(host: string, shards: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < host.length; i++) {
    h ^= host.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h % shards;
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
