/**
 * One HTTP GET hop on undici, with every limit a crawler needs: timeouts for connect, headers,
 * body and the whole request; caps on body and decompressed size; allowed content types; charset
 * detection and decoding. Redirects are not followed here (3xx comes back with `location`), and
 * nothing is retried: failures are thrown as RetryLaterError / SkipUrlError for the crawl loop.
 */
import type { Readable } from 'node:stream';
import { Agent, type Dispatcher } from 'undici';
import { type Clock, RetryLaterError, SkipUrlError, systemClock } from '../common/index.js';
import { AddressGuard } from './address-guard.js';
import { ACCEPT_ENCODING, parseContentEncoding, readBody } from './body-reader.js';
import { decodeText, detectCharset, isTextual, parseContentType, sniffMime } from './charset.js';
import { type Connector, createConnector } from './connector.js';
import { type FetchResult, headerRecord, parseHttpUrl } from './fetch-result.js';
import {
  DEFAULT_FETCHER_OPTIONS,
  type FetcherOptions,
  type FetchRequestOptions,
  validateFetcherOptions,
} from './fetcher-options.js';
import { parseRetryAfterMs, statusError, toFetchError } from './http-errors.js';
import { withDefaults } from './option-checks.js';
import { ResolveRules } from './resolve-rules.js';
import { SocketBudget } from './socket-budget.js';

/** The reason a fetch's total-timeout timer is stopped with (see `fetch`). */
const TIMER_STOPPED = Symbol('timer stopped');

export { DEFAULT_FETCHER_OPTIONS, type FetcherOptions, type FetchRequestOptions } from './fetcher-options.js';

/** Bytes of an unwanted body (3xx, 5xx) read to keep the connection reusable. */
const DISCARD_LIMIT_BYTES = 64 * 1024;

/**
 * Drops a body unread. undici's body then emits RequestAbortedError, which kills the process when
 * nobody listens (easy to overlook: it only happens when the body is not already fully read).
 */
function abandon(body: Readable): void {
  body.on('error', () => {});
  body.destroy();
}

async function discard(body: Readable & { dump?: (o: { limit: number }) => Promise<void> }): Promise<void> {
  try {
    if (body.dump) await body.dump({ limit: DISCARD_LIMIT_BYTES });
    else abandon(body);
  } catch {
    // The response is already decided; a broken tail only costs the connection.
  }
}

/** Time {@link Fetcher.close} waits for requests in flight before it destroys their connections, in ms. */
const CLOSE_GRACE_MS = 300;

/** Fetches single hops. One instance holds one connection pool; call {@link Fetcher.close}. */
export class Fetcher {
  /** The options in effect (defaults filled in). */
  readonly options: Readonly<Required<FetcherOptions>>;
  /** The address guard every connection passes. */
  readonly guard: AddressGuard;
  /** The resolve rules every connection passes. */
  readonly resolveRules: ResolveRules;
  private readonly clock: Clock;
  private readonly connector: Connector;
  private readonly agent: Agent;
  /** The budget of open connections over every host. */
  readonly sockets: SocketBudget;

  /** @throws ConfigError naming the first bad option. */
  /**
   * `deps.onWarning` receives one line when the system runs out of file descriptors (the crawl
   * goes on with fewer connections).
   */
  constructor(
    options: FetcherOptions = {},
    deps: { clock?: Clock; onWarning?: (message: string) => void } = {},
  ) {
    const merged = withDefaults<Required<FetcherOptions>>(DEFAULT_FETCHER_OPTIONS, options);
    validateFetcherOptions(merged);
    merged.allowedContentTypes = merged.allowedContentTypes.map((t) => t.trim().toLowerCase());
    this.options = merged;
    this.clock = deps.clock ?? systemClock;
    this.guard = new AddressGuard({ allowLoopback: merged.allowLoopback, allowPrivate: merged.allowPrivate });
    this.resolveRules = new ResolveRules(merged.resolveRules);
    this.sockets = new SocketBudget({
      maxSockets: merged.maxSockets,
      waitTimeoutMs: merged.connectTimeoutMs,
      ...(deps.onWarning ? { onExhausted: deps.onWarning } : {}),
    });
    this.connector = createConnector({
      resolveRules: this.resolveRules,
      isHttpsAsHttp: merged.isHttpsAsHttp,
      guard: this.guard,
      connectTimeoutMs: merged.connectTimeoutMs,
      budget: this.sockets,
    });
    this.agent = new Agent({
      connect: this.connector.connect,
      connections: merged.maxConnectionsPerHost,
      pipelining: 1,
      keepAliveMaxTimeout: merged.keepAliveMaxMs,
      keepAliveTimeout: Math.min(4000, merged.keepAliveMaxMs),
      headersTimeout: merged.headersTimeoutMs === false ? 0 : merged.headersTimeoutMs,
      bodyTimeout: merged.bodyTimeoutMs === false ? 0 : merged.bodyTimeoutMs,
    });
  }

