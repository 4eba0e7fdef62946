/**
 * Strings interned as small integer ids (URLs, hosts, domains of the frontier's samples): each
 * distinct string is kept once, and a sample stores a 4-byte id instead of its own copy (the
 * crawl loop makes a fresh host and domain string for every link). Released ids are reused.
 *
 * The index is an open-addressing hash table of ids in an Int32Array (FNV-1a over the UTF-16
 * code units, linear probing, tombstones), not a `Map`: a Map entry costs 28 to 56 bytes on
 * 64-bit V8, a slot here 4 (8 at the lowest load), which matters at millions of URLs.
 */
const EMPTY = -1;
const TOMBSTONE = -2;

function hashOf(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return (h ^ (h >>> 16)) >>> 0;
}

export class StringIds {
  private table = new Int32Array(16).fill(EMPTY);
  private readonly strings: (string | undefined)[] = [];
  private readonly free: number[] = [];
  private count = 0;
  private tombstones = 0;
  /** True if the last {@link StringIds.intern} call gave a new id. */
  isNew = false;

  /** Number of strings held. */
  get size(): number {
    return this.count;
  }

  /** Upper bound of the ids given so far (ids are 0 .. idCount - 1). */
  get idCount(): number {
    return this.strings.length;
  }

  /** The id of `s`, giving it one if it has none. */
  intern(s: string): number {
    const mask = this.table.length - 1;
    let b = hashOf(s) & mask;
    let firstTombstone = -1;
    for (;;) {
      const id = this.table[b] as number;
      if (id === EMPTY) break;
      if (id === TOMBSTONE) {
        if (firstTombstone < 0) firstTombstone = b;
      } else if (this.strings[id] === s) {
        this.isNew = false;
        return id;
      }
      b = (b + 1) & mask;
    }
    this.isNew = true;
    const id = this.free.pop() ?? this.strings.length;
    this.strings[id] = s;
    if (firstTombstone >= 0) {
      this.table[firstTombstone] = id;
      this.tombstones--;
    } else this.table[b] = id;
    this.count++;
    if ((this.count + this.tombstones) * 2 > this.table.length) this.rehash();
    return id;
  }

  /** The id of `s`, or undefined. */
  idOf(s: string): number | undefined {
    const b = this.find(s);
    return b < 0 ? undefined : (this.table[b] as number);
  }

  /** The string of a held id. */
  string(id: number): string {
    return this.strings[id] as string;
  }

  /** Forgets the string of `id`; the id may be handed out again. */
  release(id: number): void {
    const s = this.strings[id];
    if (s === undefined) return;
    const b = this.find(s);
    if (b >= 0) this.table[b] = TOMBSTONE;
    this.tombstones++;
    this.count--;
    this.strings[id] = undefined;
    this.free.push(id);
  }

  /** The table slot holding `s`, or -1. */
  private find(s: string): number {
    const mask = this.table.length - 1;
    for (let b = hashOf(s) & mask; ; b = (b + 1) & mask) {
      const id = this.table[b] as number;
      if (id === EMPTY) return -1;
      if (id >= 0 && this.strings[id] === s) return b;
    }
  }

  /** Rebuilds the table at a size that keeps the load between 1/8 and 1/2 (tombstones dropped). */
  private rehash(): void {
    let size = 16;
    while (size < this.count * 4) size *= 2;
    const table = new Int32Array(size).fill(EMPTY);
    const mask = size - 1;
    for (let id = 0; id < this.strings.length; id++) {
      const s = this.strings[id];
      if (s === undefined) continue;
      let b = hashOf(s) & mask;
      while (table[b] !== EMPTY) b = (b + 1) & mask;
      table[b] = id;
    }
    this.table = table;
    this.tombstones = 0;
  }
}
