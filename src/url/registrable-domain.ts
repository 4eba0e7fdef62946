/**
 * Registrable domains (eTLD+1, from the Public Suffix List through tldts) and the "web site"
 * of a URL as the TRES papers count relevant sites.
 */
import { getDomain } from 'tldts';
import { hostOf } from './url-parts.js';

/**
 * How a URL is mapped to its web site: `'domain'` is the registrable domain
 * (`docs.python.org` -> `python.org`), `'host'` the host name without a leading `www.`
 * (`www.gnu.org` and `gnu.org` are one site, `gcc.gnu.org` another), as the TRES authors' code
 * counts domains.
 */
export type SiteMode = 'domain' | 'host';

// Private PSL entries (github.io, blogspot.com, ...) count as suffixes: each user's pages
// on github.io are a site of their own, not all one site. tldts gets a bare host name.
const TLDTS_OPTIONS = { allowPrivateDomains: true, extractHostname: false, validateHostname: false } as const;

// getDomain walks the suffix trie on every call (about 1 us); a crawl sees the same few
// thousand hosts over and over (each page's outlinks mostly stay on a handful of hosts), so a
// small memo turns it into one Map lookup. Bounded so that a crawl over millions of hosts
// cannot grow it without limit: when full, the oldest entry goes (Map keeps insertion order).
const CACHE_MAX_ENTRIES = 8192;
const cache = new Map<string, string>();

/**
 * Registrable domain of a host name: the public suffix plus one label (`a.b.co.uk` ->
 * `b.co.uk`, `foo.github.io` -> `foo.github.io`, `www.example.com` -> `example.com`). A host
 * under a TLD missing from the list follows the list's default rule `*` (`a.docs.test` ->
 * `docs.test`).
 *
 * @param host a host name as `URL.hostname` gives it (lowercase, punycode; IPv6 in brackets)
 * @returns the registrable domain, or the host itself when it has none: IP addresses,
 *   `localhost`, a bare public suffix (`co.uk`), `''`. Never throws.
 */
export function registrableDomain(host: string): string {
  const cached = cache.get(host);
  if (cached !== undefined) return cached;
  const lower = host.toLowerCase();
  const domain = lower === '' ? '' : (getDomain(lower, TLDTS_OPTIONS) ?? lower);
  if (cache.size >= CACHE_MAX_ENTRIES) {
    const oldest = cache.keys().next().value;
    if (oldest !== undefined) cache.delete(oldest);
  }
  cache.set(host, domain);
  return domain;
}

/**
 * The site of a host name in `'host'` mode: the host without a leading `www.` (`www.gnu.org` ->
 * `gnu.org`, `gcc.gnu.org` unchanged). Lowercase input expected, as `URL.hostname` gives it.
 */
export function hostSite(host: string): string {
  return host.startsWith('www.') ? host.slice(4) : host;
}

/**
 * The web site a URL belongs to: its registrable domain (`mode` `'domain'`, the default) or its
 * host name without `www.` (`'host'`, the TRES authors' count of relevant domains).
 *
 * @param url an absolute URL, ideally normalised by `normalizeUrl`
 * @returns the site, or `''` if the URL has no host. Never throws.
 */
export function siteOf(url: string, mode: SiteMode = 'domain'): string {
  const host = hostOf(url);
  return mode === 'host' ? hostSite(host) : registrableDomain(host);
}
