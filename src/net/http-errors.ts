/**
 * Turns what can go wrong on the wire into tres errors with stable codes, so the crawl loop can
 * decide: {@link RetryLaterError} for transient failures, {@link SkipUrlError} for URLs that will
 * not work. Every error names the URL and carries `{ url, host, status }` and the cause.
 */
import { errors as undiciErrors } from 'undici';
import type { ErrorCode } from '../common/index.js';
import { type ErrorContext, RetryLaterError, SkipUrlError, TresError } from '../common/index.js';

/** Retryable network failures: Node/undici error code -> tres code. */
const RETRYABLE: Record<string, ErrorCode> = {
  UND_ERR_CONNECT_TIMEOUT: 'TRES_CONNECT_TIMEOUT',
  ETIMEDOUT: 'TRES_CONNECT_TIMEOUT',
  UND_ERR_HEADERS_TIMEOUT: 'TRES_HEADERS_TIMEOUT',
  UND_ERR_BODY_TIMEOUT: 'TRES_BODY_TIMEOUT',
  ECONNRESET: 'TRES_CONNECTION_RESET',
  EPIPE: 'TRES_CONNECTION_RESET',
  ECONNREFUSED: 'TRES_CONNECTION_REFUSED',
  UND_ERR_SOCKET: 'TRES_CONNECTION_CLOSED',
  UND_ERR_CLOSED: 'TRES_CONNECTION_CLOSED',
  UND_ERR_RES_CONTENT_LENGTH_MISMATCH: 'TRES_CONNECTION_CLOSED',
  ECONNABORTED: 'TRES_CONNECTION_CLOSED',
  EHOSTUNREACH: 'TRES_HOST_UNREACHABLE',
  ENETUNREACH: 'TRES_HOST_UNREACHABLE',
  EHOSTDOWN: 'TRES_HOST_UNREACHABLE',
  ENETDOWN: 'TRES_HOST_UNREACHABLE',
  EAI_AGAIN: 'TRES_DNS_TEMPORARY',
};

/** Failures that retrying will not fix: Node/undici error code -> tres code. */
const PERMANENT: Record<string, ErrorCode> = {
  ENOTFOUND: 'TRES_DNS',
  EAI_NONAME: 'TRES_DNS',
  EAI_NODATA: 'TRES_DNS',
  UND_ERR_HEADERS_OVERFLOW: 'TRES_HTTP_PROTOCOL',
  UND_ERR_INFO: 'TRES_HTTP_PROTOCOL',
  UND_ERR_NOT_SUPPORTED: 'TRES_HTTP_PROTOCOL',
};

const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|ERR_OSSL_)/;

function codeOf(error: unknown): string | undefined {
  if (error && typeof error === 'object' && 'code' in error && typeof error.code === 'string')
    return error.code;
  return undefined;
}

/**
 * Maps a thrown value from a request to a tres error.
 * - tres errors are re-thrown with the URL added to their message and context;
 * - network errors become RetryLaterError (`TRES_CONNECT_TIMEOUT`, `TRES_HEADERS_TIMEOUT`,
 *   `TRES_BODY_TIMEOUT`, `TRES_CONNECTION_RESET`, `TRES_CONNECTION_REFUSED`,
 *   `TRES_CONNECTION_CLOSED`, `TRES_HOST_UNREACHABLE`, `TRES_DNS_TEMPORARY`, `TRES_NETWORK`);
 * - DNS failures (`TRES_DNS`), TLS failures (`TRES_TLS`) and malformed responses
 *   (`TRES_HTTP_PROTOCOL`: undici's HTTP parser refused the bytes) become SkipUrlError;
 * - anything without an error code (a programming error) is returned unchanged.
 * @param hasHeaders whether the response's headers had arrived when `error` was thrown. undici
 *   reports a parser error met in the headers as a Content-Length mismatch whenever a
 *   Content-Length header was read before it (a second, differing Content-Length; Content-Length
 *   with chunked Transfer-Encoding): before the headers that is broken framing, after them a body
 *   cut short (`TRES_CONNECTION_CLOSED`, retried).
 */
