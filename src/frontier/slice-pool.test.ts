import { describe, expect, it } from 'vitest';
import { grownArray, SlicePool } from './slice-pool.js';

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
    for (const [id, values] of expected) expect([...pool.view(id)]).toEqual(values);
  });
});

describe('grownArray', () => {
  it('copies into a longer array of the same type, the rest zero', () => {
    const a = grownArray(new Float64Array([1.5, 2]), 4);
    expect(a).toBeInstanceOf(Float64Array);
    expect([...a]).toEqual([1.5, 2, 0, 0]);
  });
});
