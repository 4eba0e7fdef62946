import { describe, expect, it } from 'vitest';
import { WordVectors } from './word-vectors.js';

function tiny(): WordVectors {
  // [4 words, 2 dims]
  return new WordVectors(
    ['east', 'north', 'west', 'northeast'],
    2,
    Float32Array.from([1, 0, 0, 1, -1, 0, 1, 1]),
  );
}

describe('WordVectors', () => {
  it('computes cosine similarity', () => {
    const v = tiny();
    expect(v.similarity('east', 'west')).toBeCloseTo(-1);
    expect(v.similarity('east', 'north')).toBeCloseTo(0);
    expect(v.similarity('east', 'northeast')).toBeCloseTo(Math.SQRT1_2);
    expect(v.similarity('east', 'nowhere')).toBeUndefined();
  });
  it('finds nearest neighbours best first, excluding the word itself', () => {
    const v = tiny();
    expect(v.nearest('east', 2).map((n) => n.word)).toEqual(['northeast', 'north']);
    expect(v.nearest(Float32Array.from([0, 2]), 1)[0]?.word).toBe('north');
    expect(v.nearest('nowhere')).toEqual([]);
  });
  it('rejects a matrix of the wrong size', () => {
    expect(() => new WordVectors(['a'], 2, new Float32Array(3))).toThrow(RangeError);
  });
});
