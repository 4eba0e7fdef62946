/**
 * The undici connector of the fetcher: opens every TCP/TLS connection, and is the one place where
 * resolve rules redirect a connection and the address guard sees the address connected to.
 * Wrapping undici's own `buildConnector` keeps its TLS session cache and connect timeout.
 */
import { isIP, type Socket } from 'node:net';
import { buildConnector } from 'undici';
import { type AddressGuard, guardedLookup } from './address-guard.js';
import type { ResolveRules } from './resolve-rules.js';
import type { SocketBudget } from './socket-budget.js';

/** Options of {@link createConnector}. */
export interface ConnectorOptions {
  /** Rules that send some hosts to fixed addresses. */
  resolveRules: ResolveRules;
  /** Speak plain HTTP to resolved hosts even for https:// URLs (sandbox servers have no TLS). */
  isHttpsAsHttp: boolean;
  /** Decides which addresses may be connected to. */
  guard: AddressGuard;
  /** Time allowed to establish a connection (TCP and TLS), in milliseconds. */
  connectTimeoutMs: number;
  /** The budget every connection is opened under. */
  budget: SocketBudget;
}

/** A connector plus what it learnt about the connections it opened. */
export interface Connector {
  /** The function undici calls to open a connection. */
  connect: buildConnector.connector;
  /**
   * Remote IP address of the newest connection to an origin (`https://host:port`, the port only
   * when not the default), as URL.origin spells it. With one connection per origin (the
   * default) this is the address a response came from.
   */
  remoteAddressOf(origin: string): string | undefined;
}

/** Origins whose remote address is remembered; older entries are dropped first. */
const MAX_REMEMBERED_ORIGINS = 4096;

/** Builds the connector. */
export function createConnector(options: ConnectorOptions): Connector {
  const { resolveRules, isHttpsAsHttp, guard, budget } = options;
  const base = buildConnector({
    timeout: options.connectTimeoutMs,
    // Every DNS answer passes the guard before a socket connects to it.
    lookup: guardedLookup(guard),
  });
  const addresses = new Map<string, string>();

  const connect: buildConnector.connector = (opts, callback) => {
    const defaultPort = opts.protocol === 'https:' ? 443 : 80;
    const port = opts.port === '' || opts.port === undefined ? defaultPort : Number(opts.port);
    const target = resolveRules.resolve(opts.hostname, port);
    if (target?.rule.isNoHost) {
      // A host the rules say does not exist: fail as a DNS miss would, without any lookup.
      const miss = Object.assign(new Error(`getaddrinfo ENOTFOUND ${opts.hostname}`), {
        code: 'ENOTFOUND',
        hostname: opts.hostname,
      });
      callback(miss, null);
      return;
    }
    const hostname = target?.address ?? opts.hostname;
    const protocol = target && isHttpsAsHttp ? 'http:' : opts.protocol;
    const origin = `${opts.protocol}//${opts.host ?? opts.hostname}`;
    // IP literals (in the URL or a rule) never reach `lookup`: check them here.
    if (isIP(hostname) !== 0) {
      try {
        guard.check(hostname, opts.hostname);
      } catch (error) {
        callback(error as Error, null);
        return;
      }
    }
    const fail = (error: Error) => callback(error, null);
    const attempt = () =>
      base(
        {
          ...opts,
          hostname,
          protocol,
          port: String(target?.port ?? port),
          // TLS still names the original host (SNI and certificate check), as curl --resolve does.
          servername: opts.servername ?? (isIP(opts.hostname) === 0 ? opts.hostname : undefined),
        },
        (err, socket) => {
          if (!socket) {
            // Out of descriptors: the budget pauses and tries again rather than failing at once.
            if (budget.failed(err, () => budget.acquire(attempt, fail), fail)) return;
            callback(err ?? new Error('connect failed'), null);
            return;
          }
          budget.opened(origin, socket as Socket);
          const address = (socket as Socket).remoteAddress;
          if (address) {
            addresses.delete(origin);
            addresses.set(origin, address);
            if (addresses.size > MAX_REMEMBERED_ORIGINS) {
              const oldest = addresses.keys().next().value;
              if (oldest !== undefined) addresses.delete(oldest);
            }
          }
          callback(null, socket);
        },
      );
    budget.acquire(attempt, fail);
  };
  return { connect, remoteAddressOf: (origin) => addresses.get(origin) };
}
