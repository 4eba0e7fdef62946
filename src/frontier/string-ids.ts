/**
 * Strings interned as small integer ids (URLs, hosts, domains of the frontier's samples): each
 * distinct string is kept once, and a sample stores a 4-byte id instead of its own copy (the
 * crawl loop makes a fresh host and domain string for every link). Released ids are reused.
 *
 * The index is an open-addressing hash table of ids in an Int32Array (FNV-1a over the UTF-16
 * code units, linear probing, tombstones), not a `Map`: a Map entry costs 28 to 56 bytes on
 * 64-bit V8, a slot here 4 (8 at the lowest load), which matters at millions of URLs.
 *
 * Resizing is incremental (the work's own latency spikes): hashing every string again
 * into a new table at once cost one insert 7 to 36 ms at 44k to 315k URLs in the decision
 * benchmark, and 110 to 134 ms at 524k in `frontier-growth-bench`. Now a resize only allocates
 * the new table; each later insert moves the next few ids into it, and lookups look in the new
 * table, then in the old one, until all are moved. Keeping each string's hash beside its id would
 * have made a rehash cheaper but not bounded, and cost 4 bytes per URL.
 */
/** Slot values: 0 empty, -1 tombstone, else id + 1 (0 so that a new table needs no fill). */
const EMPTY = 0;
const TOMBSTONE = -1;
/**
 * Ids moved per insert while a resize drains (times ids / new size when that is more than 1). A
 * resize leaves the new table at most a quarter full and the next one comes when it is half
 * full, at least a quarter of its size in inserts later; a growth starts with about a quarter of
 * its size in ids, so 4 per insert move them all within a sixteenth. Fewer per insert spread the
 * same work thinner but keep lookups probing two tables for longer.
 */
const DRAIN_IDS = 4;
/** Strings per page of the id-to-string pages (a page, not one array copied as it grows). */
const PAGE_BITS = 12;
const PAGE_MASK = (1 << PAGE_BITS) - 1;

function hashOf(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return (h ^ (h >>> 16)) >>> 0;
}

export class StringIds {
  private table = new Int32Array(16);
  /**
   * The table before the last resize while ids below `drainEnd` are still being moved out of it
   * (ids from `drained` up), or null. It is never written: an entry of it whose id was released
   * (or moved, released and reused) cannot match, since a match compares the id's string now.
   */
  private old: Int32Array | null = null;
  private drained = 0;
  private drainEnd = 0;
  private drainStep = DRAIN_IDS;
  /** String of each id in pages of 2^PAGE_BITS; undefined for a released id. */
  private readonly pages: (string | undefined)[][] = [];
  private ids = 0;
  private readonly free: number[] = [];
  private count = 0;
  /** Tombstones of `table`. */
  private tombstones = 0;
  /** True if the last {@link StringIds.intern} call gave a new id. */
  isNew = false;

  /** Number of strings held. */
  get size(): number {
    return this.count;
  }

  /** Upper bound of the ids given so far (ids are 0 .. idCount - 1). */
  get idCount(): number {
    return this.ids;
  }

  /** The id of `s`, giving it one if it has none. */
  intern(s: string): number {
    const h = hashOf(s);
    const table = this.table;
    const mask = table.length - 1;
    let b = h & mask;
    let firstTombstone = -1;
    for (;;) {
      const v = table[b] as number;
      if (v === EMPTY) break;
      if (v === TOMBSTONE) {
        if (firstTombstone < 0) firstTombstone = b;
      } else if (this.string(v - 1) === s) {
        this.isNew = false;
        this.drain();
        return v - 1;
      }
      b = (b + 1) & mask;
    }
    if (this.old !== null) {
      const id = idIn(this.old, h, s, this);
      if (id >= 0) {
        this.isNew = false;
        this.drain();
        return id;
      }
    }
    this.isNew = true;
    const id = this.newId(s);
    if (firstTombstone >= 0) {
      table[firstTombstone] = id + 1;
      this.tombstones--;
    } else table[b] = id + 1;
    this.count++;
    if ((this.count + this.tombstones) * 2 > table.length) this.resize();
    else this.drain();
    return id;
  }