  /**
   * Fetches one URL with GET, without following redirects.
   * @returns the result for 2xx, 3xx (with `location`) and 4xx other than 429.
   * @throws RetryLaterError for 429/5xx (`TRES_HTTP_429`, `TRES_HTTP_5XX`, with Retry-After as
   *   `retryAfterMs`), timeouts (`TRES_CONNECT_TIMEOUT`, `TRES_HEADERS_TIMEOUT`,
   *   `TRES_BODY_TIMEOUT`, `TRES_TOTAL_TIMEOUT`) and network failures (see http-errors.ts).
   * @throws SkipUrlError `TRES_INVALID_URL`, `TRES_UNSUPPORTED_SCHEME`, `TRES_DNS`,
   *   `TRES_ADDRESS_BLOCKED`, `TRES_CONTENT_TYPE`, `TRES_BODY_TOO_LARGE`,
   *   `TRES_DECOMPRESSION_BOMB`, `TRES_CONTENT_ENCODING`, `TRES_TLS`, `TRES_HTTP_PROTOCOL`.
   * @throws the signal's reason when `request.signal` aborts.
   */
  async fetch(url: string, request: FetchRequestOptions = {}): Promise<FetchResult> {
    const parsed = parseHttpUrl(url);
    const context = { url, host: parsed.hostname };
    const { options, clock } = this;
    const startMs = clock.monotonicMs();
    const fetchedAt = clock.now();
    const allowed = request.allowedContentTypes ?? options.allowedContentTypes;
    const requestHeaders: Record<string, string> = {
      host: parsed.host,
      'user-agent': options.userAgent,
      accept: allowed === false ? '*/*' : `${allowed.join(',')},*/*;q=0.8`,
      'accept-encoding': ACCEPT_ENCODING,
      // Speaking plain HTTP for https:// URLs, the crawler says which scheme it meant, as a
      // TLS-terminating proxy does, so a sandbox can answer like a real site (http -> https 301).
      ...(options.isHttpsAsHttp ? { 'x-forwarded-proto': parsed.protocol.replace(':', '') } : {}),
      ...options.headers,
    };
    const { host: _host, ...sentHeaders } = requestHeaders; // undici writes Host itself
    const timeout = new AbortController();
    const stopTimer = new AbortController();
    if (options.totalTimeoutMs !== false) {
      const ms = options.totalTimeoutMs;
      clock.sleep(ms, stopTimer.signal).then(
        () =>
          timeout.abort(
            new RetryLaterError('TRES_TOTAL_TIMEOUT', `No complete response in ${ms} ms from ${url}`, {
              context,
            }),
          ),
        () => {},
      );
    }
    // The caller's signal aborts the fetch through `timeout`, by a listener removed when the fetch
    // ends: AbortSignal.any would leave in the crawl's long-lived signal a Set entry and a WeakRef
    // for every fetch's combined signal, never removed (Node 20: about 60 bytes a page, for good).
    const outer = request.signal;
    const forwardAbort = () => timeout.abort(outer?.reason);
    if (outer?.aborted) forwardAbort();
    else outer?.addEventListener('abort', forwardAbort, { once: true });
    const signal = timeout.signal;
    // While a request is in flight its host's connections are not idle (the budget closes idle ones).
    this.sockets.requestStarted(parsed.origin);
    let hasHeaders = false;
    try {
      const response = await this.agent.request({
        origin: parsed.origin,
        path: `${parsed.pathname}${parsed.search}`,
        method: 'GET',
        headers: sentHeaders,
        signal,
        responseHeaders: 'raw',
      } as Dispatcher.RequestOptions);
      hasHeaders = true;
      const rawHeaders = (response.headers as unknown as (string | Buffer)[]).map(String);
      const headers = headerRecord(rawHeaders);
      const status = response.statusCode;
      const body = response.body as unknown as Readable;
      const ctx = { ...context, status };
      const contentType = parseContentType(headers['content-type']);
      const result: FetchResult = {
        url,
        status,
        statusText: response.statusText ?? '',
        headers,
        rawHeaders,
        contentType: contentType.mime,
        charset: undefined,
        body: Buffer.alloc(0),
        rawBody: Buffer.alloc(0),
        text: undefined,
        location: undefined,
        isTruncated: false,
        remoteAddress: this.connector.remoteAddressOf(parsed.origin),
        requestHeaders,
        httpVersion: '1.1',
        fetchedAt,
        durationMs: 0,
        bytesOnWire: 0,
      };
      const done = () => {
        result.durationMs = clock.monotonicMs() - startMs;
        return result;
      };
      const retryAfterMs = parseRetryAfterMs(headers['retry-after'], clock.now(), options.maxRetryAfterMs);
      const retry = statusError(status, retryAfterMs, ctx);
      if (retry) {
        await discard(body);
        throw retry;
      }
      if (status >= 300 && status < 400) {
        result.location = resolveLocation(headers.location, url);
        await discard(body);
        return done();
      }
      const isSuccess = status >= 200 && status < 300;
      const isAllowed = (mime: string) => allowed === false || allowed.includes(mime);
      const refuse = (mime: string): FetchResult => {
        // A 4xx page of an unwanted type is still a result the loop records; a 2xx is skipped.
        if (!isSuccess) return done();
        throw new SkipUrlError('TRES_CONTENT_TYPE', `Content-Type "${mime}" of ${url} is not allowed`, {
          context: ctx,
        });
      };
      if (contentType.mime !== '' && !isAllowed(contentType.mime)) {
        abandon(body); // do not read what we will not use
        return refuse(contentType.mime);
      }
      const maxBodyBytes = request.maxBodyBytes ?? options.maxBodyBytes;
      const shouldTruncate = request.shouldTruncateBody ?? false;
      const declared = Number(headers['content-length']);
      if (!shouldTruncate && declared > maxBodyBytes) {
        abandon(body);
        throw new SkipUrlError(
          'TRES_BODY_TOO_LARGE',
          `Content-Length ${declared} of ${url} exceeds maxBodyBytes (${maxBodyBytes})`,
          { context: ctx },
        );
      }
      const codings = parseContentEncoding(headers['content-encoding']);
      const limits = { maxBodyBytes, maxDecompressedBytes: options.maxDecompressedBytes, shouldTruncate };
      const bytes = await readBody(body, codings, limits, url);
      result.body = bytes.decoded;
      result.rawBody = bytes.raw;
      result.bytesOnWire = bytes.wireBytes;
      result.isTruncated = bytes.isTruncated;
      const mime = contentType.mime || sniffMime(bytes.decoded);
      result.contentType = mime;
      if (!isAllowed(mime)) return refuse(mime);
      if (isTextual(mime)) {
        const { charset } = detectCharset(bytes.decoded, contentType.charset, mime);
        result.charset = charset;
        result.text = decodeText(bytes.decoded, charset);
      }
      return done();
    } catch (error) {
      if (request.signal?.aborted) throw request.signal.reason;
      if (timeout.signal.aborted) throw timeout.signal.reason;
      throw toFetchError(error, context, hasHeaders);
    } finally {
      // With a reason of ours: abort() without one builds a DOMException per fetch (about 1 s of
      // a 38 s coverage crawl's CPU in a profile of the engine benchmark); nothing reads it.
      stopTimer.abort(TIMER_STOPPED);
      outer?.removeEventListener('abort', forwardAbort);
      this.sockets.requestEnded(parsed.origin);
    }
  }

  /**
   * Closes all connections after in-flight requests finish; those still open after
   * CLOSE_GRACE_MS (a connection still being opened, a server that never answers) are destroyed.
   */
  async close(): Promise<void> {
    this.sockets.close();
    let timer: NodeJS.Timeout | undefined;
    const isClosed = await Promise.race([
      this.agent.close().then(() => true),
      new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), CLOSE_GRACE_MS);
      }),
    ]);
    clearTimeout(timer);
    if (!isClosed) await this.agent.destroy();
  }
}

function resolveLocation(location: string | undefined, base: string): string | undefined {
  if (!location) return undefined;
  try {
    return new URL(location, base).href;
  } catch {
    return undefined;
  }
}
