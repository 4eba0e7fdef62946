/**
 * Experience replay for TRES's DDQN (Mnih et al. 2015; TRES section 2.4.2): a ring of the last
 * `capacity` transitions. A TRES transition differs from the textbook (s, a, r, s') in that the
 * next state is represented by a *set* of candidate next actions (the fetched page's outlinks
 * plus the action the Tree-Frontier returned), each a state-action vector, so each slot holds a
 * variable-length matrix.
 *
 * Storage: the taken actions share one Float32Array arena [capacity, featureCount]; each slot's
 * candidate set is its own Float32Array [nextCount, featureCount] (copied on insert, so callers
 * may reuse their buffers). Memory is about 4 * featureCount * (1 + candidates) bytes a slot:
 * 20,000 slots x 50 candidates x 9 features is ~37 MB; cap it with `maxCandidates`.
 *
 * A candidate set is stored without exact duplicates (bit-identical rows; the first of each kept,
 * in order): the Double DQN target uses only the argmax over the set (first on ties) and the
 * forward pass gives every row the same Q wherever it sits in a batch, so the targets are exactly
 * those of the full set. Outlinks of one page share most features (parent reward, path, domain):
 * on the engine benchmark's web 15.4 candidate rows per transition held 4.2 distinct ones, so
 * this cuts the training forward pass and the memory about 3.6x.
 */

import type { Rng } from '../../common/index.js';
import { ConfigError } from '../../common/index.js';

/** One step of experience. */
export interface Transition {
  /** State-action vector of the action taken. [featureCount] */
  x: Float32Array;
  /** Reward received for it (TRES: 1 if the fetched page is relevant, else 0). */
  reward: number;
  /**
   * Candidate next actions, row-major, possibly empty. [nextCount, featureCount]. TRES: the
   * fetched page's outlinks plus the Tree-Frontier's next choice; put the latter first so a
   * `maxCandidates` cap always keeps it.
   */
  nextXs: Float32Array;
  /** True when no action follows: the target is the reward alone and `nextXs` is ignored. */
  isDone: boolean;
}

/** The contents of a {@link ReplayBuffer} by slot (0 .. size - 1), for checkpoints. */
export interface ReplaySnapshot {
  /** Transitions ever added (the next goes to slot added % capacity). */
  added: number;
  xs: Float32Array; // [size, featureCount]
  rewards: Float64Array; // [size]
  dones: Uint8Array; // [size]
  nextCounts: Int32Array; // [size]
  nexts: Float32Array; // [sum of nextCounts, featureCount]
}

/** Options of a {@link ReplayBuffer}. */
export interface ReplayBufferOptions {
  /** Transitions kept; the oldest is overwritten when full. @default 20_000 (the TRES code) */
  capacity: number;
  /** Length of every state-action vector. Required. */
  featureCount: number;
  /**
   * Most candidates kept per transition: larger sets are thinned to an evenly strided subset
   * that always includes the first row. `false` keeps all (the paper). @default false
   */
  maxCandidates: number | false;
}

const EMPTY = new Float32Array(0);

/** Ring buffer of {@link Transition}s addressed by slot (0 .. size - 1). */
export class ReplayBuffer {
  readonly capacity: number;
  readonly featureCount: number;
  readonly maxCandidates: number | false;
  private readonly xs: Float32Array; // [capacity, featureCount]
  private readonly rewards: Float64Array; // [capacity]
  private readonly dones: Uint8Array; // [capacity]
  private readonly nexts: Float32Array[]; // [capacity] of [nextCount, featureCount]
  private added = 0;

