/**
 * What the replay server serves: sites, each a (host, URL path prefix) pair backed either by a
 * folder of files or by a handler function (generated webs, fault sites).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ConfigError } from '../../common/index.js';

/** Fields every site has. */
export interface SiteBase {
  /** Hostname the site answers for, without port, e.g. `www.gnu.org`. Matched case-insensitively. */
  host: string;
  /**
   * URL path prefix the site lives under, e.g. `/software/solfege/help/`. A trailing slash is added
   * if missing. Among the sites of one host the longest matching prefix wins.
   * @default '/'
   */
  prefix?: string;
  /**
   * Body of `/robots.txt` at the host root. The first site of a host that sets it wins; without
   * it `/robots.txt` is 404 unless a folder site at prefix `/` holds a `robots.txt` file.
   * @default undefined (no robots.txt)
   */
  robotsTxt?: string;
}

/** A site served from a folder: URL `prefix + rest` maps to file `dir/rest`. */
export interface FolderSite extends SiteBase {
  /** Folder holding the site's files (absolute, or relative to the process's working folder). */
  dir: string;
}

/**
 * Answers one request of a handler site. `relPath` is the raw (still percent-encoded) URL path
 * after the site's prefix, without the query string and without a leading slash ('' for the
 * prefix itself); read `req.url` for the query. May return a promise (awaited); a throw or rejection becomes a 500 (or a
 * destroyed socket if headers were already sent).
 */
export type SiteHandler = (req: IncomingMessage, res: ServerResponse, relPath: string) => unknown;

/** A site whose responses are computed: generated webs and fault sites. */
export interface HandlerSite extends SiteBase {
  handle: SiteHandler;
}

/** One site of the replay server: a folder or a handler. */
export type SiteSource = FolderSite | HandlerSite;

/** A site after validation: lowercased host, prefix starting and ending with '/'. */
export type NormalizedSite = SiteSource & { host: string; prefix: string };

/** True if the site is served by a handler rather than a folder. */
export function isHandlerSite(site: SiteSource): site is HandlerSite {
  return typeof (site as HandlerSite).handle === 'function';
}

/**
 * Checks a site and returns it with a lowercased host and a prefix of the form `/.../`.
 * @throws ConfigError naming the field if the host is empty or has a port, the prefix does not
 *   start with '/' or holds `..`, or the site has neither `dir` nor `handle`.
 */
export function normalizeSite(site: SiteSource, index = 0): NormalizedSite {
  const where = `sites[${index}]`;
  const host = String(site.host ?? '')
    .trim()
    .toLowerCase();
  if (!/^[a-z0-9.-]+$/.test(host)) {
    throw new ConfigError(`${where}.host must be a bare hostname (no port, no scheme), got '${site.host}'`, {
      context: { field: `${where}.host` },
    });
  }
  let prefix = site.prefix ?? '/';
  if (!prefix.startsWith('/') || prefix.split('/').includes('..')) {
    throw new ConfigError(`${where}.prefix must start with '/' and hold no '..', got '${prefix}'`, {
      context: { field: `${where}.prefix`, host },
    });
  }
  if (!prefix.endsWith('/')) prefix += '/';
  if (!isHandlerSite(site) && typeof (site as FolderSite).dir !== 'string') {
    throw new ConfigError(`${where} needs either 'dir' (a folder) or 'handle' (a function)`, {
      context: { field: where, host },
    });
  }
  return { ...site, host, prefix };
}
