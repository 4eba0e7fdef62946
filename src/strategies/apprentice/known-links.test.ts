import { describe, expect, it } from 'vitest';
import type { DiscoveredLink } from '../../types/index.js';
import { KnownLinks } from './known-links.js';

function link(url: string, depth = 1): DiscoveredLink {
  const host = new URL(url).hostname;
  return { url, host, domain: `d-${host}`, anchorText: '', depth };
}

describe('KnownLinks', () => {
  it('keeps every known URL its fields and features through pool growth and compaction', () => {
    const known = new KnownLinks();
    const expected = new Map<string, number[]>();
    // 40,000 URLs of 4 features each fill the first pool (65,536 entries) several times over.
    for (let i = 0; i < 40_000; i++) {
      const url = `http://h${i % 7}.test/${i}`;
      const features = [i, i + 1, i + 2, i % 5];
      known.add(link(url, i % 4), i % 3, Int32Array.from(features), i / 40_000);
      expected.set(url, features);
      if (i % 4 !== 0) {
        const gone = `http://h${(i - 1) % 7}.test/${i - 1}`;
        known.delete(gone);
        expected.delete(gone);
      }
    }
    for (const [url, features] of expected) {
      const u = known.idOf(url) as number;
      const i = Number(url.slice(url.lastIndexOf('/') + 1));
      expect([...known.features(u)]).toEqual(features);
      expect([known.host(u), known.domain(u), known.depth(u), known.parent(u)]).toEqual([
        `h${i % 7}.test`,
        `d-h${i % 7}.test`,
        i % 4,
        i % 3,
      ]);
      expect(known.baseline(u)).toBe(i / 40_000);
    }
  });

  it('marks a URL taken and forgets a deleted one', () => {
    const known = new KnownLinks();
    const u = known.add(link('http://a.test/'), -1, new Int32Array(0), Number.POSITIVE_INFINITY);
    expect(known.isTaken(u)).toBe(false);
    known.setTaken(u);
    expect(known.isTaken(u)).toBe(true);
    known.delete('http://a.test/');
    expect(known.idOf('http://a.test/')).toBeUndefined();
    expect(known.has(u)).toBe(false);
  });
});
