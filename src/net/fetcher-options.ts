/** Options of the fetcher (fetcher.ts): documented fields, defaults in one constant, checks run once. */
import { ConfigError } from '../common/index.js';
import type { AddressGuardOptions } from './address-guard.js';
import { checkBoolean, checkNumber, checkTimeout } from './option-checks.js';

/** Options of the Fetcher. Every limit applies to one hop (one request). */
export interface FetcherOptions extends AddressGuardOptions {
  /**
   * User-Agent header. Must carry a contact (an http(s) URL or an e-mail address) so site
   * owners can reach the operator, unless `shouldRequireContact` is false.
   * @default 'tres/0.1 (+https://github.com/tres-crawler/tres)'
   */
  userAgent?: string;
  /** Refuse a User-Agent without a contact URL or e-mail address. @default true */
  shouldRequireContact?: boolean;
  /** Extra request headers (e.g. `accept-language`), names lowercased. @default {} */
  headers?: Readonly<Record<string, string>>;
  /** Time to open a connection (TCP + TLS), in ms. @default 10_000 */
  connectTimeoutMs?: number;
  /** Time from sending the request to the end of the response headers, in ms; false: none. @default 15_000 */
  headersTimeoutMs?: number | false;
  /** Longest silence between two body chunks, in ms; false: none. @default 30_000 */
  bodyTimeoutMs?: number | false;
  /**
   * Time for the whole hop (connect, headers, body), in ms, so that a body dripped a byte at a
   * time cannot hold a slot forever; false: none. @default 60_000
   */
  totalTimeoutMs?: number | false;
  /** Cap on body bytes received, before decompression, in bytes. @default 5 MiB */
  maxBodyBytes?: number;
  /** Cap on body bytes after decompression (gzip, deflate, br), in bytes. @default 20 MiB */
  maxDecompressedBytes?: number;
  /**
   * Media types (lowercased, no parameters) whose bodies are read; others are skipped without
   * reading the body. A response without Content-Type is sniffed for HTML.
   * @default ['text/html', 'application/xhtml+xml']
   */
  allowedContentTypes?: readonly string[];
  /** Cap on a server's Retry-After hint, in ms. @default 3_600_000 (1 hour) */
  maxRetryAfterMs?: number;
  /** Connections per origin (undici pool size); requests beyond it queue. @default 1 */
  maxConnectionsPerHost?: number;
  /**
   * Open connections at most, over every host. A crawl meets thousands of hosts; to open one
   * more at the budget, the least recently used idle connection is closed first, and when none
   * is idle the new one waits (up to connectTimeoutMs). Keep it well below the process's file
   * descriptor limit (`ulimit -n`, often 1024): the store, the WARC and robots.txt fetches need
   * some too. @default 256
   */
  maxSockets?: number;
  /**
   * Longest time an idle connection is kept for the next request to its host, in ms, whatever
   * the server's Keep-Alive hint says (a server may ask for minutes). Without a hint undici's
   * 4 s apply. @default 10_000
   */
  keepAliveMaxMs?: number;
  /**
   * Resolve rules `HOST=ADDR[:PORT]` sending hosts to fixed addresses (see resolve-rules.ts).
   * The address guard still checks the rule's address. @default []
   */
  resolveRules?: readonly string[];
  /**
   * Speak plain HTTP to hosts matched by a resolve rule, even for https:// URLs; requests then carry
   * `X-Forwarded-Proto` with the URL's scheme. @default false
   */
  isHttpsAsHttp?: boolean;
}

/** Defaults of {@link FetcherOptions}. */
export const DEFAULT_FETCHER_OPTIONS: Readonly<Required<FetcherOptions>> = Object.freeze({
  userAgent: 'tres/0.1 (+https://github.com/tres-crawler/tres)',
  shouldRequireContact: true,
  headers: {},
  connectTimeoutMs: 10_000,
  headersTimeoutMs: 15_000,
  bodyTimeoutMs: 30_000,
  totalTimeoutMs: 60_000,
  maxBodyBytes: 5 * 1024 * 1024,
  maxDecompressedBytes: 20 * 1024 * 1024,
  allowedContentTypes: ['text/html', 'application/xhtml+xml'],
  maxRetryAfterMs: 3_600_000,
  maxConnectionsPerHost: 1,
  maxSockets: 256,
  keepAliveMaxMs: 10_000,
  resolveRules: [],
  isHttpsAsHttp: false,
  allowLoopback: false,
  allowPrivate: false,
});

/** Per-request overrides of `Fetcher.fetch`. */
export interface FetchRequestOptions {
  /** Aborts the request; the signal's reason is thrown as is. */
  signal?: AbortSignal;
  /** Media types to read for this request; false reads any type. @default the fetcher's */
  allowedContentTypes?: readonly string[] | false;
  /** Cap on body bytes for this request. @default the fetcher's */
  maxBodyBytes?: number;
  /** Keep the first `maxBodyBytes` instead of failing (robots.txt). @default false */
  shouldTruncateBody?: boolean;
}

const CONTACT = /https?:\/\/[^\s)]+|[\w.+-]+@[\w-]+(\.[\w-]+)+/;

/**
 * Checks filled-in fetcher options.
 * @throws ConfigError naming the first bad field (a User-Agent without contact included).
 */
export function validateFetcherOptions(options: Required<FetcherOptions>): void {
  const c = 'Fetcher';
  if (typeof options.userAgent !== 'string' || options.userAgent.trim() === '') {
    throw new ConfigError('Fetcher option userAgent is empty', { context: { field: 'userAgent' } });
  }
  checkBoolean(c, 'shouldRequireContact', options.shouldRequireContact);
  if (options.shouldRequireContact && !CONTACT.test(options.userAgent)) {
    throw new ConfigError(
      `Fetcher option userAgent "${options.userAgent}" has no contact URL or e-mail; add one, e.g. ` +
        '"mybot/1.0 (+https://example.org/bot)", or set shouldRequireContact: false',
      { context: { field: 'userAgent' } },
    );
  }
  checkNumber(c, 'connectTimeoutMs', options.connectTimeoutMs, 1);
  checkTimeout(c, 'headersTimeoutMs', options.headersTimeoutMs);
  checkTimeout(c, 'bodyTimeoutMs', options.bodyTimeoutMs);
  checkTimeout(c, 'totalTimeoutMs', options.totalTimeoutMs);
  checkNumber(c, 'maxBodyBytes', options.maxBodyBytes, 1, true);
  checkNumber(c, 'maxDecompressedBytes', options.maxDecompressedBytes, 1, true);
  checkNumber(c, 'maxRetryAfterMs', options.maxRetryAfterMs, 0);
  checkNumber(c, 'maxConnectionsPerHost', options.maxConnectionsPerHost, 1, true);
  checkNumber(c, 'maxSockets', options.maxSockets, 1, true);
  checkNumber(c, 'keepAliveMaxMs', options.keepAliveMaxMs, 1);
  checkBoolean(c, 'isHttpsAsHttp', options.isHttpsAsHttp);
  checkBoolean(c, 'allowLoopback', options.allowLoopback);
  checkBoolean(c, 'allowPrivate', options.allowPrivate);
  const types = options.allowedContentTypes;
  if (!Array.isArray(types) || types.some((t) => typeof t !== 'string' || !t.includes('/'))) {
    throw new ConfigError(
      'Fetcher option allowedContentTypes must be a list of media types like "text/html"',
      {
        context: { field: 'allowedContentTypes' },
      },
    );
  }
}
