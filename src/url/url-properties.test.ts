import fc from 'fast-check';
import { anyUrlInput, httpThenAnything, urlLike } from 'tres-testing';
import { describe, expect, it } from 'vitest';
import { normalizeUrl } from './normalize-url.js';
import { createUrlFilter } from './url-filter.js';

// Fixed seeds and bounded runs: each property takes well under a second.
const RUNS = { seed: 10, numRuns: 3_000 };

/** normalize(normalize(x)) === normalize(x) for each option set. */
function isIdempotent(input: string): boolean {
  for (const options of [undefined, { shouldSortQuery: true }, { shouldRemoveSessionIds: false }]) {
    const once = normalizeUrl(input, options);
    if (once !== undefined && normalizeUrl(once, options) !== once) return false;
  }
  return true;
}

describe('normalizeUrl is idempotent', () => {
  it.each([
    // A session-id path parameter hid a dot segment: removed, it left `/a/../b` behind.
    ['http://h/a/..;jsessionid=1/b', 'http://h/b'],
    ['http://h/a/%2e%2e;jsessionid=1/b', 'http://h/b'],
    ['http://h/a/.;jsessionid=1', 'http://h/a/'],
    // Decoding `%41` next to a stray `%` made a new escape `%Ae`, uppercased on the next pass.
    ['http://h/%zz%%41e', 'http://h/%zz%%41e'],
    ['http://h/%4%31', 'http://h/%4%31'],
    ['http://h/?q=%%34%31', 'http://h/?q=%%341'],
  ])('on %s', (input, expected) => {
    const once = normalizeUrl(input);
    expect(once).toBe(expected);
    expect(normalizeUrl(once as string)).toBe(once);
  });

  it('when sorting moves a parameter away from a stray percent sign', () => {
    const options = { shouldSortQuery: true };
    const once = normalizeUrl('http://h/?x=%&%41', options);
    expect(once).toBe('http://h/?A&x=%');
    expect(normalizeUrl(once as string, options)).toBe(once);
  });

  it('on URL-shaped strings with dot segments, session ids, escapes, IDN, ports and odd schemes', () => {
    fc.assert(fc.property(urlLike, isIdempotent), RUNS);
  });

  it('on an http URL followed by any characters', () => {
    fc.assert(fc.property(httpThenAnything, isIdempotent), RUNS);
  });

  it('on arbitrary strings', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary' }), isIdempotent), RUNS);
  });
});

describe('never throws on arbitrary input', () => {
  it('normalizeUrl', () => {
    fc.assert(
      fc.property(anyUrlInput, (input) => {
        normalizeUrl(input, { shouldSortQuery: true });
      }),
      RUNS,
    );
  });

  it('the URL filter, on raw and on normalised URLs', () => {
    const filter = createUrlFilter({
      allowedDomains: ['example.com', 'bücher.de'],
      includePatterns: ['^https?://'],
      excludePatterns: [/\/private\//],
    });
    const defaults = createUrlFilter();
    fc.assert(
      fc.property(anyUrlInput, (input) => {
        filter(input);
        defaults(input);
        const normalized = normalizeUrl(input);
        if (normalized !== undefined) {
          filter(normalized);
          defaults(normalized);
        }
      }),
      RUNS,
    );
  });
});
