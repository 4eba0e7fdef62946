/**
 * Scale-out over Redis Streams: the coordinator (a FetchRunner for the crawl loop) and the
 * workers of a cluster crawl, the shard hash and key layout, and the message formats.
 * See docs/scale-out.md.
 */

export {
  CLUSTER_EXIT_CODES,
  ClusterFaultError,
  type ClusterFaultKind,
} from './cluster-fault.js';
export {
  ClusterKeys,
  type ClusterOptions,
  DEFAULT_CLUSTER_OPTIONS,
  type ResolvedClusterOptions,
  resolveClusterOptions,
  shardOf,
} from './cluster-options.js';
export { type ClusterUrlSource, clusterUrlOf, REDIS_URL_ENV } from './cluster-url.js';
export {
  ClusterCoordinator,
  type CoordinatorOptions,
  type CoordinatorStats,
  REDIS_DOWN_LEASES,
  workerConfigOf,
} from './coordinator.js';
export type {
  FetchFailure,
  FetchRequest,
  OutcomeMessage,
  WarcLocation,
  WorkerCrawlConfig,
} from './messages.js';
export { connectRedis, type RedisConnectOptions, redactUrl } from './redis-connection.js';
export { ClusterWorker, DEFAULT_WORKER_OPTIONS, type WorkerOptions, type WorkerSummary } from './worker.js';
