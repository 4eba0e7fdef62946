/**
 * Typed-array helpers for per-id columns: {@link grownArray} and {@link SlicePool}, one shared
 * Int32Array holding a variable-length slice per id (link features, field-word ids) instead of
 * an array object per id. Issue 13: bytes per frontier URL.
 */

/** A copy of `a` with room for `length` entries (the new ones zero). */
export function grownArray<T extends Int32Array | Uint8Array | Float32Array | Float64Array>(
  a: T,
  length: number,
): T {
  const b = new (a.constructor as new (n: number) => T)(length);
  b.set(a);
  return b;
}

/** One Int32Array slice per id, in a shared pool compacted when half of it is dead. */
export class SlicePool {
  private pool: Int32Array;
  private used = 0;
  /** Entries of live slices (the rest of `used` is dead). */
  private live = 0;
  private startOf = new Int32Array(1024);
  private lengthOf = new Int32Array(1024);

  /** @param initialEntries pool entries allocated up front */
  constructor(initialEntries = 1 << 16) {
    this.pool = new Int32Array(initialEntries);
  }

  /**
   * Stores `values` as the slice of `id`, replacing any it had.
   * @param isLive true for the ids whose slices a compaction keeps (below `idCount`)
   */
  set(id: number, values: ArrayLike<number>, idCount: number, isLive: (id: number) => boolean): void {
    if (id >= this.startOf.length) {
      const length = Math.max(id + 1, Math.ceil(this.startOf.length * 1.5));
      this.startOf = grownArray(this.startOf, length);
      this.lengthOf = grownArray(this.lengthOf, length);
    }
    this.free(id);
    const n = values.length;
    this.reserve(n, idCount, isLive);
    this.pool.set(values, this.used);
    this.startOf[id] = this.used;
    this.lengthOf[id] = n;
    this.used += n;
    this.live += n;
  }

  /** Drops the slice of `id` (its entries become dead). */
  free(id: number): void {
    if (id >= this.lengthOf.length) return;
    this.live -= this.lengthOf[id] as number;
    this.lengthOf[id] = 0;
  }

  /** The slice of `id`: a view into the pool, valid until the next {@link SlicePool.set}. */
  view(id: number): Int32Array {
    const start = this.startOf[id] as number;
    return this.pool.subarray(start, start + (this.lengthOf[id] as number));
  }

  /** Makes room for `n` more entries: compacts if half the pool is dead, else grows it. */
  private reserve(n: number, idCount: number, isLive: (id: number) => boolean): void {
    if (this.used + n <= this.pool.length) return;
    const isCompacting = this.live * 2 <= this.used;
    const length = isCompacting ? this.pool.length : Math.ceil((this.used + n) * 1.5);
    const pool = new Int32Array(Math.max(length, this.live + n));
    let used = 0;
    for (let id = 0; id < Math.min(idCount, this.startOf.length); id++) {
      if (!isLive(id)) continue;
      const len = this.lengthOf[id] as number;
      pool.set(this.view(id), used);
      this.startOf[id] = used;
      used += len;
    }
    this.pool = pool;
    this.used = used;
  }
}
