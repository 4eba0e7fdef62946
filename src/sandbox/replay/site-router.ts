/**
 * Chooses the site for a request: by the Host header (port stripped, lowercased, trailing dot
 * dropped), then by the longest URL path prefix among that host's sites. Pure: no I/O.
 */
import { ConfigError } from '../../common/index.js';
import { versionAlias, wwwAlias } from './site-aliases.js';
import { type NormalizedSite, normalizeSite, type SiteSource } from './site-source.js';

/** What the server does with a request. */
export type Route =
  /** Serve from `site`; `relPath` is the raw path after the prefix, no leading slash. */
  | { kind: 'site'; site: NormalizedSite; relPath: string; query: string }
  /** Answer 301 with this Location: a path, on `host` if given (else the same host). */
  | { kind: 'redirect'; location: string; host?: string }
  /** Answer `/robots.txt` with this body. */
  | { kind: 'robots'; body: string }
  /** The host is known but no site holds this path. */
  | { kind: 'not-found' }
  /** No site has this host. */
  | { kind: 'unknown-host'; host: string };

/** Host of a Host header value: port and trailing dot removed, lowercased; '' if absent. */
export function hostOfHeader(header: string | undefined): string {
  if (!header) return '';
  let host = header.trim().toLowerCase();
  if (host.startsWith('[')) {
    const end = host.indexOf(']');
    host = end < 0 ? host : host.slice(0, end + 1);
  } else {
    const colon = host.indexOf(':');
    if (colon >= 0) host = host.slice(0, colon);
  }
  return host.endsWith('.') ? host.slice(0, -1) : host;
}

/** Splits a request target (origin-form `/a?b` or absolute-form `http://h/a?b`) into path and query. */
export function splitTarget(target: string): { path: string; query: string } {
  let rest = target;
  if (!rest.startsWith('/')) {
    const scheme = rest.indexOf('://');
    if (scheme >= 0) {
      const slash = rest.indexOf('/', scheme + 3);
      rest = slash < 0 ? '/' : rest.slice(slash);
    } else {
      rest = `/${rest}`;
    }
  }
  const hash = rest.indexOf('#');
  if (hash >= 0) rest = rest.slice(0, hash);
  const q = rest.indexOf('?');
  return q < 0 ? { path: rest, query: '' } : { path: rest.slice(0, q), query: rest.slice(q) };
}

/** Routing table of a replay server. */
export class SiteRouter {
  /** Sites per host, longest prefix first. */
  private readonly byHost = new Map<string, NormalizedSite[]>();
  /** First site of each host in the order given (for the `/` redirect). */
  private readonly firstByHost = new Map<string, NormalizedSite>();
  private readonly robotsByHost = new Map<string, string>();

  /** Prefixes per host, for version aliases. */
  private readonly prefixesByHost = new Map<string, string[]>();

  /**
   * @param options.aliases answer the redirects real documentation sites answer (`site-aliases.ts`):
   *   the `www.` spelling of a served host not served, and version segments in paths
   * @throws ConfigError if a site is invalid or two sites have the same host and prefix.
   */
  constructor(
    sites: readonly SiteSource[],
    private readonly options: { aliases?: boolean } = {},
  ) {
    sites.forEach((raw, index) => {
      const site = normalizeSite(raw, index);
      const list = this.byHost.get(site.host) ?? [];
      if (list.some((other) => other.prefix === site.prefix)) {
        throw new ConfigError(`sites[${index}]: two sites serve http://${site.host}${site.prefix}`, {
          context: { field: `sites[${index}].prefix`, host: site.host },
        });
      }
      list.push(site);
      this.byHost.set(site.host, list);
      if (!this.firstByHost.has(site.host)) this.firstByHost.set(site.host, site);
      if (site.robotsTxt !== undefined && !this.robotsByHost.has(site.host)) {
        this.robotsByHost.set(site.host, site.robotsTxt);
      }
    });
    for (const [host, list] of this.byHost) {
      list.sort((a, b) => b.prefix.length - a.prefix.length);
      this.prefixesByHost.set(
        host,
        list.map((site) => site.prefix),
      );
    }
  }

  /** Every host with at least one site, sorted. */
  hosts(): string[] {
    return [...this.byHost.keys()].sort();
  }

  /** Hosts without sites that answer a redirect to a served host (`www.` spellings), sorted. */
  aliasHosts(): string[] {
    if (!this.options.aliases) return [];
    return [...this.byHost.keys()]
      .map(wwwAlias)
      .filter((alias) => !this.byHost.has(alias))
      .sort();
  }

  /** Route for a request with this Host header and request target. */
  route(hostHeader: string | undefined, target: string): Route {
    const host = hostOfHeader(hostHeader);
    const sites = this.byHost.get(host);
    if (!sites) {
      const alias = wwwAlias(host);
      if (this.options.aliases && this.byHost.has(alias)) {
        const { path, query } = splitTarget(target);
        return { kind: 'redirect', location: path + query, host: alias };
      }
      return { kind: 'unknown-host', host };
    }
    const { path, query } = splitTarget(target);
    const match = sites.find((site) => path.startsWith(site.prefix));
    if (this.options.aliases && (!match || match.prefix === '/') && path !== '/robots.txt') {
      const location = versionAlias(path, this.prefixesByHost.get(host) as string[]);
      if (location !== undefined && location !== path)
        return { kind: 'redirect', location: location + query };
    }
    if (path === '/robots.txt') {
      const body = this.robotsByHost.get(host);
      if (body !== undefined) return { kind: 'robots', body };
      // Only a folder at the host root may hold its own robots.txt; a handler site never gets
      // it, so a stalling or failing fault handler cannot break the robots fetch by accident.
      if (!match || 'handle' in match) return { kind: 'not-found' };
    }
    if (match) return { kind: 'site', site: match, relPath: path.slice(match.prefix.length), query };
    const parent = sites.find((site) => `${path}/` === site.prefix);
    if (parent) return { kind: 'redirect', location: parent.prefix + query };
    if (path === '/')
      return { kind: 'redirect', location: (this.firstByHost.get(host) as NormalizedSite).prefix };
    return { kind: 'not-found' };
  }
}
