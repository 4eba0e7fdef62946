/**
 * The Redis side of a worker's shard leases and heartbeat: Lua scripts that each take one round
 * trip, and the two errors a worker's fencing check throws.
 *
 * A lease is `lease:<shard>` = the holder's token (`<worker id>#<n>`, a new n each time the
 * worker takes leases), with a TTL. The token, not the worker id alone, is what every renewal,
 * release and fencing check compares: a worker that lost a shard and took it again later cannot
 * mistake its new lease for the old one.
 */

/** Renews each lease KEYS[i] still holding token ARGV[i + 1] for ARGV[1] ms; 1 or 0 per key. */
export const RENEW_SCRIPT = `local out = {}
for i, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[i + 1] then out[i] = redis.call('PEXPIRE', key, ARGV[1]) else out[i] = 0 end
end
return out`;

/** Takes free leases in KEYS order (value ARGV[1], ARGV[2] ms) until ARGV[3] are taken; their indexes, from 1. */
export const ACQUIRE_SCRIPT = `local got = {}
for i, key in ipairs(KEYS) do
  if #got >= tonumber(ARGV[3]) then break end
  if redis.call('SET', key, ARGV[1], 'PX', ARGV[2], 'NX') then got[#got + 1] = i end
end
return got`;

/** Deletes lease KEYS[1] if it still holds token ARGV[1]. */
export const RELEASE_SCRIPT = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`;

/**
 * Renews the coordinator's lock KEYS[1] if it holds token ARGV[1] (for ARGV[2] ms): 1; 0 when the
 * key is gone (Redis restarted empty or flushed, or the lock expired); -1 when another holds it.
 * It renews with SET, a write Redis refuses when it is out of memory: so the renewal also finds
 * a full Redis, which otherwise only the workers' outcomes would meet.
 */
export const LOCK_RENEW_SCRIPT = `local v = redis.call('GET', KEYS[1])
if v == ARGV[1] then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) return 1 end
if v == false then return 0 end
return -1`;

/**
 * The fencing check: the remaining life in ms of lease KEYS[1] if it holds token ARGV[1], else -1.
 */
export const FENCE_SCRIPT = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PTTL', KEYS[1]) else return -1 end`;

/**
 * Heartbeat of worker ARGV[1] in the sorted set KEYS[1] (score: Redis's clock in ms, so workers'
 * clocks need not agree); members older than ARGV[2] ms are removed, with their loads. The
 * worker's load, the requests in its shards' streams KEYS[4..] (queued or in flight: entries are
 * deleted when done) plus ARGV[3] (those it started since its last heartbeat), goes into the
 * hash KEYS[2]. Returns the live workers' count, the request
 * count of each stream in KEYS[4..], the live workers' ids and their loads (-1: not published),
 * and the shards handed over to this worker (its set KEYS[3], see {@link HANDOVER_SCRIPT}).
 */
export const HEARTBEAT_SCRIPT = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZADD', KEYS[1], now, ARGV[1])
for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now - tonumber(ARGV[2]))) do
  redis.call('ZREM', KEYS[1], id)
  redis.call('HDEL', KEYS[2], id)
end
local lens = {}
local load = tonumber(ARGV[3])
for i = 4, #KEYS do
  lens[#lens + 1] = redis.call('XLEN', KEYS[i])
  load = load + lens[#lens]
end
redis.call('HSET', KEYS[2], ARGV[1], load)
local ids = redis.call('ZRANGE', KEYS[1], 0, -1)
local loads = {}
for i, id in ipairs(ids) do loads[i] = tonumber(redis.call('HGET', KEYS[2], id) or '-1') end
return {#ids, lens, ids, loads, redis.call('SMEMBERS', KEYS[3])}`;

/**
 * Hands lease KEYS[1], held with token ARGV[1], over to one worker: the lease's value becomes
 * that worker's mark ARGV[2] (for ARGV[3] ms, after which it is free), which no other worker's
 * SET NX can take, and shard ARGV[4] goes into that worker's set KEYS[2]. 1, or 0 if the token
 * no longer holds the lease.
 */
export const HANDOVER_SCRIPT = `if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
redis.call('SADD', KEYS[2], ARGV[4])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
return 1`;

/**
 * Takes the leases KEYS[2..] handed over to this worker (their value is its mark ARGV[3]) with
 * token ARGV[1] for ARGV[2] ms, and removes their shards ARGV[4..] from its set KEYS[1]. The
 * indexes (from 1) of the shards taken; a mark that expired meanwhile is not taken.
 */
export const TAKE_HANDOVERS_SCRIPT = `local got = {}
for i = 2, #KEYS do
  redis.call('SREM', KEYS[1], ARGV[i + 2])
  if redis.call('GET', KEYS[i]) == ARGV[3] then
    redis.call('SET', KEYS[i], ARGV[1], 'PX', ARGV[2])
    got[#got + 1] = i - 1
  end
end
return got`;

/** The value a lease handed over to worker `id` holds until that worker takes it. */
export function handoverMark(id: string): string {
  return `to:${id}`;
}

/**
 * A lease counts as lost this long before the TTL this worker last set runs out, and the fencing
 * check refuses a request with less life than this left: scheduling delays on a busy machine
 * must not let a request start after another worker may hold the shard.
 */
export const LEASE_MARGIN_MS = 500;

/**
 * The fencing check found the shard's lease gone or too close to its end: the request is not
 * sent and stays pending for the next holder. Not a TresError on purpose: the robots.txt cache
 * must not remember it as a failure of the host.
 */
export class LeaseLostError extends Error {
  constructor(readonly shard: number) {
    super(`lease of shard ${shard} lost`);
    this.name = 'LeaseLostError';
  }
}

/**
 * A request to a host of a shard this worker does not hold: another worker is its politeness
 * owner, so it is not sent (TRES_CLUSTER_FOREIGN_HOST). A page's redirect to such a host does not
 * get here (the worker hands the chain on); a sitemap listed on another shard's host does. Not a
 * TresError, for the same reason as {@link LeaseLostError}.
 */
export class ForeignHostError extends Error {
  /** Read by `errorCode()` (a sitemap's failure event). */
  readonly code = 'TRES_CLUSTER_FOREIGN_HOST';
  constructor(
    readonly url: string,
    readonly shard: number,
  ) {
    super(`${url} is in shard ${shard}, which another worker holds: not fetched here`);
    this.name = 'ForeignHostError';
  }
}