  /** The id of `s`, or undefined. */
  idOf(s: string): number | undefined {
    const h = hashOf(s);
    let id = idIn(this.table, h, s, this);
    if (id < 0 && this.old !== null) id = idIn(this.old, h, s, this);
    return id >= 0 ? id : undefined;
  }

  /** The string of a held id (undefined for a released or unknown one). */
  string(id: number): string {
    return this.pages[id >>> PAGE_BITS]?.[id & PAGE_MASK] as string;
  }

  /** Forgets the string of `id`; the id may be handed out again. */
  release(id: number): void {
    const page = this.pages[id >>> PAGE_BITS];
    const s = page?.[id & PAGE_MASK];
    if (s === undefined) return;
    // In the current table: a tombstone. In the old one only: nothing to do (see `old`).
    const table = this.table;
    const mask = table.length - 1;
    for (let b = hashOf(s) & mask; ; b = (b + 1) & mask) {
      const v = table[b] as number;
      if (v === EMPTY) break;
      if (v === id + 1) {
        table[b] = TOMBSTONE;
        this.tombstones++;
        break;
      }
    }
    this.count--;
    (page as (string | undefined)[])[id & PAGE_MASK] = undefined;
    this.free.push(id);
  }

  private newId(s: string): number {
    const id = this.free.pop() ?? this.ids++;
    const p = id >>> PAGE_BITS;
    if (p === this.pages.length) this.pages.push(new Array<string | undefined>(PAGE_MASK + 1));
    (this.pages[p] as (string | undefined)[])[id & PAGE_MASK] = s;
    return id;
  }

  /**
   * Starts a resize to a size that keeps the load between 1/8 and 1/2 (tombstones dropped): the
   * current table becomes the old one, and later inserts move its ids into the new one.
   */
  private resize(): void {
    while (this.old !== null) this.drain(); // not expected (see DRAIN_IDS); keeps one old table
    let size = 16;
    while (size < this.count * 4) size *= 2;
    this.old = this.table;
    this.drained = 0;
    this.drainEnd = this.ids;
    this.drainStep = DRAIN_IDS * Math.max(1, Math.ceil(this.ids / size));
    this.table = new Int32Array(size); // zero: all EMPTY, no fill pass
    this.tombstones = 0;
  }

  /**
   * Moves the next `drainStep` ids below `drainEnd` into the current table, in id order (the
   * order the strings were made in, kind to the cache) as the one-shot rehash did. An id already
   * there (interned again since the resize) or released is skipped.
   */
  private drain(): void {
    if (this.old === null) return;
    const table = this.table;
    const mask = table.length - 1;
    const end = Math.min(this.drainEnd, this.drained + this.drainStep);
    for (let id = this.drained; id < end; id++) {
      const s = this.string(id);
      if (s === undefined) continue;
      let b = hashOf(s) & mask;
      let firstTombstone = -1;
      let isThere = false;
      for (let v = table[b] as number; v !== EMPTY; v = table[b] as number) {
        if (v === id + 1) {
          isThere = true;
          break;
        }
        if (v === TOMBSTONE && firstTombstone < 0) firstTombstone = b;
        b = (b + 1) & mask;
      }
      if (isThere) continue;
      if (firstTombstone >= 0) {
        table[firstTombstone] = id + 1;
        this.tombstones--;
      } else table[b] = id + 1;
    }
    this.drained = end;
    if (end === this.drainEnd) this.old = null;
  }
}

/** The id whose string is `s` (hash `h`) in `table`, or -1. */
function idIn(table: Int32Array, h: number, s: string, ids: StringIds): number {
  const mask = table.length - 1;
  for (let b = h & mask; ; b = (b + 1) & mask) {
    const v = table[b] as number;
    if (v === EMPTY) return -1;
    if (v > 0 && ids.string(v - 1) === s) return v - 1;
  }
}
