import { describe, expect, it } from 'vitest';
import { DecimatingSeries, RingBuffer } from './series.js';

describe('dashboard series', () => {
  it('keeps at most capacity samples spanning the whole run at even spacing', () => {
    const s = new DecimatingSeries<number>(8);
    for (let i = 1; i <= 100; i++) s.push(i);
    const v = s.values();
    expect(v.length).toBeLessThanOrEqual(8);
    expect(v[0]).toBeLessThanOrEqual(16);
    expect(v.at(-1)).toBeGreaterThan(84);
    const gaps = new Set(v.slice(1).map((x, i) => x - (v[i] as number)));
    expect(gaps.size).toBe(1);
  });

  it('keeps the newest items of a ring, oldest first', () => {
    const r = new RingBuffer<number>(3);
    for (let i = 1; i <= 5; i++) r.push(i);
    expect(r.values()).toEqual([3, 4, 5]);
    expect(() => new RingBuffer(0)).toThrow(RangeError);
  });
});
