import { describe, expect, it } from 'vitest';
import { decodeOutlinks, encodeOutlinks } from './outlinks-codec.js';
import { testLinks } from './test-helpers.js';

describe('outlinks codec', () => {
  it('round-trips small and large link lists without their context', () => {
    for (const count of [0, 1, 50, 500]) {
      const links = testLinks(7, count);
      const withContext = links.map((l) => ({ ...l, context: { tokens: ['x'], offsets: Int8Array.of(1) } }));
      expect(decodeOutlinks(encodeOutlinks(withContext))).toEqual(links);
    }
  });

  it('stores 50 links compressed, smaller than their JSON', () => {
    const links = testLinks(1, 50);
    expect(encodeOutlinks(links).byteLength).toBeLessThan(JSON.stringify(links).length / 3);
  });

  it('decodes a missing BLOB as no links and rejects an unknown format', () => {
    expect(decodeOutlinks(null)).toEqual([]);
    expect(() => decodeOutlinks(Buffer.from([9, 1, 2]))).toThrow(/outlinks/);
    expect(() => decodeOutlinks(Buffer.from([1, 1, 2]))).toThrow(
      expect.objectContaining({ code: 'TRES_STORE_CORRUPT' }),
    );
  });
});
