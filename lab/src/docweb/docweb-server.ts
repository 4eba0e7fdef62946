/**
 * `npm run lab -- docweb serve`: the replay server over a built DocWeb. Each site of the table becomes a
 * folder site (Host header + longest prefix; a folder URL serves its index.html; `/` redirects
 * to the host's first prefix; `www.` spellings and version segments redirect as on the real sites,
 * see `../site-aliases.ts`; unknown hosts are reset at once, like dead sites). Every host is
 * https only: a request made as http (no `X-Forwarded-Proto: https`) gets a 301 to https. Each excluded
 * giant tree becomes a small handler site at its own, longer prefix that answers 404, so the
 * server and the page table agree on what exists.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SiteSource } from 'tres-crawler';
import { ConfigError, sandboxResolveRules, startReplayServer } from 'tres-crawler';
import { type ReplayServer, sendStatus } from 'tres-crawler/internals';
import { defaultCacheDir } from './cache-layout.js';
import { DocwebDb } from './docweb-db.js';
import { HUB_PACKAGE } from './hub.js';
import { hubHandler } from './hub-site.js';

/** Options of {@link startDocweb}. */
export interface DocwebServeOptions {
  /** A built DocWeb cache. @default `$TRES_CACHE_DIR/docweb` or `~/.cache/tres/docweb` */
  cacheDir?: string;
  /** TCP port on 127.0.0.1; 0 picks a free one. @default 0 */
  port?: number;
  /** What requests for hosts outside the DocWeb get: a reset connection or 421. @default 'reset' */
  unknownHost?: 'reset' | 'misdirected';
}

/** Defaults of {@link DocwebServeOptions} (the cache folder is computed from the environment). */
export const DOCWEB_SERVE_DEFAULTS = { port: 0, unknownHost: 'reset' } as const;

/** A running DocWeb server. */
export interface DocwebServer extends ReplayServer {
  /** Number of sites served (excluded-tree handlers not counted). */
  siteCount: number;
  /** Pages in the page table. */
  pageCount: number;
  /** Flags that point `tres crawl` at this server. */
  crawlFlags: string[];
}

/** The path form of a relative folder as it appears in a request (percent-encoded). */
function encodedPath(prefix: string, rel: string): string {
  const escaped = rel.replace(/%/g, '%25').replace(/\?/g, '%3F').replace(/#/g, '%23');
  return new URL(prefix + escaped, 'http://docweb.invalid').pathname;
}

const answer404 = (req: IncomingMessage, res: ServerResponse) => sendStatus(req, res, 404);

/** The replay server's sites for a built DocWeb: folder sites plus 404 handlers for excluded trees. */
export function docwebSiteSources(db: DocwebDb): SiteSource[] {
  const sources: SiteSource[] = [];
  for (const site of db.sites()) {
    if (site.package === HUB_PACKAGE) {
      sources.push({ host: site.host, prefix: site.prefix, handle: hubHandler(db.siteDir(site)) });
      continue;
    }
    sources.push({
      host: site.host,
      prefix: site.prefix,
      dir: db.siteDir(site),
      ...(site.robotsTxt === undefined ? {} : { robotsTxt: site.robotsTxt }),
    });
    for (const tree of site.excludedTrees)
      sources.push({ host: site.host, prefix: encodedPath(site.prefix, tree), handle: answer404 });
  }
  return sources;
}

/** Hosts listed one by one in the printed `--resolve` flag at most; beyond, one wildcard rule. */
export const MAX_LISTED_RESOLVE_HOSTS = 100;

/**
 * The `--resolve` value that points `tres crawl` at the server. A small web lists its served
 * hosts, then `*=none`, so links out of it fail as DNS misses at once. With project home pages the
 * DocWeb serves about 7,000 hosts, a flag of 300 KB: then every host goes to the server, which
 * resets a connection for a host it does not serve, at once too.
 */
export function docwebResolveFlag(server: Pick<ReplayServer, 'hosts' | 'aliasHosts' | 'port'>): string {
  const rules = sandboxResolveRules(server);
  return rules.length - 1 <= MAX_LISTED_RESOLVE_HOSTS ? rules.join(',') : `*=127.0.0.1:${server.port}`;
}

/**
 * Starts the replay server over the DocWeb in `cacheDir`, on 127.0.0.1.
 * @throws ConfigError if the cache holds no build or the port is invalid; the listen error
 *   (EADDRINUSE) if the port is taken.
 */
export async function startDocweb(options: DocwebServeOptions = {}): Promise<DocwebServer> {
  const cacheDir = options.cacheDir ?? defaultCacheDir();
  const port = options.port ?? DOCWEB_SERVE_DEFAULTS.port;
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new ConfigError(`port must be an integer in 0..65535, got ${port}`, { context: { field: 'port' } });
  const db = new DocwebDb(cacheDir);
  let sources: SiteSource[];
  let siteCount: number;
  let pageCount: number;
  try {
    const sites = db.sites();
    siteCount = sites.length;
    pageCount = sites.reduce((n, s) => n + s.pages, 0);
    sources = docwebSiteSources(db);
  } finally {
    db.close();
  }
  const server = await startReplayServer({
    sites: sources,
    port,
    unknownHost: options.unknownHost ?? DOCWEB_SERVE_DEFAULTS.unknownHost,
    // Like the real sites today: https only, http answers with a 301 to it. The same page under
    // both schemes was counted twice, and the agent learned to fetch the copies.
    canonicalScheme: 'https',
    // The redirects real documentation sites answer: sphinx-doc.org -> www.sphinx-doc.org,
    // /en/stable/ -> the /en/master/ served, /3.4/library/ -> /3/library/. Links between the
    // sites mostly use such spellings.
    aliases: true,
  });
  return {
    ...server,
    siteCount,
    pageCount,
    crawlFlags: ['--resolve', docwebResolveFlag(server), '--https-as-http', '--allow-loopback'],
  };
}