  /** Throws ConfigError naming the first bad field. */
  constructor(options: Partial<ReplayBufferOptions> & { featureCount: number }) {
    const o = { capacity: 20_000, maxCandidates: false as const, ...options };
    const isPosInt = (v: unknown) => Number.isInteger(v) && (v as number) > 0;
    for (const field of ['capacity', 'featureCount'] as const)
      if (!isPosInt(o[field]))
        throw new ConfigError(`replay ${field} must be an integer > 0, got ${o[field]}`, {
          context: { field },
        });
    if (o.maxCandidates !== false && !isPosInt(o.maxCandidates))
      throw new ConfigError(`replay maxCandidates must be an integer > 0 or false, got ${o.maxCandidates}`, {
        context: { field: 'maxCandidates' },
      });
    this.capacity = o.capacity;
    this.featureCount = o.featureCount;
    this.maxCandidates = o.maxCandidates;
    this.xs = new Float32Array(o.capacity * o.featureCount);
    this.rewards = new Float64Array(o.capacity);
    this.dones = new Uint8Array(o.capacity);
    this.nexts = new Array<Float32Array>(o.capacity).fill(EMPTY);
  }

  /** Transitions held: min(added, capacity). */
  get size(): number {
    return Math.min(this.added, this.capacity);
  }

  /** Transitions ever added (including overwritten ones). */
  get totalAdded(): number {
    return this.added;
  }

  /**
   * Stores a copy of `t` in slot `totalAdded % capacity`, overwriting the oldest when full, and
   * returns the slot. Throws RangeError on vectors of the wrong length or a non-finite reward.
   */
  add(t: Transition): number {
    const f = this.featureCount;
    if (t.x.length !== f) throw new RangeError(`transition x has ${t.x.length} features, expected ${f}`);
    if (t.nextXs.length % f !== 0)
      throw new RangeError(`transition nextXs has ${t.nextXs.length} values, not a multiple of ${f}`);
    if (!Number.isFinite(t.reward)) throw new RangeError(`transition reward must be finite, got ${t.reward}`);
    const slot = this.added % this.capacity;
    this.xs.set(t.x, slot * f);
    this.rewards[slot] = t.reward;
    this.dones[slot] = t.isDone ? 1 : 0;
    this.nexts[slot] = t.isDone ? EMPTY : distinctRows(this.thin(t.nextXs), this.featureCount);
    this.added++;
    return slot;
  }

  /**
   * `batchSize` slots drawn uniformly *with* replacement (as Stable-Baselines3 and CleanRL's DQN
   * do: O(batch), and duplicates are rare once the buffer is large). Deterministic given `rng`'s
   * state. Writes into `out` when given. Throws RangeError if the buffer is empty.
   */
  sample(batchSize: number, rng: Rng, out: Int32Array = new Int32Array(batchSize)): Int32Array {
    const size = this.size;
    if (size === 0) throw new RangeError('cannot sample an empty replay buffer');
    for (let k = 0; k < batchSize; k++) out[k] = rng.int(size);
    return out;
  }

  /** The taken action's vector in `slot` (a view; do not keep it across adds). [featureCount] */
  x(slot: number): Float32Array {
    const f = this.featureCount;
    return this.xs.subarray(slot * f, slot * f + f);
  }

  /** Reward stored in `slot`. */
  reward(slot: number): number {
    return this.rewards[slot]!;
  }

  /** Whether the transition in `slot` ended its episode. */
  isDone(slot: number): boolean {
    return this.dones[slot] === 1;
  }

  /** Candidate next actions stored in `slot` (empty when done). [nextCount, featureCount] */
  nextXs(slot: number): Float32Array {
    return this.nexts[slot]!;
  }

  /** Number of candidate next actions stored in `slot`. */
  nextCount(slot: number): number {
    return this.nexts[slot]!.length / this.featureCount;
  }

