import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WordTable } from './word-table.js';

describe('WordTable', () => {
  it('answers as a Map<string, number> would, through growth, for any words and values', () => {
    const op = fc.record({ word: fc.string({ maxLength: 12 }), value: fc.integer({ min: -1, max: 1e6 }) });
    fc.assert(
      fc.property(
        fc.array(op, { maxLength: 2_000 }),
        fc.array(fc.string({ maxLength: 12 })),
        (ops, probes) => {
          const table = new WordTable(16);
          const map = new Map<string, number>();
          for (const { word, value } of ops) {
            table.set(word, value);
            map.set(word, value);
          }
          expect(table.size).toBe(map.size);
          for (const word of [...map.keys(), ...probes]) expect(table.get(word)).toBe(map.get(word));
        },
      ),
    );
  });

  it('keeps 200,000 distinct words apart', () => {
    const table = new WordTable();
    for (let i = 0; i < 200_000; i++) table.set(`w${i.toString(36)}`, i);
    expect(table.size).toBe(200_000);
    for (let i = 0; i < 200_000; i += 7) expect(table.get(`w${i.toString(36)}`)).toBe(i);
    expect(table.get('absent')).toBeUndefined();
  });
});