export function toFetchError(error: unknown, context: ErrorContext, hasHeaders = true): unknown {
  const url = context.url ?? '?';
  if (error instanceof TresError) {
    if (error.context.url !== undefined) return error;
    const options = { cause: error, context: { ...error.context, ...context } };
    const message = `${error.message} (${url})`;
    if (error instanceof RetryLaterError) {
      return new RetryLaterError(error.code, message, { ...options, retryAfterMs: error.retryAfterMs });
    }
    if (error instanceof SkipUrlError) return new SkipUrlError(error.code, message, options);
    return error;
  }
  // undici's HTTPParserError often has no code (its llhttp error number is not mapped to a name):
  // a negative Content-Length, an HTTP/0.9 reply, a bad chunk size. Retrying gets the same bytes.
  if (error instanceof undiciErrors.HTTPParserError) {
    const named = codeOf(error) === undefined ? '' : ` (${codeOf(error)})`;
    return new SkipUrlError('TRES_HTTP_PROTOCOL', `${error.message}${named} fetching ${url}`, {
      cause: error,
      context,
    });
  }
  const code = codeOf(error);
  if (code === undefined) return error;
  const detail = error instanceof Error ? error.message : String(error);
  if (code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH' && !hasHeaders) {
    const message = `Response headers break HTTP framing (duplicate Content-Length, or Content-Length with Transfer-Encoding) fetching ${url}`;
    return new SkipUrlError('TRES_HTTP_PROTOCOL', message, { cause: error, context });
  }
  const retryable = RETRYABLE[code];
  if (retryable) {
    return new RetryLaterError(retryable, `${detail} (${code}) fetching ${url}`, { cause: error, context });
  }
  const permanent = PERMANENT[code] ?? (code.startsWith('HPE_') ? 'TRES_HTTP_PROTOCOL' : undefined);
  if (permanent)
    return new SkipUrlError(permanent, `${detail} (${code}) fetching ${url}`, { cause: error, context });
  if (TLS_CODE.test(code)) {
    return new SkipUrlError('TRES_TLS', `TLS failure ${code} fetching ${url}: ${detail}`, {
      cause: error,
      context,
    });
  }
  return new RetryLaterError('TRES_NETWORK', `${detail} (${code}) fetching ${url}`, {
    cause: error,
    context,
  });
}

/**
 * Parses a Retry-After header (RFC 9110 section 10.2.3): delay-seconds or an HTTP date.
 * @param nowMs current wall-clock time in ms since the epoch (dates are relative to it).
 * @param maxMs cap on the result, in ms (servers asking for days are not obeyed blindly).
 * @returns the delay in ms (0 for dates in the past), or undefined when absent or unparsable.
 */
export function parseRetryAfterMs(
  value: string | undefined,
  nowMs: number,
  maxMs: number,
): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  let ms: number;
  if (/^\d+$/.test(text)) ms = Number(text) * 1000;
  else {
    const at = Date.parse(text);
    if (Number.isNaN(at)) return undefined;
    ms = Math.max(0, at - nowMs);
  }
  return Math.min(ms, maxMs);
}

/**
 * The error for a response status the crawl loop should retry: 429 -> `TRES_HTTP_429`,
 * 5xx -> `TRES_HTTP_5XX`, with the server's Retry-After hint. Undefined for other statuses.
 */
export function statusError(
  status: number,
  retryAfterMs: number | undefined,
  context: ErrorContext,
): RetryLaterError | undefined {
  if (status !== 429 && (status < 500 || status > 599)) return undefined;
  const code = status === 429 ? 'TRES_HTTP_429' : 'TRES_HTTP_5XX';
  const hint = retryAfterMs === undefined ? '' : `, retry after ${retryAfterMs} ms`;
  return new RetryLaterError(code, `HTTP ${status} from ${context.url}${hint}`, { context, retryAfterMs });
}