  /** Every transition held, by slot, and the count ever added: what a checkpoint keeps. */
  snapshot(): ReplaySnapshot {
    const size = this.size;
    const f = this.featureCount;
    const nextCounts = new Int32Array(size);
    let total = 0;
    for (let s = 0; s < size; s++) {
      nextCounts[s] = this.nextCount(s);
      total += nextCounts[s] as number;
    }
    const nexts = new Float32Array(total * f);
    for (let s = 0, at = 0; s < size; s++) {
      nexts.set(this.nexts[s] as Float32Array, at);
      at += (this.nexts[s] as Float32Array).length;
    }
    return {
      added: this.added,
      xs: this.xs.slice(0, size * f),
      rewards: this.rewards.slice(0, size),
      dones: this.dones.slice(0, size),
      nextCounts,
      nexts,
    };
  }

  /**
   * Replaces the contents with a {@link ReplayBuffer.snapshot} of a buffer of the same capacity
   * and feature count. @throws ConfigError if it does not fit.
   */
  load(snapshot: ReplaySnapshot): void {
    const f = this.featureCount;
    const size = Math.min(snapshot.added, this.capacity);
    const total = snapshot.nextCounts.reduce((n, c) => n + c, 0);
    if (
      snapshot.rewards.length !== size ||
      snapshot.xs.length !== size * f ||
      snapshot.dones.length !== size ||
      snapshot.nextCounts.length !== size ||
      snapshot.nexts.length !== total * f
    )
      throw new ConfigError(`replay checkpoint does not fit a buffer of ${this.capacity} x ${f}`, {
        context: { field: 'replay' },
      });
    this.xs.fill(0);
    this.xs.set(snapshot.xs);
    this.rewards.fill(0);
    this.rewards.set(snapshot.rewards);
    this.dones.fill(0);
    this.dones.set(snapshot.dones);
    this.nexts.fill(EMPTY);
    for (let s = 0, at = 0; s < size; s++) {
      const n = (snapshot.nextCounts[s] as number) * f;
      this.nexts[s] = n === 0 ? EMPTY : snapshot.nexts.slice(at, at + n);
      at += n;
    }
    this.added = snapshot.added;
  }

  /** `nextXs` (not copied: {@link distinctRows} copies), thinned to `maxCandidates` rows (rows floor(i * n / cap)). */
  private thin(nextXs: Float32Array): Float32Array {
    const f = this.featureCount;
    const n = nextXs.length / f;
    if (n === 0) return EMPTY;
    const cap = this.maxCandidates;
    if (cap === false || n <= cap) return nextXs;
    const out = new Float32Array(cap * f);
    for (let i = 0; i < cap; i++) {
      const row = Math.floor((i * n) / cap);
      out.set(nextXs.subarray(row * f, row * f + f), i * f);
    }
    return out;
  }
}

/**
 * A new array with the rows of `m` ([n, f]) that are not bit-identical to an earlier row, in
 * order. Rows are hashed on their bits into an open-addressing table of 2n..4n entries.
 */
export function distinctRows(m: Float32Array, f: number): Float32Array {
  const n = m.length / f;
  if (n <= 1) return m.slice();
  const bits = new Int32Array(m.buffer, m.byteOffset, m.length);
  let size = 4;
  while (size < 2 * n) size *= 2;
  const table = new Int32Array(size).fill(-1); // kept row index per bucket
  const out = new Float32Array(m.length);
  const outBits = new Int32Array(out.buffer);
  let kept = 0;
  for (let r = 0; r < n; r++) {
    const o = r * f;
    let h = 0x811c9dc5;
    for (let i = 0; i < f; i++) h = Math.imul(h ^ (bits[o + i] as number), 0x01000193);
    let b = (h ^ (h >>> 15)) & (size - 1);
    let isDuplicate = false;
    for (let k = table[b] as number; k >= 0; b = (b + 1) & (size - 1), k = table[b] as number) {
      let same = true;
      for (let i = 0; i < f && same; i++) same = outBits[k * f + i] === bits[o + i];
      if (same) {
        isDuplicate = true;
        break;
      }
    }
    if (isDuplicate) continue;
    table[b] = kept;
    out.set(m.subarray(o, o + f), kept * f);
    kept++;
  }
  return kept === n ? out : out.slice(0, kept * f);
}
