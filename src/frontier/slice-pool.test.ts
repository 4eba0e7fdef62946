import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { growableArray, growableBytes, grownArray, SlicePool } from './slice-pool.js';

describe('SlicePool', () => {
  it('keeps every live slice through compactions and growth, and drops freed ones', () => {
    const pool = new SlicePool(8);
    const live = new Set<number>();
    const isLive = (id: number) => live.has(id);
    const expected = new Map<number, number[]>();
    for (let step = 0; step < 400; step++) {
      const id = step % 37;
      if (step % 5 === 4 && live.has(id)) {
        pool.free(id);
        live.delete(id);
        expected.delete(id);
        continue;
      }
      const values = Array.from({ length: (step % 4) + 1 }, (_, i) => step * 10 + i);
      live.add(id);
      pool.set(id, values, 37, isLive);
      expected.set(id, values);
    }
    for (const [id, values] of expected) {
      expect([...pool.view(id)]).toEqual(values);
      // The same slice read in place, as a hot loop over many slices reads it.
      const start = pool.start(id);
      expect([...pool.entries.subarray(start, start + pool.length(id))]).toEqual(values);
    }
  });

  it('gives back every live slice as set, whatever the order of sets and frees, across growth in place and compactions', () => {
    const op = fc.record({ id: fc.nat(1_500), length: fc.nat(12), isFree: fc.boolean() });
    fc.assert(
      fc.property(
        fc.array(op, { maxLength: 1_500, size: 'max' }),
        fc.integer({ min: 1, max: 64 }),
        (ops, initial) => {
          const pool = new SlicePool(initial);
          const expected = new Map<number, number[]>();
          const isLive = (id: number) => expected.has(id);
          ops.forEach(({ id, length, isFree }, step) => {
            if (isFree) {
              pool.free(id);
              expected.delete(id);
            } else {
              const values = Array.from({ length }, (_, i) => step * 16 + i);
              // The caller marks the id live before set (a compaction inside set keeps it).
              expected.set(id, values);
              pool.set(id, values, 1_501, isLive);
            }
          });
          const got = [...expected.keys()].map((id) => [...pool.view(id)]);
          expect(got).toEqual([...expected.values()]);
        },
      ),
      { seed: 5, numRuns: 40 },
    );
  });
});

describe('grownArray', () => {
  it('copies a plain array into a longer one of the same type, the rest zero', () => {
    const a = grownArray(new Float64Array([1.5, 2]), 4);
    expect(a).toBeInstanceOf(Float64Array);
    expect([...a]).toEqual([1.5, 2, 0, 0]);
  });

  it('grows a growable array in place: the same array, its values kept, the new entries zero, counted in growableBytes', () => {
    const a = growableArray(Float32Array, 3, 1_000);
    a.set([1, 2, 3]);
    const before = growableBytes();
    const b = grownArray(a, 600);
    expect(b).toBe(a);
    expect([b.length, b[0], b[2], b[3], b[599]]).toEqual([600, 1, 3, 0, 0]);
    expect(growableBytes() - before).toBe((600 - 3) * 4);
  });

  it('copies a growable array that outgrows its reserve into a larger growable one', () => {
    const a = growableArray(Int32Array, 4, 8);
    a.set([7, 8, 9, 10]);
    const b = grownArray(a, 9);
    expect(b).not.toBe(a);
    expect([...b]).toEqual([7, 8, 9, 10, 0, 0, 0, 0, 0]);
    expect(grownArray(b, 18)).toBe(b);
  });
});
