/**
 * Resolve rules: send requests for some host names to a fixed address, like curl's `--resolve`
 * and `--connect-to`. The URL, the Host header, TLS server name, robots.txt and politeness all keep
 * the original host name; only the TCP connection goes elsewhere. This is how sandbox webs (the
 * replay server on loopback) are crawled under their real host names.
 *
 * Rule format: `HOST=ADDR[:PORT]`
 * - `HOST` is `*` (every host name), a host name (`docs.kernel.org`), or `*.suffix` (every
 *   subdomain of `suffix`, not `suffix` itself). Matching is case-insensitive. URLs whose host is
 *   an IP address match only a rule naming that address (`10.0.0.1=127.0.0.1:8080`), never `*`,
 *   so a link to http://10.0.0.1/ in a sandbox still meets the address guard; but `*=none`
 *   matches them too, so a sealed sandbox reaches no address at all outside its rules.
 * - `ADDR` is an IPv4 address or a bracketed IPv6 address (`[::1]`). Host names are refused: the
 *   address guard must see the address that is connected to.
 * - `PORT` (1-65535) replaces the URL's port; without it the URL's port is kept.
 * - `ADDR` may also be `none`: the host does not exist (fails like a DNS miss, no lookup made).
 *   `*=none` after the rules of a sandbox's hosts keeps every other request off the network.
 *
 * Examples: `*=127.0.0.1:41234`, `docs.kernel.org=127.0.0.1:8080`, `*.test=[::1]:8080`.
 */
import { isIP } from 'node:net';
import { ConfigError } from '../common/index.js';

/** One parsed resolve rule. */
export interface ResolveRule {
  /** The rule as written, for messages. */
  spec: string;
  /** `*`, a lowercased host name, or `*.suffix`. */
  hostPattern: string;
  /** IP address to connect to, without brackets; '' when `isNoHost`. */
  address: string;
  /** True for `HOST=none`: the host does not exist, no connection is made. */
  isNoHost: boolean;
  /** Port to connect to; undefined keeps the URL's port. */
  port: number | undefined;
}

/** Where a connection for a given host goes after the rules are applied. */
export interface ResolvedTarget {
  /** The rule that matched. */
  rule: ResolveRule;
  /** IP address to connect to. */
  address: string;
  /** Port to connect to. */
  port: number;
}

const FORMAT_HINT =
  'expected HOST=ADDR[:PORT], e.g. "*=127.0.0.1:8080" or "docs.kernel.org=[::1]:8443" ' +
  '(HOST is *, a host name or *.suffix; ADDR an IP address, or none for a host that does not exist)';

const HOST_NAME =
  /^(?=.{1,253}$)([a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)(\.[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)*\.?$/;

function fail(spec: string, why: string): never {
  throw new ConfigError(`Bad resolve rule "${spec}": ${why}; ${FORMAT_HINT}`, {
    context: { field: 'resolveRules', rule: spec },
  });
}

/**
 * Parses one rule.
 * @throws ConfigError naming the rule and showing the expected format.
 */
export function parseResolveRule(spec: string): ResolveRule {
  const trimmed = spec.trim();
  const eq = trimmed.indexOf('=');
  if (eq <= 0) fail(spec, 'missing "="');
  const hostPattern = trimmed.slice(0, eq).trim().toLowerCase();
  const target = trimmed.slice(eq + 1).trim();
  if (hostPattern !== '*') {
    const name = hostPattern.startsWith('*.') ? hostPattern.slice(2) : hostPattern;
    if (!HOST_NAME.test(name)) fail(spec, `"${hostPattern}" is not a host name`);
  }
  if (target.toLowerCase() === 'none')
    return { spec, hostPattern, address: '', isNoHost: true, port: undefined };
  let address: string;
  let portText: string | undefined;
  if (target.startsWith('[')) {
    const close = target.indexOf(']');
    if (close < 0) fail(spec, 'unclosed "[" in the IPv6 address');
    address = target.slice(1, close);
    const rest = target.slice(close + 1);
    if (rest !== '' && !rest.startsWith(':')) fail(spec, `unexpected "${rest}" after the address`);
    portText = rest === '' ? undefined : rest.slice(1);
    if (isIP(address) !== 6) fail(spec, `"${address}" is not an IPv6 address`);
  } else {
    const colon = target.lastIndexOf(':');
    address = colon < 0 ? target : target.slice(0, colon);
    portText = colon < 0 ? undefined : target.slice(colon + 1);
    if (isIP(address) !== 4) {
      fail(spec, `"${address}" is not an IP address (write IPv6 addresses in brackets: [::1])`);
    }
  }
  let port: number | undefined;
  if (portText !== undefined) {
    port = /^\d{1,5}$/.test(portText) ? Number(portText) : Number.NaN;
    if (!(port >= 1 && port <= 65535)) fail(spec, `"${portText}" is not a port (1-65535)`);
  }
  return { spec, hostPattern, address, isNoHost: false, port };
}

/**
 * Parses a list of rules (also accepts one string with rules separated by commas or whitespace).
 * @throws ConfigError naming the first bad rule.
 */
export function parseResolveRules(specs: readonly string[] | string): ResolveRule[] {
  const list = typeof specs === 'string' ? specs.split(/[\s,]+/) : specs;
  return list.filter((s) => s.trim() !== '').map(parseResolveRule);
}

/**
 * A set of resolve rules. The most specific rule wins: an exact host name, then the longest
 * `*.suffix`, then `*`.
 */
export class ResolveRules {
  private readonly exact = new Map<string, ResolveRule>();
  private readonly suffixes: ResolveRule[] = [];
  private readonly wildcard: ResolveRule | undefined;

  /** @throws ConfigError for a bad rule. */
  constructor(rules: readonly (ResolveRule | string)[] = []) {
    let wildcard: ResolveRule | undefined;
    for (const item of rules) {
      const rule = typeof item === 'string' ? parseResolveRule(item) : item;
      if (rule.hostPattern === '*') wildcard ??= rule;
      else if (rule.hostPattern.startsWith('*.')) this.suffixes.push(rule);
      else if (!this.exact.has(rule.hostPattern)) this.exact.set(rule.hostPattern, rule);
    }
    this.wildcard = wildcard;
    // Longest suffix first, so `*.a.example` beats `*.example`.
    this.suffixes.sort((a, b) => b.hostPattern.length - a.hostPattern.length);
  }

  /** True when there are no rules. */
  get isEmpty(): boolean {
    return this.exact.size === 0 && this.suffixes.length === 0 && this.wildcard === undefined;
  }

  /** The rule for `hostname` (any case), if one matches; IP addresses match only exact rules. */
  match(hostname: string): ResolveRule | undefined {
    const host = hostname.toLowerCase().replace(/\.$/, '');
    const exact = this.exact.get(host);
    if (exact) return exact;
    // IP literals skip the name patterns so the address guard sees them, except for a
    // `*=none` rule: a sealed sandbox must not reach local ports through links like
    // http://127.0.0.1:8000/ either.
    if (isIP(host.replace(/^\[|\]$/g, '')) !== 0) return this.wildcard?.isNoHost ? this.wildcard : undefined;
    for (const rule of this.suffixes) {
      if (host.endsWith(rule.hostPattern.slice(1))) return rule;
    }
    return this.wildcard;
  }

  /**
   * Where a connection to `hostname:port` goes, or undefined when no rule matches.
   * @param port the URL's port (already defaulted to 80/443).
   */
  resolve(hostname: string, port: number): ResolvedTarget | undefined {
    const rule = this.match(hostname);
    return rule ? { rule, address: rule.address, port: rule.port ?? port } : undefined;
  }
}
