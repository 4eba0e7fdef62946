/**
 * The replay server: one HTTP/1.1 listener on loopback that serves many sites, chosen by the Host
 * header and the longest URL path prefix (see {@link SiteRouter}). The crawler reaches it through
 * resolve rules (every host, or the listed {@link ReplayServer.hosts}, to 127.0.0.1:PORT), so
 * sites keep their real hostnames and registrable domains.
 *
 * Unknown hosts fail fast. By default (`unknownHost: 'reset'`) the connection is reset at once,
 * with no HTTP response, which is what a dead site looks like to a crawler whose resolve rule
 * sends every host here (on the real web it would be a DNS or connect error). Use
 * `'misdirected'` to answer `421 Misdirected Request` instead, which is easier to tell apart from
 * the `reset.fault.test` site in logs.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConfigError } from '../../common/index.js';
import { FileCache } from './file-cache.js';
import { serveFolder } from './folder-site.js';
import { resetSocket, sendBody, sendRedirect, sendStatus } from './responses.js';
import { SiteRouter } from './site-router.js';
import { type FolderSite, isHandlerSite, type NormalizedSite, type SiteSource } from './site-source.js';

/** Options of {@link startReplayServer}. */
export interface ReplayServerOptions {
  /** The sites to serve. Two sites may share a host if their prefixes differ. */
  sites: readonly SiteSource[];
  /** TCP port; 0 picks a free one. @default 0 */
  port?: number;
  /** Address to listen on. Loopback only, by design. @default '127.0.0.1' */
  host?: '127.0.0.1';
  /**
   * What a request for a host without sites gets: `'reset'` destroys the connection at once (like
   * a dead site), `'misdirected'` answers 421.
   * @default 'reset'
   */
  unknownHost?: 'reset' | 'misdirected';
  /** Bytes of folder-site file lookups and small file bodies kept in memory; 0 disables. @default 64 MiB */
  cacheBytes?: number;
  /** Files above this many bytes are streamed from disk, never cached. @default 1 MiB */
  maxCachedFileBytes?: number;
  /** Idle time in milliseconds before a keep-alive connection is closed. @default 30_000 */
  keepAliveTimeoutMs?: number;
  /**
   * One scheme per host, as real sites have: a request for a served host made under the other
   * scheme gets a 301 to this one. The scheme asked for is the `X-Forwarded-Proto` header that
   * tres sends with `--https-as-http` (`http` without it). `false` serves both schemes alike.
   * @default false
   */
  canonicalScheme?: 'http' | 'https' | false;
  /**
   * Answer the redirects real documentation sites answer (`site-aliases.ts`): a host's `www.`
   * spelling when only the other is served, and version segments in paths (`/en/stable/` for the
   * `/en/master/` served). @default false
   */
  aliases?: boolean;
  /**
   * Called first for every request, robots.txt and unknown hosts included: the server's own
   * request log (the cluster tests judge politeness by it). Must not respond. @default undefined
   */
  onRequest?: (req: IncomingMessage, res: ServerResponse) => void;
}

/** Defaults of {@link ReplayServerOptions}. */
export const REPLAY_SERVER_DEFAULTS = {
  port: 0,
  host: '127.0.0.1',
  unknownHost: 'reset',
  cacheBytes: 64 * 1024 * 1024,
  maxCachedFileBytes: 1024 * 1024,
  keepAliveTimeoutMs: 30_000,
  canonicalScheme: false,
  aliases: false,
} as const satisfies Omit<Required<ReplayServerOptions>, 'sites' | 'onRequest'>;

/** Counters of a running server, for benchmarks and tests. */
export interface ReplayServerStats {
  requests: number;
  unknownHost: number;
  notFound: number;
  handlerErrors: number;
  /** Requests answered with a 301 to the host's canonical scheme. */
  schemeRedirects: number;
}

/** A running replay server. */
export interface ReplayServer {
  /** TCP port it listens on. */
  port: number;
  /** `http://127.0.0.1:PORT` (send the site's Host header with requests to it). */
  url: string;
  /** Every host served, sorted: the list for a crawler's resolve rule. */
  hosts: string[];
  /** Hosts that only redirect to a served host (the `www.` spellings, with `aliases`), sorted. */
  aliasHosts: string[];
  /** Counters since start. */
  stats(): ReplayServerStats;
  /** Stops listening and destroys open connections (stalled ones too); resolves when closed. */
  close(): Promise<void>;
}

