/**
 * The fingerprints of the distinct pages a crawl holds, to tell a newly fetched page that is a
 * copy of one of them: exact copies by content hash, near copies by SimHash within `maxBits`
 * differing bits (Manku et al., WWW 2007: 64-bit fingerprints, k = 3). Near copies are found with
 * their table scheme reduced to one table per block: split the 64 bits into 4 blocks of 16; two
 * fingerprints within 3 bits agree on at least one whole block (pigeonhole), so only fingerprints
 * sharing a block are compared. Loaded from the store's rows on open, so resume sees the same.
 */
import { type ContentFingerprint, hammingDistance } from '../text/index.js';

/** What {@link DuplicateIndex.find} found. */
export interface DuplicateMatch {
  /** Store id of the page this one copies. */
  id: number;
  /** True for the same words (content hash); false for a near copy. */
  isExact: boolean;
}

const BLOCKS = 4;
/** Values of a 16-bit block. */
const BLOCK_VALUES = 1 << 16;
/** 32-bit words of a SHA-1 content hash (40 hex digits). */
const SHA1_WORDS = 5;
const SHA1_HEX = /^[0-9a-f]{40}$/;

/**
 * Everything is in typed arrays by fingerprint number k (pages in the order indexed), not in
 * Maps of arrays: a fingerprint costs 60 to 80 bytes (and the block heads 1 MiB in all), where a
 * Map of content-hash strings and four Maps of number arrays cost about 540 (10.5 MB in a V8
 * heap snapshot of a 20,000-page crawl).
 */
export class DuplicateIndex {
  private count = 0;
  /** Page id of fingerprint k. */
  private ids = new Int32Array(1024);
  /** [hi, lo] of fingerprint k at 2k, 2k + 1. */
  private hashes = new Uint32Array(2048);
  /** The five words of fingerprint k's SHA-1 content hash at 5k .. 5k + 4 (when it is one). */
  private exactWords = new Int32Array(1024 * SHA1_WORDS);
  /** Open-addressing table of SHA-1 content hashes: k + 1 (0 empty), linear probing. */
  private exactTable = new Int32Array(2048);
  /** Content hashes that are not a SHA-1 in hex (none from the crawler's fingerprints). */
  private readonly exactOther = new Map<string, number>();
  /**
   * Per block b: the last fingerprint k with each value of the block, as k + 1 (0: none); the
   * fingerprints before it with that value are chained by `nextInBlock[4k + b]` (k + 1, 0 at the
   * end). Empty when only exact copies are found.
   */
  private readonly heads: Int32Array[];
  private nextInBlock = new Int32Array(1024 * BLOCKS);

  /**
   * @param maxBits fingerprints this close (differing bits, 0 to 3) are near copies; `false`
   *   finds exact copies only.
   */
  constructor(private readonly maxBits: number | false) {
    if (maxBits !== false && !(Number.isInteger(maxBits) && maxBits >= 0 && maxBits < BLOCKS)) {
      throw new RangeError(`maxBits must be an integer from 0 to ${BLOCKS - 1}, or false`);
    }
    this.heads = maxBits === false ? [] : Array.from({ length: BLOCKS }, () => new Int32Array(BLOCK_VALUES));
  }

  /** Number of pages indexed. */
  get size(): number {
    return this.count;
  }

  /** The indexed page that `fp` copies, if any (exact copies first). */
  find(fp: ContentFingerprint): DuplicateMatch | undefined {
    const k = this.exactOf(fp.exact);
    if (k >= 0) return { id: this.ids[k] as number, isExact: true };
    if (this.maxBits === false) return undefined;
    // The closest fingerprint, ties to the earliest page (the one the crawl fetched first is the
    // original): the least (bits, id), whatever order the chains are walked in.
    let bestId = -1;
    let bestBits = this.maxBits + 1;
    const hi = fp.simhash[0];
    const lo = fp.simhash[1];
    for (let b = 0; b < BLOCKS; b++) {
      const head = this.heads[b] as Int32Array;
      for (
        let j = head[blockOf(fp.simhash, b)] as number;
        j !== 0;
        j = this.nextInBlock[(j - 1) * BLOCKS + b] as number
      ) {
        const i = j - 1;
        const bits = hammingDistance(
          [hi, lo],
          [this.hashes[2 * i] as number, this.hashes[2 * i + 1] as number],
        );
        const id = this.ids[i] as number;
        if (bits < bestBits || (bits === bestBits && bestId >= 0 && id < bestId)) {
          bestBits = bits;
          bestId = id;
        }
      }
    }
    return bestId < 0 ? undefined : { id: bestId, isExact: false };
  }

