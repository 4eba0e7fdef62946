import { describe, expect, it } from 'vitest';
import { SkipUrlError } from '../common/index.js';
import { AddressGuard, classifyAddress, guardedLookup } from './address-guard.js';

describe('classifyAddress', () => {
  it.each([
    ['8.8.8.8', 'public'],
    ['93.184.216.34', 'public'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['172.32.0.1', 'public'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['169.254.169.254', 'link-local'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['0.0.0.0', 'unspecified'],
    ['255.255.255.255', 'reserved'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['fe80::1%eth0', 'link-local'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['ff02::1', 'multicast'],
    ['2001:4860:4860::8888', 'public'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['::ffff:8.8.8.8', 'public'],
    ['::127.0.0.1', 'loopback'],
    ['64:ff9b::a00:1', 'private'],
    ['2002:7f00:1::', 'loopback'],
    ['not-an-ip', undefined],
    ['1.2.3', undefined],
    ['1.2.3.256', undefined],
  ])('classifies %s as %s', (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });
});

describe('AddressGuard', () => {
  it('refuses everything but public addresses by default', () => {
    const guard = new AddressGuard();
    expect(guard.isAllowed('8.8.8.8')).toBe(true);
    for (const address of [
      '127.0.0.1',
      '::1',
      '10.0.0.1',
      '169.254.169.254',
      '::ffff:192.168.0.1',
      'ff02::1',
    ]) {
      expect(guard.isAllowed(address)).toBe(false);
    }
  });

  it('allows loopback and private addresses only when asked', () => {
    const guard = new AddressGuard({ allowLoopback: true, allowPrivate: true });
    expect(guard.isAllowed('127.0.0.1')).toBe(true);
    expect(guard.isAllowed('::ffff:127.0.0.1')).toBe(true);
    expect(guard.isAllowed('192.168.0.1')).toBe(true);
    expect(guard.isAllowed('169.254.169.254')).toBe(false);
    expect(guard.isAllowed('0.0.0.0')).toBe(false);
  });

  it('throws TRES_ADDRESS_BLOCKED with the class and a hint', () => {
    const guard = new AddressGuard();
    expect(() => guard.check('127.0.0.1', 'evil.test')).toThrow(SkipUrlError);
    expect(() => guard.check('127.0.0.1', 'evil.test')).toThrow(
      /loopback address 127.0.0.1 for evil.test.*allowLoopback/,
    );
  });

  it('drops refused answers after DNS', async () => {
    const lookup = guardedLookup(new AddressGuard());
    const error = await new Promise((resolve) => lookup('localhost', { all: true }, (err) => resolve(err)));
    expect(error).toBeInstanceOf(SkipUrlError);
    expect((error as SkipUrlError).code).toBe('TRES_ADDRESS_BLOCKED');
    const allowed = guardedLookup(new AddressGuard({ allowLoopback: true }));
    const address = await new Promise((resolve) =>
      allowed('localhost', { family: 4 }, (_e, a) => resolve(a)),
    );
    expect(address).toBe('127.0.0.1');
  });
});
