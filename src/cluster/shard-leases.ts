/**
 * The shard leases one worker holds (see worker.ts's file comment): taken, renewed and given
 * back each lease round toward a fair share of the shards, lost when not renewed in time, and
 * the fencing check right before each request leaves.
 *
 * Leases: `SET lease:i <token> NX PX ttl`, renewed every ttl/5 by a script that checks the token
 * (lease-scripts.ts). Each worker aims at a fair share, ceil(shards / live workers), taking free
 * shards and releasing extra ones (the fewest requests first) once nothing of them is in flight.
 * A shard taken over from another worker waits one minimum delay before its first fetch (its
 * hosts' last requests may have just ended). Work follows too: a worker with requests in two or
 * more shards hands one over to a worker that had none for a lease round, through a lease only
 * that worker can take (rebalance.ts).
 */
import { setMaxListeners } from 'node:events';
import type { Redis } from 'ioredis';
import { type Clock, createRng, type Rng } from '../common/index.js';
import { hostOf } from '../url/index.js';
import { type ClusterKeys, type ResolvedClusterOptions, shardOf } from './cluster-options.js';
import {
  ACQUIRE_SCRIPT,
  FENCE_SCRIPT,
  ForeignHostError,
  HANDOVER_SCRIPT,
  HEARTBEAT_SCRIPT,
  handoverMark,
  LEASE_MARGIN_MS,
  LeaseLostError,
  RELEASE_SCRIPT,
  RENEW_SCRIPT,
  TAKE_HANDOVERS_SCRIPT,
} from './lease-scripts.js';
import { chooseHandover } from './rebalance.js';

/** A shard whose lease this worker holds. */
export interface HeldShard {
  /** The lease's value in Redis: this worker's id and the round it was taken in. */
  token: string;
  /** Monotonic ms before which no request of the shard is read (handover quiet time). */
  readyAtMs: number;
  /** Monotonic ms the lease is known to hold until (last renewal + ttl). */
  validUntilMs: number;
  inFlight: number;
  /** Requests started since the last heartbeat: with those still in Redis, the shard's work. */
  started: number;
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
  /** The idle worker the shard goes to once its fetches are done (rebalance.ts). */
  handoverTo?: string;
  abort: AbortController;
}

/** What {@link ShardLeases} needs of its worker. */
export interface ShardLeasesOptions {
  cmd: Redis;
  keys: ClusterKeys;
  /** The worker's id: its lease tokens are `<id>#<round>`. */
  id: string;
  /** The cluster's options (`shards` follows the coordinator's). */
  options: ResolvedClusterOptions;
  clock: Clock;
  log: (line: string) => void;
  /** Shards were taken: the read loop may read them. */
  onTaken: () => void;
  /** Counts of shards taken, released and handed over (of those released), for the worker's summary. */
  counts: { shardsTaken: number; shardsReleased: number; shardsHandedOver: number };
}

/** What the last heartbeat read: the work in this worker's shards and the others' loads. */
interface Beat {
  /** Requests of each shard held (not releasing): in Redis, and started since the beat before. */
  requestsOf: Map<number, number>;
  /** Live workers' loads by id (-1: not published). */
  loads: Map<string, number>;
  /** Shards other workers handed over to this one. */
  handed: number[];
}

/** One worker's shard leases. */
export class ShardLeases {
  readonly held = new Map<number, HeldShard>();
  /** Rounds in which this worker took leases: the n of its lease tokens. */
  private leaseRounds = 0;
  private readonly rng: Rng;
  private beat: Beat = { requestsOf: new Map(), loads: new Map(), handed: [] };

  constructor(private readonly o: ShardLeasesOptions) {
    this.rng = createRng(`lease/${o.id}`);
  }

  /**
   * The heartbeat, with this worker's load: the requests its shards hold in Redis and those
   * started since the last beat, so that a load of 0 is a whole lease round without work. Reads
   * the live workers, their loads and the shards handed over to this worker.
   * @returns the number of live workers (at least 1).
   */
  async heartbeat(): Promise<number> {
    const k = this.o.keys;
    const active = [...this.held.entries()].filter(([, h]) => !h.isReleasing);
    const started = active.map(([, h]) => h.started);
    for (const [, h] of this.held) h.started = 0;
    const [live, inRedis, ids, loads, handed] = (await this.o.cmd.eval(
      HEARTBEAT_SCRIPT,
      3 + active.length,
      k.workers,
      k.loads,
      k.handovers(this.o.id),
      ...active.map(([shard]) => k.requests(shard)),
      this.o.id,
      this.o.options.leaseTtlMs,
      started.reduce((a, b) => a + b, 0),
    )) as [number, number[], string[], number[], string[]];
    this.beat = {
      requestsOf: new Map(active.map(([shard], i) => [shard, (inRedis[i] ?? 0) + (started[i] ?? 0)])),
      loads: new Map(ids.map((id, i) => [id, loads[i] ?? -1])),
      handed: handed.map(Number),
    };
    return Math.max(1, live);
  }

