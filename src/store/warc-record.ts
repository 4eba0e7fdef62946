/**
 * WARC/1.1 records built synchronously, each compressed as its own gzip member, so that a file of
 * concatenated members can be appended to from the crawl hot path and cut at any record boundary.
 *
 * warcio's `WARCSerializer` is async (it hashes with hash-wasm and compresses through streams);
 * `recordPage` must be synchronous so that the row commits right after the bytes are written, so
 * the format (ISO 28500:2017, WARC 1.1) is written here directly, with Node's zlib and crypto, and
 * read back with warcio's `WARCParser` in the tests. {@link PreparedWarc} does the same work
 * asynchronously, ahead of `recordPage`.
 */
import { createHash, randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip, gzipSync } from 'node:zlib';

const gzipAsync = promisify(gzip);

/** Request and response of one HTTP exchange, as the fetcher saw them. */
export interface WarcPayload {
  /**
   * URL of the request this response answers (the WARC-Target-URI of both records): the final
   * URL when the fetcher followed redirects itself.
   */
  url: string;
  /** HTTP method. @default 'GET' */
  method?: string;
  /**
   * Request headers as sent, either as a record or as the raw header block (lines without the
   * request line). A Host header is added if missing.
   */
  requestHeaders?: Record<string, string> | string;
  /** Response status line, e.g. `HTTP/1.1 200 OK`. */
  statusLine: string;
  /** Response headers as received: a record (values of repeated headers as an array) or raw lines. */
  responseHeaders: Record<string, string | string[]> | string;
  /**
   * Response body after content decoding (gzip/br/deflate undone by the fetcher). The stored
   * response headers are adjusted to match it: see {@link buildExchangeRecords}.
   */
  body: Uint8Array;
  /** Why the body is incomplete, if it is (the WARC-Truncated header). */
  truncated?: 'length' | 'time' | 'disconnect' | 'unspecified';
  /** IP address of the server, when known (WARC-IP-Address). */
  remoteIp?: string;
  /** When the response was received (WARC-Date): a Date or milliseconds since the epoch. */
  fetchDate: Date | number;
  /**
   * The document after the page's scripts ran (`--render`), serialised: written after the
   * response as a `conversion` record (WARC 1.1, section 6.8: "an alternative version of another
   * record's content") whose WARC-Refers-To names the response record. Undefined: none.
   */
  renderedHtml?: string;
}

const CRLF = '\r\n';
const BASE32_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
/** zlib's own default: levels 1 to 9 trade speed for size (level 1: about 45% faster, 9% larger). */
export const DEFAULT_WARC_GZIP_LEVEL = 6;

/** RFC 4648 base32 without padding (a 20-byte SHA-1 is exactly 32 characters). */
export function base32(bytes: Uint8Array): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32_ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32_ALPHABET[(value << (5 - bits)) & 31];
  return out;
}

/** `sha1:<base32>` digest of the given chunks, as Heritrix and Python warcio write it. */
export function sha1Digest(...chunks: Uint8Array[]): string {
  const hash = createHash('sha1');
  for (const chunk of chunks) hash.update(chunk);
  return `sha1:${base32(hash.digest())}`;
}

/** A fresh WARC-Record-ID. */
export function newRecordId(): string {
  return `<urn:uuid:${randomUUID()}>`;
}

/** WARC-Date: UTC with milliseconds, which WARC 1.1 allows (section 5.4). */
export function warcDate(date: Date | number): string {
  return new Date(date).toISOString();
}

/**
 * One WARC record, uncompressed. Header values must not contain CR or LF; they are replaced by
 * spaces, since a URL or a title from the web could otherwise inject headers.
 */
function rawRecord(headers: Array<[string, string]>, block: Uint8Array): Buffer {
  let head = `WARC/1.1${CRLF}`;
  for (const [name, value] of headers) head += `${name}: ${value.replace(/[\r\n]+/g, ' ')}${CRLF}`;
  head += `Content-Length: ${block.byteLength}${CRLF}${CRLF}`;
  return Buffer.concat([Buffer.from(head, 'utf8'), block, Buffer.from(CRLF + CRLF, 'latin1')]);
}

/** One gzip member holding one WARC record (see {@link rawRecord} for the header rules). */
export function buildRecord(
  headers: Array<[string, string]>,
  block: Uint8Array,
  gzipLevel = DEFAULT_WARC_GZIP_LEVEL,
): Buffer {
  return gzipSync(rawRecord(headers, block), { level: gzipLevel });
}

/** The `warcinfo` record that opens a WARC file: `fields` become `name: value` lines. */
export function buildWarcinfoRecord(
  fileName: string,
  date: Date | number,
  fields: Record<string, string>,
): Buffer {
  let text = '';
  for (const [name, value] of Object.entries(fields))
    text += `${name}: ${value.replace(/[\r\n]+/g, ' ')}${CRLF}`;
  return buildRecord(
    [
      ['WARC-Type', 'warcinfo'],
      ['WARC-Record-ID', newRecordId()],
      ['WARC-Date', warcDate(date)],
      ['WARC-Filename', fileName],
      ['Content-Type', 'application/warc-fields'],
    ],
    Buffer.from(text, 'utf8'),
  );
}

/** Header lines of a record or raw block, without empty lines. */
function headerLines(
  headers: Record<string, string | string[]> | string | undefined,
): Array<[string, string]> {
  if (headers === undefined) return [];
  if (typeof headers === 'string') {
    const lines: Array<[string, string]> = [];
    for (const line of headers.split(/\r?\n/)) {
      const colon = line.indexOf(':');
      if (colon > 0) lines.push([line.slice(0, colon).trim(), line.slice(colon + 1).trim()]);
    }
    return lines;
  }
  const lines: Array<[string, string]> = [];
  for (const [name, value] of Object.entries(headers)) {
    for (const v of Array.isArray(value) ? value : [value]) lines.push([name, v]);
  }
  return lines;
}

