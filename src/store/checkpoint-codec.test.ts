import { describe, expect, it } from 'vitest';
import { ChunkedArray, TresError } from '../common/index.js';
import { decodeCheckpoint, encodeCheckpoint, encodeCheckpointParts } from './checkpoint-codec.js';

describe('checkpoint codec', () => {
  it('gives back typed arrays bit for bit, non-finite numbers and nested values', () => {
    const value = {
      weights: Float64Array.of(0.1, -2.5e-300, Math.PI),
      xs: Float32Array.of(1 / 3, -0, 7),
      ids: Int32Array.of(-1, 2 ** 31 - 1),
      labels: Uint8Array.of(0, 1, 1),
      offsets: Int8Array.of(-5, 5),
      odd: Uint16Array.of(1, 2, 3), // 6 bytes: the next array starts padded
      loss: Number.NaN,
      lowest: Number.NEGATIVE_INFINITY,
      nested: [{ at: 1, name: 'x', ok: true, none: null }],
    };
    const back = decodeCheckpoint(encodeCheckpoint(value)) as typeof value;
    expect(back).toEqual(value);
    expect(back.weights).toBeInstanceOf(Float64Array);
    expect(Object.is(back.xs[1], -0)).toBe(true);
    expect(back.odd).toBeInstanceOf(Uint16Array);
  });

  it('packs long string arrays into the binary section and gives them back, short ones and NULs in the JSON', () => {
    // More than a chunk of strings (8,192), some of more than one byte a character.
    const urls = Array.from({ length: 9000 }, (_, i) => `https://h${i % 7}.test/p/${i}?q=é`);
    const value = { urls, empty: [''], short: ['a', 'b'], withNul: ['a\0b', ...urls], mixed: [...urls, 1] };
    const packed = encodeCheckpoint(value, { packedStringsFrom: 1 });
    expect(decodeCheckpoint(packed)).toEqual(value);
    expect(Buffer.concat([...encodeCheckpointParts(value, { packedStringsFrom: 1 })])).toEqual(packed);
    // The packed URLs are raw bytes after the JSON, not deflated strings in it.
    expect(packed.includes(Buffer.from(urls.join('\0')))).toBe(true);
    expect(encodeCheckpoint(value).includes(Buffer.from(urls.join('\0')))).toBe(false);
  });

  it('writes a chunked array chunk by chunk and gives it back as a typed array; a wrong length throws', () => {
    const chunks = () => [Int32Array.of(1, 2, 3), Int32Array.of(), Int32Array.of(-4)];
    const value = { ids: new ChunkedArray('i32', 4, chunks), after: Float64Array.of(0.5) };
    expect(decodeCheckpoint(encodeCheckpoint(value))).toEqual({
      ids: Int32Array.of(1, 2, 3, -4),
      after: Float64Array.of(0.5),
    });
    expect(() => encodeCheckpoint({ ids: new ChunkedArray('i32', 5, chunks) })).toThrow(/4 bytes|16 bytes/);
  });

  it('refuses bytes that are not a checkpoint with TRES_STORE_CORRUPT', () => {
    const bytes = encodeCheckpoint({ a: Float64Array.of(1, 2) });
    expect(() => decodeCheckpoint(Buffer.from('not a checkpoint'))).toThrow(TresError);
    expect(() => decodeCheckpoint(bytes.subarray(0, bytes.byteLength - 8))).toThrow(/checkpoint/);
  });
});
