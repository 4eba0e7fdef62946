/** What one fetched hop yields, and small helpers shared by the fetcher and the web client. */
import { SkipUrlError } from '../common/index.js';

/** The outcome of one HTTP GET hop: enough to parse the page and to write WARC records. */
export interface FetchResult {
  /** The URL requested in this hop. */
  url: string;
  /** HTTP status code. */
  status: number;
  /** Reason phrase as sent by the server (may be empty). */
  statusText: string;
  /** Response headers, names lowercased; repeated headers joined with ", " (Set-Cookie with "\n"). */
  headers: Record<string, string>;
  /** Response headers exactly as received: [name, value, name, value, ...] (for WARC). */
  rawHeaders: string[];
  /** Media type, lowercased, no parameters; sniffed when the header is missing. */
  contentType: string;
  /** Encoding the text was decoded with (WHATWG name); undefined when no text was decoded. */
  charset: string | undefined;
  /** Body after undoing Content-Encoding; empty for 3xx and for bodies not read. */
  body: Buffer;
  /** Body as received (still content-encoded); the same Buffer as `body` when not encoded. */
  rawBody: Buffer;
  /** Decoded text, only for allowed textual media types. */
  text: string | undefined;
  /** For 3xx: the Location header resolved to an absolute URL (undefined if missing or invalid). */
  location: string | undefined;
  /** True when the body was cut at the byte cap (only when truncation was asked for). */
  isTruncated: boolean;
  /** IP address of the server connected to, when known. */
  remoteAddress: string | undefined;
  /** Request headers sent, names lowercased, including Host (for WARC request records). */
  requestHeaders: Record<string, string>;
  /** HTTP version of the exchange (undici speaks HTTP/1.1). */
  httpVersion: string;
  /** Wall-clock time the request started, in ms since the epoch (WARC-Date). */
  fetchedAt: number;
  /** Time from start to the end of the body, in ms. */
  durationMs: number;
  /** Body bytes received (after chunked decoding, before content decoding). */
  bytesOnWire: number;
}

/** Lowercased header record from raw [name, value, ...] pairs. */
export function headerRecord(rawHeaders: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = (rawHeaders[i] as string).toLowerCase();
    const value = rawHeaders[i + 1] as string;
    const previous = headers[name];
    headers[name] =
      previous === undefined ? value : `${previous}${name === 'set-cookie' ? '\n' : ', '}${value}`;
  }
  return headers;
}

/**
 * Parses an absolute http(s) URL.
 * @throws SkipUrlError `TRES_INVALID_URL` or `TRES_UNSUPPORTED_SCHEME`.
 */
export function parseHttpUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch (cause) {
    throw new SkipUrlError('TRES_INVALID_URL', `Not a valid absolute URL: ${url}`, {
      cause,
      context: { url },
    });
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new SkipUrlError('TRES_UNSUPPORTED_SCHEME', `Only http and https URLs are fetched, not ${url}`, {
      context: { url, host: parsed.hostname },
    });
  }
  return parsed;
}