function headerBlock(firstLine: string, lines: Array<[string, string]>): string {
  let text = firstLine + CRLF;
  for (const [name, value] of lines) text += `${name}: ${value.replace(/[\r\n]+/g, ' ')}${CRLF}`;
  return text + CRLF;
}

/** Headers that describe the bytes on the wire, not the decoded body that is stored. */
const WIRE_HEADERS = new Set(['content-encoding', 'transfer-encoding', 'content-length']);

/**
 * The request and response records of one exchange, concatenated (two gzip members; a third, the
 * `conversion` record, when the payload has `renderedHtml`).
 *
 * The stored body is the decoded one, so the stored response headers are adjusted to describe it:
 * Content-Encoding, Transfer-Encoding and Content-Length are renamed with the `X-Archive-Orig-`
 * prefix (the convention of pywb/warcprox for rewritten headers) and a Content-Length of the
 * stored body is added; a replay tool then serves the body as it is. When the body was cut short,
 * WARC-Truncated says why. `relevance` is written as `WARC-Tres-Relevance` (as ACHE puts the
 * relevance of a page in its WARC headers); undefined (a sitemap, not a page) writes none.
 */
export function buildExchangeRecords(
  payload: WarcPayload,
  relevance: number | undefined,
  gzipLevel = DEFAULT_WARC_GZIP_LEVEL,
): Buffer {
  return Buffer.concat(exchangeRecords(payload, relevance).map((r) => gzipSync(r, { level: gzipLevel })));
}

/**
 * WARC records of one exchange compressed ahead of `CrawlStore.recordPage`, off the main
 * thread (zlib runs in libuv's thread pool), so that the hot path only appends bytes.
 */
export class PreparedWarc {
  private constructor(
    /** Requested URL of the exchange. */
    readonly url: string,
    /** The gzip members of the request and response records. */
    readonly bytes: Buffer,
  ) {}

  /** Builds and compresses the records of `payload` as {@link buildExchangeRecords} does. */
  static async prepare(
    payload: WarcPayload,
    relevance: number | undefined,
    gzipLevel = DEFAULT_WARC_GZIP_LEVEL,
  ): Promise<PreparedWarc> {
    const members = exchangeRecords(payload, relevance).map((r) => gzipAsync(r, { level: gzipLevel }));
    return new PreparedWarc(payload.url, Buffer.concat(await Promise.all(members)));
  }
}

/** The request and response records of one exchange (and its rendered document), uncompressed. */
function exchangeRecords(payload: WarcPayload, relevance: number | undefined): Buffer[] {
  const date = warcDate(payload.fetchDate);
  const requestId = newRecordId();
  const responseId = newRecordId();
  const target = new URL(payload.url);

  const requestLines = headerLines(payload.requestHeaders);
  if (!requestLines.some(([name]) => name.toLowerCase() === 'host'))
    requestLines.unshift(['Host', target.host]);
  const requestLine = `${payload.method ?? 'GET'} ${target.pathname}${target.search} HTTP/1.1`;
  const requestBlock = Buffer.from(headerBlock(requestLine, requestLines), 'latin1');

  const responseLines: Array<[string, string]> = [];
  for (const [name, value] of headerLines(payload.responseHeaders)) {
    responseLines.push([WIRE_HEADERS.has(name.toLowerCase()) ? `X-Archive-Orig-${name}` : name, value]);
  }
  responseLines.push(['Content-Length', String(payload.body.byteLength)]);
  const responseHead = Buffer.from(headerBlock(payload.statusLine.trim(), responseLines), 'latin1');
  const responseBlock = Buffer.concat([responseHead, payload.body]);

  const common: Array<[string, string]> = [
    ['WARC-Date', date],
    ['WARC-Target-URI', payload.url],
  ];
  if (payload.remoteIp) common.push(['WARC-IP-Address', payload.remoteIp]);

  const request = rawRecord(
    [
      ['WARC-Type', 'request'],
      ['WARC-Record-ID', requestId],
      ...common,
      ['WARC-Concurrent-To', responseId],
      ['Content-Type', 'application/http; msgtype=request'],
      ['WARC-Block-Digest', sha1Digest(requestBlock)],
    ],
    requestBlock,
  );
  const responseHeaders: Array<[string, string]> = [
    ['WARC-Type', 'response'],
    ['WARC-Record-ID', responseId],
    ...common,
    ['WARC-Concurrent-To', requestId],
    ['Content-Type', 'application/http; msgtype=response'],
    ['WARC-Payload-Digest', sha1Digest(payload.body)],
    ['WARC-Block-Digest', sha1Digest(responseHead, payload.body)],
  ];
  if (relevance !== undefined) responseHeaders.push(['WARC-Tres-Relevance', String(relevance)]);
  if (payload.truncated) responseHeaders.push(['WARC-Truncated', payload.truncated]);
  const records = [request, rawRecord(responseHeaders, responseBlock)];
  if (payload.renderedHtml !== undefined) {
    const html = Buffer.from(payload.renderedHtml, 'utf8');
    records.push(
      rawRecord(
        [
          ['WARC-Type', 'conversion'],
          ['WARC-Record-ID', newRecordId()],
          ['WARC-Date', date],
          ['WARC-Target-URI', payload.url],
          ['WARC-Refers-To', responseId],
          ['Content-Type', 'text/html; charset=utf-8'],
          ['WARC-Block-Digest', sha1Digest(html)],
        ],
        html,
      ),
    );
  }
  return records;
}
