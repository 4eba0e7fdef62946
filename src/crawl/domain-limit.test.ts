import { describe, expect, it } from 'vitest';
import { ConfigError } from '../common/index.js';
import { domainLimitAt, formatDomainLimit, parseDomainLimit } from './domain-limit.js';

describe('domain limit b', () => {
  it('parses none, fixed and halving schedules', () => {
    expect(parseDomainLimit('none')).toEqual({ kind: 'none' });
    expect(parseDomainLimit(10)).toEqual({ kind: 'fixed', b: 10 });
    expect(parseDomainLimit('5_2')).toEqual({ kind: 'halving', b: 5, floor: 2 });
    for (const bad of ['0', '-3', 'x', '2_5', '5_']) expect(() => parseDomainLimit(bad)).toThrow(ConfigError);
  });

  it('halves at T/3 and 2T/3 with a floor (5 -> 2 -> 2, 10 -> 5 -> 2)', () => {
    const five = parseDomainLimit('5_2');
    expect([0, 332, 333, 666, 667, 999].map((t) => domainLimitAt(five, t, 999))).toEqual([5, 5, 2, 2, 2, 2]);
    const ten = parseDomainLimit('10_2');
    expect([0, 333, 666].map((t) => domainLimitAt(ten, t, 999))).toEqual([10, 5, 2]);
    expect(domainLimitAt(parseDomainLimit('none'), 5, 10)).toBe(Number.POSITIVE_INFINITY);
    expect(formatDomainLimit(ten)).toBe('10_2');
  });
});
