import { describe, expect, it } from 'vitest';
import { registrableDomain, siteOf } from './registrable-domain.js';

describe('registrableDomain', () => {
  it.each([
    ['a .com host', 'example.com', 'example.com'],
    ['www of a .com host', 'www.example.com', 'example.com'],
    ['a deep subdomain', 'a.b.c.example.org', 'example.org'],
    ['a two-label ICANN suffix', 'news.bbc.co.uk', 'bbc.co.uk'],
    ['a bare public suffix', 'co.uk', 'co.uk'],
    ['a private suffix (github.io)', 'someone.github.io', 'someone.github.io'],
    ['a subdomain under a private suffix', 'docs.someone.github.io', 'someone.github.io'],
    ['a punycode host', 'www.xn--bcher-kva.de', 'xn--bcher-kva.de'],
    ['an IPv4 address', '127.0.0.1', '127.0.0.1'],
    ['an IPv6 address', '[::1]', '[::1]'],
    ['localhost', 'localhost', 'localhost'],
    ['an unknown TLD', 'docs.test', 'docs.test'],
    ['a subdomain under an unknown TLD (PSL default rule *)', 'www.docs.test', 'docs.test'],
    ['an upper-case host', 'WWW.Example.COM', 'example.com'],
    ['the empty host', '', ''],
  ])('%s', (_name, host, expected) => {
    expect(registrableDomain(host)).toBe(expected);
  });

  it('gives the same answer from its cache', () => {
    expect(registrableDomain('cache.example.net')).toBe('example.net');
    expect(registrableDomain('cache.example.net')).toBe('example.net');
  });

  it('stays correct after its cache has evicted entries', () => {
    for (let i = 0; i < 10_000; i++) registrableDomain(`h${i}.site${i}.com`);
    expect(registrableDomain('h0.site0.com')).toBe('site0.com');
    expect(registrableDomain('h9999.site9999.com')).toBe('site9999.com');
  });
});

describe('siteOf', () => {
  it('is the registrable domain by default', () => {
    expect(siteOf('https://docs.python.org/3/library/')).toBe('python.org');
  });

  it('is the host without a leading www. in host mode', () => {
    expect(siteOf('https://docs.python.org/3/library/', 'host')).toBe('docs.python.org');
    expect(siteOf('https://www.gnu.org/software/', 'host')).toBe('gnu.org');
    expect(siteOf('https://gnu.org/', 'host')).toBe('gnu.org');
    expect(siteOf('https://gcc.gnu.org/', 'host')).toBe('gcc.gnu.org');
    expect(siteOf('https://www2.example.com/', 'host')).toBe('www2.example.com');
  });

  it('is the host for an IP address', () => {
    expect(siteOf('http://10.0.0.7:8080/x')).toBe('10.0.0.7');
  });

  it('is empty for a URL without host', () => {
    expect(siteOf('not a url')).toBe('');
  });
});
