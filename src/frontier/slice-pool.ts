/**
 * Typed-array helpers for per-id columns: {@link growableArray} and {@link grownArray}, and
 * {@link SlicePool}, one shared Int32Array holding a variable-length slice per id (link features,
 * field-word ids) instead of an array object per id: few bytes per frontier URL, and no insert that pays for
 * copying a whole column.
 *
 * Why resizable ArrayBuffers (ES2024, Node 20) rather than columns in fixed-size pages: growing a
 * column copied it (4 to 21 ms per growth of the sample table at 26k to 448k samples in the
 * decision benchmark, 179 ms once; 13 to 30 ms at 300k to 690k in `frontier-growth-bench`, less
 * GC pauses and waits for a CPU). A resizable buffer reserves address space up front and grows
 * in place (0.05 ms at 8M entries), and its length-tracking view stays the same object, so the
 * frontiers keep indexing `table.x` and `table.key` as one array. Pages would have given the same
 * bounded growth but a new API for `x` and `key` in every frontier and strategy that reads them.
 * Costs, measured on Node 20 (V8 11.3): an element read or write takes about 1.4 ns more than
 * on a plain typed array (a page lookup costs the same); a function that sees both kinds is
 * polymorphic there; and V8 counts these buffers in neither `heapUsed` nor `external` of
 * `process.memoryUsage()` (RSS counts their touched pages; reserved, untouched ones cost no
 * memory), so memory figures add {@link growableBytes}.
 */

type Column = Int32Array | Uint8Array | Float32Array | Float64Array;
type ColumnClass<T extends Column> = {
  new (length: number): T;
  new (buffer: ArrayBuffer): T;
  readonly BYTES_PER_ELEMENT: number;
};
/** ES2024's resizable ArrayBuffer (the project's lib is ES2023). */
interface ResizableBuffer extends ArrayBuffer {
  readonly resizable: boolean;
  readonly maxByteLength: number;
  resize(byteLength: number): void;
}
const Resizable = ArrayBuffer as unknown as new (
  byteLength: number,
  options: { maxByteLength: number },
) => ResizableBuffer;

/** V8's largest resizable ArrayBuffer (Node 20): 4 GiB of address space, not memory. */
const MAX_RESIZABLE_BYTES = 2 ** 32;
/** Entries a growable column reserves room for unless told (the cap above may cut it). */
const DEFAULT_MAX_LENGTH = 2 ** 27;

/**
 * Capacity for a growable column that must hold `needed` entries and holds `current`: one eighth
 * more at a time. Growing in place copies nothing, so a small step costs only more (cheap)
 * resizes, and it bounds the slack of a column to 12.5% of its entries (at 1.5x, the old step,
 * a table just past a growth carried up to half again its size: 26 of tres's 347 bytes per
 * frontier URL at 100k, results/memory.md).
 */
export function grownCapacity(current: number, needed: number): number {
  return Math.max(needed, Math.ceil(current * 1.125), 64);
}

/**
 * Committed bytes of the growable columns' buffers, each kept beside its buffer (growth adds to
 * it) and handed to the finalizer, which takes the buffer's bytes off the total once collected.
 */
const bytesOf = new WeakMap<ArrayBuffer, { bytes: number }>();
let growableTotal = 0;
const collected = new FinalizationRegistry<{ bytes: number }>((held) => {
  growableTotal -= held.bytes;
});

/**
 * Bytes of all live growable columns ({@link growableArray}): V8 counts resizable buffers in
 * neither `heapUsed` nor `external` of `process.memoryUsage()`, so a memory figure adds this.
 * Buffers collected by a GC leave the count when their finalizer runs, once the event loop turns.
 */
export function growableBytes(): number {
  return growableTotal;
}

function track(buffer: ArrayBuffer, bytes: number): void {
  const held = { bytes };
  bytesOf.set(buffer, held);
  collected.register(buffer, held);
  growableTotal += bytes;
}

