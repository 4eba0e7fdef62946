import { describe, expect, it } from 'vitest';
import { DEFAULT_NORMALIZE_OPTIONS, normalizePercentEncoding, normalizeUrl } from './normalize-url.js';

describe('normalizeUrl', () => {
  it.each([
    ['lowercases the scheme and host', 'HTTP://Example.COM/Path', 'http://example.com/Path'],
    ['converts an IDN host to punycode', 'http://Bücher.de/x', 'http://xn--bcher-kva.de/x'],
    ['removes the default http port', 'http://example.com:80/a', 'http://example.com/a'],
    ['removes the default https port', 'https://example.com:443/a', 'https://example.com/a'],
    ['keeps a non-default port', 'http://example.com:8080/a', 'http://example.com:8080/a'],
    ['keeps port 443 on http', 'http://example.com:443/a', 'http://example.com:443/a'],
    ['adds the root path', 'http://example.com', 'http://example.com/'],
    ['resolves dot segments', 'http://example.com/a/./b/../c', 'http://example.com/a/c'],
    ['resolves percent-encoded dot segments', 'http://example.com/a/b/%2E%2E/c', 'http://example.com/a/c'],
    ['drops the fragment', 'http://example.com/a#top', 'http://example.com/a'],
    ['drops an empty fragment', 'http://example.com/a#', 'http://example.com/a'],
    ['uppercases percent-encoding hex', 'http://example.com/a%2fb%c3%a9', 'http://example.com/a%2Fb%C3%A9'],
    [
      'decodes unreserved characters in the path',
      'http://example.com/%7Euser/%41%2D%5F%2E%30',
      'http://example.com/~user/A-_.0',
    ],
    [
      'decodes unreserved characters in the query',
      'http://example.com/?q=%61%7e&r=%2f',
      'http://example.com/?q=a~&r=%2F',
    ],
    ['leaves a lone percent sign alone', 'http://example.com/100%/x%zz', 'http://example.com/100%/x%zz'],
    ['removes an empty query', 'http://example.com/a?', 'http://example.com/a'],
    ['removes an empty query before a fragment', 'http://example.com/a?#x', 'http://example.com/a'],
    ['keeps the trailing slash', 'http://example.com/dir/', 'http://example.com/dir/'],
    ['keeps no trailing slash', 'http://example.com/dir', 'http://example.com/dir'],
    ['keeps the query order by default', 'http://example.com/?b=2&a=1', 'http://example.com/?b=2&a=1'],
    ['removes jsessionid', 'http://example.com/?a=1&jsessionid=XYZ&b=2', 'http://example.com/?a=1&b=2'],
    ['removes PHPSESSID in any case', 'http://example.com/?PHPSESSID=abc', 'http://example.com/'],
    ['removes sid and sessionid', 'http://example.com/p?sid=1&x=2&sessionid=3', 'http://example.com/p?x=2'],
    [
      'removes ASPSESSIONID with its suffix',
      'http://example.com/?ASPSESSIONIDQQGGGNCU=K&a=1',
      'http://example.com/?a=1',
    ],
    ['removes cfid and cftoken', 'http://example.com/?CFID=1&CFTOKEN=2&page=3', 'http://example.com/?page=3'],
    [
      'keeps parameters that only contain a session name',
      'http://example.com/?sidebar=1&xsid=2',
      'http://example.com/?sidebar=1&xsid=2',
    ],
    [
      'removes a jsessionid path parameter',
      'http://example.com/shop;jsessionid=A1B2?item=3',
      'http://example.com/shop?item=3',
    ],
    [
      'removes a jsessionid path parameter in any case',
      'http://example.com/a;JSESSIONID=x/b',
      'http://example.com/a/b',
    ],
    ['keeps other path parameters', 'http://example.com/a;v=1;jsessionid=x', 'http://example.com/a;v=1'],
    ['keeps user info', 'http://user:pw@example.com/', 'http://user:pw@example.com/'],
    ['keeps a user without password', 'http://user@example.com/', 'http://user@example.com/'],
    ['trims surrounding whitespace', '  http://example.com/a \n', 'http://example.com/a'],
    ['keeps an IPv6 host', 'http://[::1]:8080/a', 'http://[::1]:8080/a'],
    ['normalises an IPv4 host', 'http://127.1/', 'http://127.0.0.1/'],
  ])('%s', (_name, input, expected) => {
    expect(normalizeUrl(input)).toBe(expected);
  });

  it.each([
    ['mailto', 'mailto:someone@example.com'],
    ['javascript', 'javascript:alert(1)'],
    ['data', 'data:text/html,<p>hi</p>'],
    ['ftp', 'ftp://example.com/file'],
    ['file', 'file:///etc/passwd'],
    ['a relative URL', '/just/a/path'],
    ['garbage', 'http://exa mple.com/'],
    ['an empty string', ''],
    ['a bad port', 'http://example.com:99999/'],
  ])('returns undefined for %s', (_name, input) => {
    expect(normalizeUrl(input)).toBeUndefined();
  });

  it('sorts query parameters by name when asked, keeping the order of repeated names', () => {
    expect(normalizeUrl('http://example.com/?b=2&a=9&c=1&a=1', { shouldSortQuery: true })).toBe(
      'http://example.com/?a=9&a=1&b=2&c=1',
    );
  });

  it('sorts after session ids are removed', () => {
    expect(normalizeUrl('http://example.com/?z=1&sid=5&y=2', { shouldSortQuery: true })).toBe(
      'http://example.com/?y=2&z=1',
    );
  });

  it('keeps session ids when told to', () => {
    expect(normalizeUrl('http://example.com/a;jsessionid=1?sid=2', { shouldRemoveSessionIds: false })).toBe(
      'http://example.com/a;jsessionid=1?sid=2',
    );
  });

  it('is idempotent', () => {
    const inputs = [
      'HTTP://Bücher.de:80/a/../%7e%2f?b=%41&jsessionid=1#f',
      'https://x.org/a;jsessionid=2?c=&b',
    ];
    for (const input of inputs) {
      const once = normalizeUrl(input, { shouldSortQuery: true });
      expect(once).toBeDefined();
      expect(normalizeUrl(once as string, { shouldSortQuery: true })).toBe(once);
    }
  });

  it('has documented defaults', () => {
    expect(DEFAULT_NORMALIZE_OPTIONS).toEqual({ shouldSortQuery: false, shouldRemoveSessionIds: true });
  });
});

describe('normalizePercentEncoding', () => {
  it.each([
    ['no escapes', '/plain', '/plain'],
    ['lowercase hex of a reserved character', '%3a%2f', '%3A%2F'],
    ['unreserved letters and digits', '%41%7A%39', 'Az9'],
    ['a truncated escape at the end', '/a%4', '/a%4'],
    // Decoding would make a new escape `%A` with the stray `%`: kept.
    ['a stray percent before an escape of a hex digit', '%%41', '%%41'],
    ['a stray percent and a hex digit before an escape of one', '%4%31%32', '%4%312'],
    ['a stray percent before an escape of a non-hex letter', '%%67%34', '%g4'],
    ['a stray percent two places before, a non-hex between', '%&%41', '%&A'],
  ])('%s', (_name, input, expected) => {
    expect(normalizePercentEncoding(input)).toBe(expected);
  });
});
