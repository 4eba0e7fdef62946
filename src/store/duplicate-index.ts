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

export class DuplicateIndex {
  private readonly exact = new Map<string, number>();
  private readonly blocks: Map<number, number[]>[] = Array.from({ length: BLOCKS }, () => new Map());
  /** [hi, lo] of fingerprint k at 2k, 2k + 1; ids[k] its page. */
  private readonly hashes: number[] = [];
  private readonly ids: number[] = [];

  /**
   * @param maxBits fingerprints this close (differing bits, 0 to 3) are near copies; `false`
   *   finds exact copies only.
   */
  constructor(private readonly maxBits: number | false) {
    if (maxBits !== false && !(Number.isInteger(maxBits) && maxBits >= 0 && maxBits < BLOCKS)) {
      throw new RangeError(`maxBits must be an integer from 0 to ${BLOCKS - 1}, or false`);
    }
  }

  /** Number of pages indexed. */
  get size(): number {
    return this.exact.size;
  }

  /** The indexed page that `fp` copies, if any (exact copies first). */
  find(fp: ContentFingerprint): DuplicateMatch | undefined {
    const id = this.exact.get(fp.exact);
    if (id !== undefined) return { id, isExact: true };
    if (this.maxBits === false) return undefined;
    let best: DuplicateMatch | undefined;
    let bestBits = this.maxBits + 1;
    for (let b = 0; b < BLOCKS; b++) {
      for (const k of this.blocks[b]?.get(blockOf(fp.simhash, b)) ?? []) {
        const bits = hammingDistance(fp.simhash, [
          this.hashes[2 * k] as number,
          this.hashes[2 * k + 1] as number,
        ]);
        // Ties go to the earliest page: the one the crawl fetched first is the original.
        if (
          bits < bestBits ||
          (bits === bestBits && best !== undefined && (this.ids[k] as number) < best.id)
        ) {
          bestBits = bits;
          best = { id: this.ids[k] as number, isExact: false };
        }
      }
    }
    return best;
  }

  /** Indexes page `id` (a page that copies none: copies are not indexed, their original is). */
  add(id: number, fp: ContentFingerprint): void {
    if (this.exact.has(fp.exact)) return;
    this.exact.set(fp.exact, id);
    if (this.maxBits === false) return;
    const k = this.ids.length;
    this.ids.push(id);
    this.hashes.push(fp.simhash[0], fp.simhash[1]);
    for (let b = 0; b < BLOCKS; b++) {
      const key = blockOf(fp.simhash, b);
      const list = this.blocks[b]?.get(key);
      if (list) list.push(k);
      else this.blocks[b]?.set(key, [k]);
    }
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