  /** Indexes page `id` (a page that copies none: copies are not indexed, their original is). */
  add(id: number, fp: ContentFingerprint): void {
    if (this.exactOf(fp.exact) >= 0) return;
    const k = this.count++;
    if (k >= this.ids.length) this.grow(k + 1);
    this.ids[k] = id;
    this.hashes[2 * k] = fp.simhash[0];
    this.hashes[2 * k + 1] = fp.simhash[1];
    if (SHA1_HEX.test(fp.exact)) {
      for (let w = 0; w < SHA1_WORDS; w++)
        this.exactWords[k * SHA1_WORDS + w] = Number.parseInt(fp.exact.slice(8 * w, 8 * w + 8), 16) | 0;
      this.insertExact(k);
    } else {
      this.exactOther.set(fp.exact, k);
    }
    if (this.maxBits === false) return;
    for (let b = 0; b < BLOCKS; b++) {
      const head = this.heads[b] as Int32Array;
      const key = blockOf(fp.simhash, b);
      this.nextInBlock[k * BLOCKS + b] = head[key] as number;
      head[key] = k + 1;
    }
  }

  /** Fingerprint number of content hash `exact`, or -1. */
  private exactOf(exact: string): number {
    if (!SHA1_HEX.test(exact)) return this.exactOther.get(exact) ?? -1;
    const table = this.exactTable;
    const mask = table.length - 1;
    // A SHA-1's first word is as good a hash as any.
    const first = Number.parseInt(exact.slice(0, 8), 16) | 0;
    for (let slot = first & mask; ; slot = (slot + 1) & mask) {
      const j = table[slot] as number;
      if (j === 0) return -1;
      if (this.exactWords[(j - 1) * SHA1_WORDS] === first && this.isExactAt(j - 1, exact)) return j - 1;
    }
  }

  private isExactAt(k: number, exact: string): boolean {
    for (let w = 1; w < SHA1_WORDS; w++) {
      if (this.exactWords[k * SHA1_WORDS + w] !== (Number.parseInt(exact.slice(8 * w, 8 * w + 8), 16) | 0))
        return false;
    }
    return true;
  }

  /** Puts fingerprint k into the exact table, which stays at most half full. */
  private insertExact(k: number): void {
    if (2 * this.count > this.exactTable.length) {
      const old = this.exactTable;
      this.exactTable = new Int32Array(old.length * 2);
      for (const j of old) if (j !== 0) this.placeExact(j - 1);
    }
    this.placeExact(k);
  }

  private placeExact(k: number): void {
    const table = this.exactTable;
    const mask = table.length - 1;
    let slot = (this.exactWords[k * SHA1_WORDS] as number) & mask;
    while (table[slot] !== 0) slot = (slot + 1) & mask;
    table[slot] = k + 1;
  }

  /** Room for `needed` fingerprints (a quarter more than needed at a time). */
  private grow(needed: number): void {
    const n = Math.max(needed, Math.ceil(this.ids.length * 1.25));
    const copy = <T extends Int32Array | Uint32Array>(a: T, length: number): T => {
      const b = new (a.constructor as new (n: number) => T)(length);
      b.set(a);
      return b;
    };
    this.ids = copy(this.ids, n);
    this.hashes = copy(this.hashes, 2 * n);
    this.exactWords = copy(this.exactWords, SHA1_WORDS * n);
    if (this.maxBits !== false) this.nextInBlock = copy(this.nextInBlock, BLOCKS * n);
  }
}

/** The 16-bit block `b` (0..3) of a fingerprint. */
function blockOf(h: readonly [number, number], b: number): number {
  const half = b < 2 ? h[0] : h[1];
  return b % 2 === 0 ? half >>> 16 : half & 0xffff;
}

/** A fingerprint as 16 hex digits (how the store keeps it), and back. */
export function simhashToHex(h: readonly [number, number]): string {
  return h[0].toString(16).padStart(8, '0') + h[1].toString(16).padStart(8, '0');
}

export function simhashFromHex(hex: string): [number, number] {
  return [Number.parseInt(hex.slice(0, 8), 16) >>> 0, Number.parseInt(hex.slice(8, 16), 16) >>> 0];
}
