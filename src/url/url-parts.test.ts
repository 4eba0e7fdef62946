import { describe, expect, it } from 'vitest';
import { hostOf, pathOf } from './url-parts.js';

describe('hostOf', () => {
  it.each([
    ['a normalised URL', 'https://docs.example.com/a/b?c#d', 'docs.example.com'],
    ['a URL without path', 'http://example.com', 'example.com'],
    ['a URL with a port', 'http://example.com:8080/x', 'example.com'],
    ['a query right after the host', 'http://example.com?q=1', 'example.com'],
    ['an upper-case host (slow path)', 'HTTP://WWW.Example.COM/', 'www.example.com'],
    ['user info (slow path)', 'http://user:pw@example.com/', 'example.com'],
    ['an IPv4 address', 'http://192.168.0.1/', '192.168.0.1'],
    ['a short IPv4 form the parser rewrites', 'http://127.1/', '127.0.0.1'],
    ['a hex IPv4 form the parser rewrites', 'http://0x7f.1/', '127.0.0.1'],
    ['an IPv6 address', 'http://[::1]:3000/', '[::1]'],
    ['an IDN', 'http://bücher.de/', 'xn--bcher-kva.de'],
    ['a trailing dot', 'http://example.com./', 'example.com.'],
    ['a host with digits and hyphens', 'http://a-1.b2.io/', 'a-1.b2.io'],
    ['a non-http scheme', 'ftp://files.example.com/x', 'files.example.com'],
    ['garbage', 'not a url', ''],
    ['an invalid port', 'http://example.com:99999/', ''],
  ])('%s', (_name, url, expected) => {
    expect(hostOf(url)).toBe(expected);
  });

  it('agrees with the WHATWG parser on normalised URLs', () => {
    const urls = [
      'http://a.b.c/',
      'https://x-y.z:81/p',
      'http://1.2.3.4/',
      'http://9x.com/',
      'http://0xzz.com/',
    ];
    for (const url of urls) expect(hostOf(url)).toBe(new URL(url).hostname);
  });
});

describe('pathOf', () => {
  it.each([
    ['a path with query and fragment', 'http://example.com/a/b.pdf?x=1#f', '/a/b.pdf'],
    ['no path', 'http://example.com', ''],
    ['only a query', 'http://example.com?x=/y.pdf', ''],
    ['an upper-case scheme', 'HTTP://example.com/A.PDF', '/A.PDF'],
    ['no scheme separator', 'example.com/a.pdf', ''],
  ])('%s', (_name, url, expected) => {
    expect(pathOf(url)).toBe(expected);
  });
});
