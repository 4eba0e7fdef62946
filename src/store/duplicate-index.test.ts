import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hammingDistance } from '../text/index.js';
import { DuplicateIndex, simhashFromHex, simhashToHex } from './duplicate-index.js';

const fp = (exact: string, hi: number, lo: number) => ({ exact, simhash: [hi >>> 0, lo >>> 0] as const });

describe('DuplicateIndex', () => {
  it('finds an exact copy by content hash', () => {
    const index = new DuplicateIndex(3);
    index.add(1, fp('a', 0x12345678, 0x9abcdef0));
    expect(index.find(fp('a', 0, 0))).toEqual({ id: 1, isExact: true });
  });

  it('finds near copies within maxBits whichever 16-bit blocks differ, and nothing beyond', () => {
    const index = new DuplicateIndex(3);
    index.add(7, fp('orig', 0x12345678, 0x9abcdef0));
    // 3 bits flipped in three different blocks: the fourth block still matches.
    expect(index.find(fp('x', 0x12345678 ^ 0x00010000 ^ 0x00000001, 0x9abcdef0 ^ 0x00010000))).toEqual({
      id: 7,
      isExact: false,
    });
    // 3 bits in one block.
    expect(index.find(fp('y', 0x12345678, 0x9abcdef0 ^ 0x7))).toEqual({ id: 7, isExact: false });
    // 4 bits: not a near copy.
    expect(index.find(fp('z', 0x12345678 ^ 0x00010001, 0x9abcdef0 ^ 0x00010001))).toBeUndefined();
  });

  it('prefers the closest match, then the earliest page', () => {
    const index = new DuplicateIndex(3);
    index.add(5, fp('p5', 0, 0b111));
    index.add(3, fp('p3', 0, 0b1000));
    index.add(9, fp('p9', 0, 0b1));
    expect(index.find(fp('q', 0, 0b10))).toEqual({ id: 3, isExact: false });
    expect(index.find(fp('s', 0, 0b11))).toEqual({ id: 5, isExact: false });
    expect(index.find(fp('r', 0, 0b1001))).toEqual({ id: 3, isExact: false });
  });

  it('with maxBits false finds exact copies only', () => {
    const index = new DuplicateIndex(false);
    index.add(1, fp('a', 1, 1));
    expect(index.find(fp('b', 1, 1))).toBeUndefined();
    expect(index.find(fp('a', 9, 9))?.isExact).toBe(true);
  });

  it('finds what a scan of every page finds, past its first growths, with SHA-1 content hashes', () => {
    const index = new DuplicateIndex(3);
    let seed = 1;
    const next = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed;
    };
    // Few distinct high words, so that many fingerprints share blocks and come within 3 bits.
    const pages = Array.from({ length: 5000 }, (_, i) => ({
      id: 2 * i + 1,
      exact: createHash('sha1')
        .update(String(i % 4500))
        .digest('hex'),
      simhash: [next() & 0x3, next() & 0x10f] as [number, number],
    }));
    const indexed: typeof pages = [];
    for (const p of pages) {
      if (!indexed.some((q) => q.exact === p.exact)) indexed.push(p);
      index.add(p.id, { exact: p.exact, simhash: p.simhash });
    }
    expect(index.size).toBe(4500);
    for (const p of pages.slice(0, 600)) {
      const probe = {
        exact: createHash('sha1').update(`absent ${p.id}`).digest('hex'),
        simhash: [p.simhash[0] ^ 1, p.simhash[1]] as [number, number],
      };
      let best: { id: number; bits: number } | undefined;
      for (const q of indexed) {
        const bits = hammingDistance(probe.simhash, q.simhash);
        if (bits <= 3 && (best === undefined || bits < best.bits || (bits === best.bits && q.id < best.id)))
          best = { id: q.id, bits };
      }
      expect(index.find(probe)).toEqual(best === undefined ? undefined : { id: best.id, isExact: false });
      const original = indexed.find((q) => q.exact === p.exact);
      expect(index.find({ exact: p.exact, simhash: [0, 0] })).toEqual({ id: original?.id, isExact: true });
    }
  });

  it('keeps fingerprints as 16 hex digits and reads them back', () => {
    expect(simhashToHex([0xdeadbeef, 0x1])).toBe('deadbeef00000001');
    expect(simhashFromHex('deadbeef00000001')).toEqual([0xdeadbeef, 1]);
  });
});