  /**
   * One lease round after the heartbeat: renews the leases held, hands a shard with work over to
   * an idle worker, gives back shards beyond the fair share once idle, and takes the shards
   * handed over to this worker and free shards up to the fair share. `now` is when the round began (a
   * renewed lease holds from then), `quietMs` the wait before a newly taken shard's first fetch.
   */
  async round(now: number, live: number, quietMs: number): Promise<void> {
    const ttl = this.o.options.leaseTtlMs;
    const k = this.o.keys;
    const cmd = this.o.cmd;
    const heldShards = [...this.held.keys()];
    if (heldShards.length > 0) {
      const tokens = heldShards.map((sh) => this.held.get(sh)?.token ?? '');
      const kept = (await cmd.eval(
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
    await this.handOver(now);
    const { requestsOf } = this.beat;
    const shards = this.o.options.shards;
    const fair = Math.ceil(shards / live);
    const active = [...this.held.entries()].filter(([, h]) => !h.isReleasing);
    if (active.length > fair) {
      // Give back the extra shards with the fewest requests; they go once idle.
      const work = ([shard, h]: [number, HeldShard]) => (requestsOf.get(shard) ?? 0) + h.inFlight;
      active.sort((a, b) => work(a) - work(b) || a[0] - b[0]);
      for (const [shard, h] of active.slice(0, active.length - fair)) {
        h.isReleasing = true;
        this.o.log(`releasing shard ${shard} (fair share ${fair} of ${shards} with ${live} workers)`);
      }
    }
    for (const [shard, h] of this.held) {
      if (h.isReleasing && h.inFlight === 0) {
        if (h.handoverTo === undefined) await cmd.eval(RELEASE_SCRIPT, 1, k.lease(shard), h.token);
        else {
          const isHandedOver = await cmd.eval(
            HANDOVER_SCRIPT,
            2,
            k.lease(shard),
            k.handovers(h.handoverTo),
            h.token,
            handoverMark(h.handoverTo),
            ttl,
            shard,
          );
          if (isHandedOver === 1) this.o.counts.shardsHandedOver++;
        }
        if (this.held.get(shard) === h) this.held.delete(shard);
        this.o.counts.shardsReleased++;
      }
    }
    const token = `${this.o.id}#${++this.leaseRounds}`;
    const taken: number[] = [];
    // Shards handed over to this worker: taken whatever its share (it gives back its idlest).
    const offered = this.beat.handed.filter((shard) => !this.held.has(shard));
    if (offered.length > 0) {
      const got = (await cmd.eval(
        TAKE_HANDOVERS_SCRIPT,
        1 + offered.length,
        k.handovers(this.o.id),
        ...offered.map((sh) => k.lease(sh)),
        token,
        ttl,
        handoverMark(this.o.id),
        ...offered,
      )) as number[];
      for (const index of got) taken.push(offered[index - 1] as number);
    }
    const need = fair - [...this.held.values()].filter((h) => !h.isReleasing).length - taken.length;
    if (need > 0) {
      const order = Array.from({ length: shards }, (_, i) => i).filter(
        (s) => !this.held.has(s) && !taken.includes(s),
      );
      this.rng.shuffle(order);
      const got = (await cmd.eval(
        ACQUIRE_SCRIPT,
        order.length,
        ...order.map((sh) => k.lease(sh)),
        token,
        ttl,
        need,
      )) as number[];
      for (const index of got) taken.push(order[index - 1] as number);
    }
    if (taken.length === 0) return;
    // The quiet time counts from when the lease is ours, not from the start of this round.
    const takenAtMs = this.o.clock.monotonicMs();
    for (const shard of taken) {
      this.o.counts.shardsTaken++;
      // Hosts of the shard may have had a request end just now at the previous holder.
      this.held.set(shard, {
        token,
        readyAtMs: takenAtMs + quietMs,
        validUntilMs: now + ttl - LEASE_MARGIN_MS,
        inFlight: 0,
        started: 0,
        entries: new Set(),
        claimedAtMs: undefined,
        isReleasing: false,
        abort: abortOfLease(),
      });
    }
    this.o.onTaken();
  }

  /**
   * Work to an idle worker (rebalance.ts): one shard at a time, of those past their quiet time;
   * it stops being read now and goes over once its fetches are done (in {@link round}).
   */
  private async handOver(now: number): Promise<void> {
    if ([...this.held.values()].some((h) => h.handoverTo !== undefined)) return;
    const { requestsOf, loads } = this.beat;
    const mine = [...this.held.entries()]
      .filter(([shard, h]) => !h.isReleasing && h.readyAtMs <= now && requestsOf.has(shard))
      .map(([shard]) => ({ shard, requests: requestsOf.get(shard) ?? 0 }));
    const handover = chooseHandover(mine, this.o.id, loads, (n) => this.rng.int(n));
    const h = handover && this.held.get(handover.shard);
    if (handover === undefined || h === undefined) return;
    h.isReleasing = true;
    h.handoverTo = handover.to;
    // Others see the receiver busy at once, not at its next heartbeat.
    await this.o.cmd.hincrby(this.o.keys.loads, handover.to, handover.requests);
    this.o.log(
      `handing shard ${handover.shard} (${handover.requests} requests) over to idle worker ${handover.to}`,
    );
  }

  /** Loses every shard whose lease was not renewed in time. */
  expire(): void {
    const now = this.o.clock.monotonicMs();
    for (const [shard, h] of this.held)
      if (h.validUntilMs <= now) this.lose(shard, 'lease not renewed in time');
  }

  /** Stops fetching from a shard whose lease is gone; its requests stay pending for the new holder. */
  lose(shard: number, why: string): void {
    const h = this.held.get(shard);
    if (!h) return;
    this.o.log(`lost shard ${shard}: ${why}`);
    h.abort.abort(new Error(`lease of shard ${shard} lost`));
    this.held.delete(shard);
  }

  /** Aborts every shard's fetches and forgets the leases, without a word to Redis. */
  dropAll(): void {
    for (const [shard, h] of this.held) h.abort.abort(new LeaseLostError(shard));
    this.held.clear();
  }

  /** Gives every lease back. */
  async releaseAll(): Promise<void> {
    for (const [shard, h] of this.held) {
      await this.o.cmd.eval(RELEASE_SCRIPT, 1, this.o.keys.lease(shard), h.token).catch(() => {});
    }
    this.held.clear();
  }

  /**
   * The fencing check, right before a request to `url` leaves (see worker.ts's file comment).
   * @throws LeaseLostError (and aborts the shard's fetches) when the lease is gone or too close to
   *   its end; ForeignHostError for a host of a shard this worker does not hold (a redirect).
   */
  async fence(url: string): Promise<void> {
    const shard = shardOf(hostOf(url), this.o.options.shards);
    const h = this.held.get(shard);
    if (h === undefined) throw new ForeignHostError(url, shard);
    if (h.abort.signal.aborted) throw new LeaseLostError(shard);
    const clock = this.o.clock;
    const askedAtMs = clock.monotonicMs();
    const pttl = Number(await this.o.cmd.eval(FENCE_SCRIPT, 1, this.o.keys.lease(shard), h.token));
    // The lease ends no sooner than askedAt + pttl (Redis counted pttl after we asked); the time
    // the answer took (a paused or starved process) is spent from it.
    const now = clock.monotonicMs();
    if (pttl < LEASE_MARGIN_MS || now >= askedAtMs + pttl - LEASE_MARGIN_MS || this.held.get(shard) !== h) {
      this.lose(
        shard,
        pttl < 0 ? 'lease taken or expired (fencing check)' : 'lease too close to its end (fencing check)',
      );
      throw new LeaseLostError(shard);
    }
  }
}

/**
 * The controller that aborts a lease's fetches in flight. Each of them listens on its signal until
 * it ends (the fetcher removes its listener): no leak, so Node's warning past 10 listeners is off.
 */
function abortOfLease(): AbortController {
  const abort = new AbortController();
  setMaxListeners(0, abort.signal);
  return abort;
}
