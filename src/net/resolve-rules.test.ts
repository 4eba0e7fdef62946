import { describe, expect, it } from 'vitest';
import { ConfigError } from '../common/index.js';
import { parseResolveRule, parseResolveRules, ResolveRules } from './resolve-rules.js';

describe('parseResolveRule', () => {
  it('parses HOST=ADDR:PORT', () => {
    expect(parseResolveRule('docs.kernel.org=127.0.0.1:8080')).toMatchObject({
      hostPattern: 'docs.kernel.org',
      address: '127.0.0.1',
      port: 8080,
    });
  });

  it('parses a wildcard, a suffix, a bracketed IPv6 address and a missing port', () => {
    expect(parseResolveRule('*=127.0.0.1:41234')).toMatchObject({ hostPattern: '*', port: 41234 });
    expect(parseResolveRule('*.Test=[::1]:80')).toMatchObject({
      hostPattern: '*.test',
      address: '::1',
      port: 80,
    });
    expect(parseResolveRule('a.test=10.0.0.1')).toMatchObject({ address: '10.0.0.1', port: undefined });
  });

  it.each([
    ['no-equals-sign', /missing "="/],
    ['a.test=example.org:80', /not an IP address/],
    ['a.test=::1:80', /not an IP address/],
    ['a.test=127.0.0.1:99999', /not a port/],
    ['a.test=127.0.0.1:', /not a port/],
    ['bad host!=127.0.0.1:80', /not a host name/],
    ['a.test=[::1', /unclosed/],
  ])('rejects %s naming the rule and the expected format', (spec, why) => {
    let error: unknown;
    try {
      parseResolveRule(spec);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(why);
    expect((error as Error).message).toContain(spec);
    expect((error as Error).message).toContain('HOST=ADDR[:PORT]');
  });

  it('splits a string of rules on commas and whitespace', () => {
    expect(parseResolveRules('a.test=127.0.0.1:1, b.test=127.0.0.1:2').map((r) => r.port)).toEqual([1, 2]);
  });
});

describe('ResolveRules', () => {
  const rules = new ResolveRules([
    '*=127.0.0.9:9',
    '*.example.org=127.0.0.2:2',
    'www.example.org=127.0.0.1:1',
    '*.a.example.org=127.0.0.3',
  ]);

  it('prefers an exact host, then the longest suffix, then *', () => {
    expect(rules.match('WWW.example.org')?.address).toBe('127.0.0.1');
    expect(rules.match('x.a.example.org')?.address).toBe('127.0.0.3');
    expect(rules.match('docs.example.org')?.address).toBe('127.0.0.2');
    expect(rules.match('example.org')?.address).toBe('127.0.0.9');
  });

  it('keeps the URL port when the rule has none', () => {
    expect(rules.resolve('x.a.example.org', 443)).toMatchObject({ address: '127.0.0.3', port: 443 });
    expect(rules.resolve('other.test', 80)).toMatchObject({ address: '127.0.0.9', port: 9 });
  });

  it('matches nothing without rules', () => {
    const none = new ResolveRules();
    expect(none.isEmpty).toBe(true);
    expect(none.resolve('a.test', 80)).toBeUndefined();
  });
});

describe('ResolveRules and IP addresses', () => {
  it('sends IP-address hosts only through a rule naming that address', () => {
    const rules = new ResolveRules(['*=127.0.0.1:1', '10.0.0.1=127.0.0.1:2']);
    expect(rules.match('192.168.0.1')).toBeUndefined();
    expect(rules.match('[::1]')).toBeUndefined();
    expect(rules.match('10.0.0.1')?.port).toBe(2);
  });
});

describe('resolve rule target none', () => {
  it('parses HOST=none as a host that does not exist, and exact hosts still win over it', () => {
    const rules = new ResolveRules(['site.test=127.0.0.1:8080', '*=none']);
    expect(rules.match('site.test')?.isNoHost).toBe(false);
    expect(rules.match('other.test')?.isNoHost).toBe(true);
    expect(parseResolveRule('*=NONE')).toMatchObject({ hostPattern: '*', isNoHost: true, address: '' });
  });
});

describe('a sealed sandbox (*=none)', () => {
  it('also refuses IP-literal hosts, which other wildcards leave to the address guard', () => {
    const sealed = new ResolveRules(['site.test=127.0.0.1:8080', '*=none']);
    expect(sealed.match('127.0.0.1')?.isNoHost).toBe(true);
    expect(sealed.match('[::1]')?.isNoHost).toBe(true);
    const open = new ResolveRules(['*=127.0.0.1:8080']);
    expect(open.match('127.0.0.1')).toBeUndefined();
  });
});
