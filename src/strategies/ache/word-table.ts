/**
 * A map from words to integers for the hottest lookup of link encoding: every word around every
 * link of every page (`FieldWords`). A word is keyed by two 32-bit hashes of its characters (FNV-1a
 * and a multiplicative one), kept beside its value in one Int32Array with open addressing, so a
 * lookup reads one slot of a typed array and never the stored word.
 *
 * Why not a Map<string, number>: the words are fresh strings sliced from each page, and on the
 * engine benchmark a Map lookup of one took about 400 ns in the crawl (4.3M lookups, 1.8 s of a
 * 33 s `coverage` crawl): its bucket, its entry and the stored key string are three places in
 * memory that a crawl's other work has evicted from the caches.
 *
 * Two words with the same pair of hashes would share a value. With 64 bits of hash the chance
 * that any two of n words do is about n^2 / 2^65: 3e-10 for 100,000 words. Deterministic either way.
 */

/** Slots are [hash1, hash2, value]; a slot whose value is EMPTY is free. */
const EMPTY = -0x80000000;
const SLOT = 3;

/** The two hashes of `word` into `out` (reused). */
function hashInto(word: string, out: Int32Array): void {
  let h1 = 0x811c9dc5;
  let h2 = 0x9747b28c ^ word.length;
  for (let i = 0; i < word.length; i++) {
    const c = word.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x5bd1e995);
    h2 ^= h2 >>> 15;
  }
  out[0] = h1;
  out[1] = h2 ^ (h2 >>> 13);
}

/** Words to integers (see the file comment); nothing is ever removed. */
export class WordTable {
  private slots: Int32Array;
  private mask: number;
  private count = 0;
  private readonly hashes = new Int32Array(2);

  /** @param capacity slots to start with (a power of two is used) */
  constructor(capacity = 1 << 14) {
    let n = 16;
    while (n < capacity) n *= 2;
    this.slots = new Int32Array(n * SLOT).fill(EMPTY);
    this.mask = n - 1;
  }

  /** Number of words held. */
  get size(): number {
    return this.count;
  }

  /** The value of `word`, or undefined. */
  get(word: string): number | undefined {
    hashInto(word, this.hashes);
    const i = this.find(this.hashes[0] as number, this.hashes[1] as number);
    const value = this.slots[i + 2] as number;
    return value === EMPTY ? undefined : value;
  }

  /** Sets the value of `word` (an integer other than -2^31). */
  set(word: string, value: number): void {
    hashInto(word, this.hashes);
    const h1 = this.hashes[0] as number;
    const h2 = this.hashes[1] as number;
    const i = this.find(h1, h2);
    if (this.slots[i + 2] === EMPTY) {
      this.slots[i] = h1;
      this.slots[i + 1] = h2;
      this.count++;
    }
    this.slots[i + 2] = value;
    if (this.count * 2 > this.mask + 1) this.grow();
  }

  /** Index of the slot holding (h1, h2), or of the free slot where it would go (linear probing). */
  private find(h1: number, h2: number): number {
    const s = this.slots;
    let j = h1 & this.mask;
    for (;;) {
      const i = j * SLOT;
      if (s[i + 2] === EMPTY || (s[i] === h1 && s[i + 1] === h2)) return i;
      j = (j + 1) & this.mask;
    }
  }

  private grow(): void {
    const old = this.slots;
    const n = (this.mask + 1) * 2;
    this.slots = new Int32Array(n * SLOT).fill(EMPTY);
    this.mask = n - 1;
    for (let i = 0; i < old.length; i += SLOT) {
      if (old[i + 2] === EMPTY) continue;
      const j = this.find(old[i] as number, old[i + 1] as number);
      this.slots[j] = old[i] as number;
      this.slots[j + 1] = old[i + 1] as number;
      this.slots[j + 2] = old[i + 2] as number;
    }
  }
}