function checkOptions(options: ReplayServerOptions) {
  const o = { ...REPLAY_SERVER_DEFAULTS, ...options };
  if (o.canonicalScheme !== false && o.canonicalScheme !== 'http' && o.canonicalScheme !== 'https')
    throw new ConfigError(
      `canonicalScheme must be 'http', 'https' or false, got '${String(o.canonicalScheme)}'`,
    );
  if (o.host !== '127.0.0.1')
    throw new ConfigError(`host must be '127.0.0.1' (loopback only), got '${o.host}'`);
  if (!Number.isInteger(o.port) || o.port < 0 || o.port > 65535) {
    throw new ConfigError(`port must be an integer in 0..65535, got ${o.port}`, {
      context: { field: 'port' },
    });
  }
  if (o.unknownHost !== 'reset' && o.unknownHost !== 'misdirected') {
    throw new ConfigError(`unknownHost must be 'reset' or 'misdirected', got '${o.unknownHost}'`);
  }
  for (const field of ['cacheBytes', 'maxCachedFileBytes', 'keepAliveTimeoutMs'] as const) {
    if (!(o[field] >= 0))
      throw new ConfigError(`${field} must be >= 0, got ${o[field]}`, { context: { field } });
  }
  return o;
}

/**
 * Starts a replay server on loopback.
 * @throws ConfigError for invalid options or sites (empty host, bad prefix, duplicate host+prefix).
 * @throws the listen error (e.g. EADDRINUSE) if the port is taken.
 */
export async function startReplayServer(options: ReplayServerOptions): Promise<ReplayServer> {
  const o = checkOptions(options);
  const router = new SiteRouter(o.sites, { aliases: o.aliases });
  const cache = new FileCache({ cacheBytes: o.cacheBytes, maxCachedFileBytes: o.maxCachedFileBytes });
  const counters: ReplayServerStats = {
    requests: 0,
    unknownHost: 0,
    notFound: 0,
    handlerErrors: 0,
    schemeRedirects: 0,
  };

  const runHandler = async (
    site: NormalizedSite,
    req: IncomingMessage,
    res: ServerResponse,
    relPath: string,
  ) => {
    try {
      if (!isHandlerSite(site)) throw new Error('not a handler site');
      await site.handle(req, res, relPath);
    } catch {
      counters.handlerErrors++;
      if (!res.headersSent) sendStatus(req, res, 500);
      else res.destroy();
    }
  };

  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    options.onRequest?.(req, res);
    counters.requests++;
    const route = router.route(req.headers.host, req.url ?? '/');
    switch (route.kind) {
      case 'unknown-host':
        counters.unknownHost++;
        if (o.unknownHost === 'reset') resetSocket(req.socket);
        else sendStatus(req, res, 421);
        return;
      case 'redirect': {
        if (route.host === undefined) {
          sendRedirect(res, 301, route.location);
          return;
        }
        const asked = String(req.headers['x-forwarded-proto'] ?? 'http').toLowerCase();
        const scheme =
          o.canonicalScheme === false ? (asked === 'https' ? 'https' : 'http') : o.canonicalScheme;
        sendRedirect(res, 301, `${scheme}://${route.host}${route.location}`);
        return;
      }
      default:
        break;
    }
    if (o.canonicalScheme !== false) {
      const asked = String(req.headers['x-forwarded-proto'] ?? 'http').toLowerCase();
      if (asked !== o.canonicalScheme) {
        counters.schemeRedirects++;
        sendRedirect(res, 301, `${o.canonicalScheme}://${req.headers.host ?? ''}${req.url ?? '/'}`);
        return;
      }
    }
    switch (route.kind) {
      case 'robots':
        sendBody(res, 200, 'text/plain; charset=utf-8', route.body);
        return;
      case 'not-found':
        counters.notFound++;
        sendStatus(req, res, 404);
        return;
      case 'site':
        if (isHandlerSite(route.site)) {
          void runHandler(route.site, req, res, route.relPath);
        } else {
          const site = route.site as NormalizedSite & FolderSite;
          void serveFolder(site, route.relPath, route.query, req, res, cache).then(() => {
            if (res.statusCode === 404) counters.notFound++;
          });
        }
    }
  };

  const server = createServer({ noDelay: true }, onRequest);
  server.keepAliveTimeout = o.keepAliveTimeoutMs;
  server.maxRequestsPerSocket = 0;
  // A client that resets mid-request is normal here (fault tests do it); do not crash.
  server.on('clientError', (_error, socket) => socket.destroy());

  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => {
      server.off('error', reject);
      resolveListen();
    });
  });
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `http://${o.host}:${port}`,
    hosts: router.hosts(),
    aliasHosts: router.aliasHosts(),
    stats: () => ({ ...counters }),
    close: () =>
      new Promise<void>((resolveClose) => {
        server.close(() => resolveClose());
        server.closeAllConnections();
      }),
  };
}
