import { describe, expect, it } from 'vitest';
import { parseHtml } from '../html/index.js';
import { withPlainContexts } from '../html/test-helpers.js';
import type { DiscoveredLink } from '../types/index.js';
import { decodeOutlinks, encodeOutlinks } from './outlinks-codec.js';
import { testLinks } from './test-helpers.js';

describe('outlinks codec', () => {
  it('round-trips small and large link lists', () => {
    for (const count of [0, 1, 50, 500]) {
      const links = testLinks(7, count);
      expect(decodeOutlinks(encodeOutlinks(links))).toEqual(links);
    }
  });

  it('keeps the anchor probability and the context a strategy asked for, for a resumed frontier', () => {
    const links = testLinks(3, 20).map((l, i) => ({
      ...l,
      anchorProbability: i / 20,
      ...(i % 2 === 0 ? { context: { tokens: ['gpu', `w${i}`], offsets: Int8Array.of(0, -2) } } : {}),
    }));
    expect(decodeOutlinks(encodeOutlinks(links))).toEqual(links);
  });

  it('stores the contexts of one page as runs of its words and decodes the same tokens and offsets', () => {
    const items = Array.from(
      { length: 40 },
      (_, i) =>
        `<li><p>entry e${i} about <b>gpu${i}</b> cards</p><img src=x.png><a href="/p${i}">page ${i} <i>more</i></a> and ${`then w${i}x${i} words `.repeat(i % 5)}</li>${i % 7 === 0 ? '<li></li><br>' : ''}`,
    );
    const page = parseHtml(`<html><body><ul>${items.join('')}</ul></body></html>`, 'http://a.test/', {
      withContext: true,
    });
    const links: DiscoveredLink[] = page.links.map((l, i) => ({
      url: l.url,
      host: 'a.test',
      domain: 'a.test',
      anchorText: l.anchorText,
      depth: 1,
      ...(i % 9 === 4 ? {} : { context: l.context }),
    }));
    expect(links[0]?.context?.source).toBeDefined();
    const decoded = decodeOutlinks(encodeOutlinks(links));
    // Decoded contexts keep their page's words as their source, as the parser's do.
    const withContext = decoded.filter((l) => l.context !== undefined);
    expect(withContext.length).toBeGreaterThan(30);
    expect(withContext.every((l) => l.context?.source !== undefined)).toBe(true);
    expect(withPlainContexts(decoded)).toEqual(withPlainContexts(links));
    // Without a source each context is stored whole: the page's words many times over.
    const plain = withPlainContexts(links);
    expect(decodeOutlinks(encodeOutlinks(plain))).toEqual(plain);
    expect(encodeOutlinks(links).byteLength).toBeLessThan(encodeOutlinks(plain).byteLength);
    // A context from another page keeps its own form beside the runs.
    const other = { ...links[1]!, context: { tokens: ['far'], offsets: Int8Array.of(3) } };
    expect(withPlainContexts(decodeOutlinks(encodeOutlinks([...links, other])))).toEqual([...plain, other]);
  });

  it('keeps contexts whose tokens or offsets do not fit the joined form, and empty ones', () => {
    const link = { url: 'http://a.test/', host: 'a.test', domain: 'a.test', anchorText: 'A', depth: 1 };
    const links = [
      { ...link, context: { tokens: ['two words', 'x'], offsets: Int8Array.of(1, 2) } },
      { ...link, context: { tokens: ['', 'x'], offsets: Int8Array.of(1, 2) } },
      { ...link, context: { tokens: ['far', 'near'], offsets: Int8Array.of(-127, 127) } },
      // As characters these two are '"' and '\\', which JSON escapes.
      { ...link, context: { tokens: ['quote', 'slash'], offsets: Int8Array.of(-30, 28) } },
      { ...link, context: { tokens: ['a', 'b'], offsets: Int8Array.of(-32, 62) } },
      { ...link, context: { tokens: [], offsets: new Int8Array(0) } },
    ];
    expect(decodeOutlinks(encodeOutlinks(links))).toEqual(links);
  });

  it('decodes contexts stored as arrays, as stores before the joined form hold them', () => {
    const old = Buffer.concat([
      Buffer.of(0),
      Buffer.from(
        JSON.stringify([
          [
            'http://a.test/',
            'a.test',
            'a.test',
            'A',
            1,
            null,
            [
              ['gpu', 'card'],
              [-1, 2],
            ],
          ],
        ]),
      ),
    ]);
    expect(decodeOutlinks(old)[0]?.context).toEqual({
      tokens: ['gpu', 'card'],
      offsets: Int8Array.of(-1, 2),
    });
  });

  it('decodes links stored before anchor probabilities and contexts were kept', () => {
    const old = Buffer.concat([
      Buffer.of(0),
      Buffer.from(JSON.stringify([['http://a.test/', 'a.test', 'a.test', 'A', 1]])),
    ]);
    expect(decodeOutlinks(old)).toEqual([
      { url: 'http://a.test/', host: 'a.test', domain: 'a.test', anchorText: 'A', depth: 1 },
    ]);
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
