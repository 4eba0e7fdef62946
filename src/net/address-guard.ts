/**
 * Address guard: refuses connections to addresses a crawler must not reach from links found on
 * the web (server-side request forgery): private networks, loopback, link-local (cloud metadata
 * at 169.254.169.254), multicast, unspecified and reserved ranges, including the same ranges
 * hidden inside IPv6 (IPv4-mapped `::ffff:a.b.c.d`, IPv4-compatible, NAT64 `64:ff9b::/96`, 6to4).
 *
 * The check runs on the address that is actually connected to, after DNS ({@link guardedLookup}
 * is the `lookup` of every socket), so a host name that resolves to 127.0.0.1 or changes its
 * answer between two lookups (DNS rebinding) cannot get through.
 */

import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import { SkipUrlError } from '../common/index.js';

/** What kind of address an IP is. Only `public` is always allowed. */
export type AddressClass =
  | 'public'
  | 'private'
  | 'loopback'
  | 'link-local'
  | 'multicast'
  | 'unspecified'
  | 'reserved';

/** Options of {@link AddressGuard}. */
export interface AddressGuardOptions {
  /**
   * Allow loopback addresses (127.0.0.0/8, ::1). Sandbox runs against a local replay server set
   * this.
   * @default false
   */
  allowLoopback?: boolean;
  /**
   * Allow private addresses (10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7, fec0::/10), e.g.
   * to crawl an intranet. Link-local, multicast, unspecified and reserved stay refused.
   * @default false
   */
  allowPrivate?: boolean;
}

/** Defaults of {@link AddressGuardOptions}. */
export const DEFAULT_ADDRESS_GUARD_OPTIONS: Required<AddressGuardOptions> = {
  allowLoopback: false,
  allowPrivate: false,
};

function parseIpv4(text: string): number | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  let value = 0;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part)) return undefined;
    const byte = Number(part);
    if (byte > 255) return undefined;
    value = value * 256 + byte;
  }
  return value;
}

/** Eight 16-bit groups of an IPv6 address (zone id dropped), or undefined. */
function parseIpv6(text: string): number[] | undefined {
  let s = text.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (isIP(s) !== 6) return undefined;
  const lastColon = s.lastIndexOf(':');
  if (s.includes('.', lastColon)) {
    // A dotted IPv4 tail (::ffff:1.2.3.4) becomes two hex groups.
    const v4 = parseIpv4(s.slice(lastColon + 1));
    if (v4 === undefined) return undefined;
    s = `${s.slice(0, lastColon + 1)}${Math.floor(v4 / 65536).toString(16)}:${(v4 % 65536).toString(16)}`;
  }
  const toGroups = (part: string) => (part === '' ? [] : part.split(':').map((g) => Number.parseInt(g, 16)));
  const [head = '', rest] = s.split('::');
  const left = toGroups(head);
  if (rest === undefined) return left;
  const right = toGroups(rest);
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}

function classifyIpv4(v: number): AddressClass {
  const a = Math.floor(v / 2 ** 24);
  const b = Math.floor(v / 2 ** 16) % 256;
  if (a === 0) return 'unspecified'; // 0.0.0.0/8 "this network"
  if (a === 127) return 'loopback';
  if (a === 10 || (a === 172 && b >= 16 && b < 32) || (a === 192 && b === 168)) return 'private';
  if (a === 100 && b >= 64 && b < 128) return 'private'; // 100.64/10 carrier-grade NAT
  if (a === 169 && b === 254) return 'link-local';
  if (a >= 224 && a < 240) return 'multicast';
  if (a >= 240) return 'reserved'; // 240/4 and the broadcast address
  return 'public';
}

function classifyIpv6(g: number[]): AddressClass {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g;
  const embedded = (hi: number, lo: number) => classifyIpv4(hi * 65536 + lo);
  const firstFiveZero = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0;
  if (firstFiveZero && g5 === 0) {
    if (g6 === 0 && g7 === 0) return 'unspecified';
    if (g6 === 0 && g7 === 1) return 'loopback';
    return embedded(g6, g7); // ::a.b.c.d, IPv4-compatible (deprecated)
  }
  if (firstFiveZero && g5 === 0xffff) return embedded(g6, g7); // ::ffff:a.b.c.d, IPv4-mapped
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) {
    return embedded(g6, g7); // 64:ff9b::/96 NAT64
  }
  if (g0 === 0x2002) return embedded(g1, g2); // 2002::/16 6to4 carries an IPv4 address
  if ((g0 & 0xfe00) === 0xfc00) return 'private'; // fc00::/7 unique local
  if ((g0 & 0xffc0) === 0xfe80) return 'link-local'; // fe80::/10
  if ((g0 & 0xffc0) === 0xfec0) return 'private'; // fec0::/10 site-local (deprecated)
  if ((g0 & 0xff00) === 0xff00) return 'multicast'; // ff00::/8
  return 'public';
}

/**
 * Classifies an IP address (IPv4, IPv6 with or without brackets or zone id).
 * @returns undefined when `address` is not an IP address.
 */
export function classifyAddress(address: string): AddressClass | undefined {
  const v4 = parseIpv4(address);
  if (v4 !== undefined) return classifyIpv4(v4);
  const v6 = parseIpv6(address);
  return v6 && v6.length === 8 ? classifyIpv6(v6) : undefined;
}

/** Decides which resolved addresses may be connected to. */
export class AddressGuard {
  readonly options: Readonly<Required<AddressGuardOptions>>;

  constructor(options: AddressGuardOptions = {}) {
    this.options = { ...DEFAULT_ADDRESS_GUARD_OPTIONS, ...options };
  }

  /** True when a connection to `address` (an IP address) is allowed; false for non-IPs. */
  isAllowed(address: string): boolean {
    const kind = classifyAddress(address);
    if (kind === 'public') return true;
    if (kind === 'loopback') return this.options.allowLoopback;
    if (kind === 'private') return this.options.allowPrivate;
    return false;
  }

  /**
   * Checks an IP address.
   * @param host the host name it was reached from, for the message.
   * @throws SkipUrlError `TRES_ADDRESS_BLOCKED` when the address is refused.
   */
  check(address: string, host?: string): void {
    if (this.isAllowed(address)) return;
    const kind = classifyAddress(address) ?? 'not an IP address';
    const hint =
      kind === 'loopback'
        ? ' (allowLoopback permits it)'
        : kind === 'private'
          ? ' (allowPrivate permits it)'
          : '';
    const via = host && host !== address ? ` for ${host}` : '';
    throw new SkipUrlError(
      'TRES_ADDRESS_BLOCKED',
      `Refused to connect to ${kind} address ${address}${via}${hint}`,
      {
        context: { host, address, addressClass: kind },
      },
    );
  }
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` function for `net.connect` that resolves with `dns.lookup` and then drops every
 * address the guard refuses; it fails with the guard's SkipUrlError when none is left.
 */
export function guardedLookup(guard: AddressGuard) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      const allowed = addresses.filter((a) => guard.isAllowed(a.address));
      if (allowed.length === 0) {
        try {
          guard.check(addresses[0]?.address ?? '', hostname);
        } catch (blocked) {
          return callback(blocked as NodeJS.ErrnoException, []);
        }
      }
      if (options.all) return callback(null, allowed);
      const first = allowed[0] as LookupAddress;
      callback(null, first.address, first.family);
    });
  };
}
