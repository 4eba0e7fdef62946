/**
 * Work-following rebalancing: which of a worker's shards to hand over to an idle worker.
 *
 * Work follows the host hash, so the shards a worker holds may have no requests while another
 * worker's have many (their hosts are where the frontier is; a worker that joined late took
 * shards the others gave back, those with the least in flight). Shard counts alone do not fix
 * that. So, every lease round, a worker with requests in two or more of its shards hands one of
 * them over to a worker that had none for a whole round (load 0 in the heartbeat): it stops reading the shard, lets its
 * fetches finish, and turns the lease into a mark only that worker can take (HANDOVER_SCRIPT in
 * lease-scripts.ts). The receiver waits one minimum delay before its first fetch, as after any
 * handover, so a host keeps one politeness owner at a time. The receiver then holds one shard
 * more than its fair share and gives back the one with the fewest requests; the giver takes a
 * free one: shard counts stay even, and the work spreads.
 */

/**
 * A shard this worker holds and may hand over: its requests in Redis (queued or in flight) and
 * those started since the last lease round.
 */
export interface ShardWork {
  shard: number;
  requests: number;
}

/** A shard to hand over, to whom, and its requests (added to the receiver's published load). */
export interface Handover {
  shard: number;
  to: string;
  requests: number;
}

/**
 * The shard to hand over and its receiver, or undefined. Only shards with requests count; with
 * fewer than two, handing one over would only move the idleness. The shard given is the one
 * whose requests come closest to half of this worker's (the two then hold about as much), the
 * receiver one of the idle workers (load 0; -1 is a load not published), drawn with `pick`.
 */
export function chooseHandover(
  mine: readonly ShardWork[],
  self: string,
  loads: ReadonlyMap<string, number>,
  pick: (n: number) => number,
): Handover | undefined {
  const busy = mine.filter((s) => s.requests > 0);
  if (busy.length < 2) return undefined;
  const idle = [...loads.entries()]
    .filter(([id, load]) => id !== self && load === 0)
    .map(([id]) => id)
    .sort();
  if (idle.length === 0) return undefined;
  const half = busy.reduce((sum, s) => sum + s.requests, 0) / 2;
  const best = [...busy].sort(
    (a, b) => Math.abs(a.requests - half) - Math.abs(b.requests - half) || a.shard - b.shard,
  )[0] as ShardWork;
  return { shard: best.shard, to: idle[pick(idle.length)] as string, requests: best.requests };
}