/**
 * A zero-filled column of `length` entries over a resizable ArrayBuffer that {@link grownArray}
 * grows in place, up to `maxLength` entries (beyond that it copies into a larger one); a plain
 * array where resizable buffers are missing or the address space is refused.
 */
export function growableArray<T extends Column>(
  Ctor: ColumnClass<T>,
  length: number,
  maxLength = DEFAULT_MAX_LENGTH,
): T {
  const bytes = Ctor.BYTES_PER_ELEMENT;
  const maxByteLength = Math.min(MAX_RESIZABLE_BYTES, Math.max(length, maxLength) * bytes);
  if (length * bytes > maxByteLength) return new Ctor(length);
  let buffer: ResizableBuffer;
  try {
    buffer = new Resizable(length * bytes, { maxByteLength });
  } catch {
    return new Ctor(length);
  }
  track(buffer, length * bytes);
  return new Ctor(buffer);
}

/**
 * `a` with room for `length` entries (at least its length; the new ones zero): the same array
 * grown in place if it is growable and its reserve allows, else a copy (growable if possible).
 * Callers must not keep `a.length` from before the call: a growable array's length changes.
 */
export function grownArray<T extends Column>(a: T, length: number): T {
  const buffer = a.buffer as ResizableBuffer;
  const bytes = a.BYTES_PER_ELEMENT;
  if (buffer.resizable && a.byteOffset === 0 && length * bytes <= buffer.maxByteLength) {
    if (length > a.length) {
      const held = bytesOf.get(buffer) as { bytes: number };
      growableTotal += length * bytes - held.bytes;
      held.bytes = length * bytes;
      buffer.resize(length * bytes);
    }
    if (a.length >= length) return a; // else a fixed-length view: copied below
  }
  const Ctor = a.constructor as ColumnClass<T>;
  const b = buffer.resizable ? growableArray(Ctor, length, length * 2) : new Ctor(length);
  b.set(a);
  return b;
}

/** One Int32Array slice per id, in a shared pool compacted when half of it is dead. */
export class SlicePool {
  private pool: Int32Array;
  private used = 0;
  /** Entries of live slices (the rest of `used` is dead). */
  private live = 0;
  private startOf = growableArray(Int32Array, 1024);
  private lengthOf = growableArray(Int32Array, 1024);

  /** @param initialEntries pool entries allocated up front */
  constructor(initialEntries = 1 << 16) {
    this.pool = growableArray(Int32Array, initialEntries, 2 ** 30);
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

  /**
   * The pool itself, valid until the next {@link SlicePool.set}: the slice of `id` is its entries
   * from {@link SlicePool.start} for {@link SlicePool.length}. For a hot loop over many slices, where
   * a {@link SlicePool.view} per slice (a typed-array object each) costs more than the reads.
   */
  get entries(): Int32Array {
    return this.pool;
  }
  /** Where the slice of `id` starts in {@link SlicePool.entries}. */
  start(id: number): number {
    return this.startOf[id] as number;
  }
  /** Entries in the slice of `id`. */
  length(id: number): number {
    return this.lengthOf[id] as number;
  }

  /** The slice of `id`: a view into the pool, valid until the next {@link SlicePool.set}. */
  view(id: number): Int32Array {
    const start = this.startOf[id] as number;
    return this.pool.subarray(start, start + (this.lengthOf[id] as number));
  }

  /**
   * Makes room for `n` more entries: compacts into a new pool if half of it is dead (a copy of the
   * live slices, after at least as many entries were written since the last one), else grows it
   * in place.
   */
  private reserve(n: number, idCount: number, isLive: (id: number) => boolean): void {
    if (this.used + n <= this.pool.length) return;
    if (this.live * 2 > this.used) {
      this.pool = grownArray(this.pool, Math.ceil((this.used + n) * 1.5));
      return;
    }
    const pool = growableArray(Int32Array, Math.max(this.pool.length, this.live + n), 2 ** 30);
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
