/**
 * The error catalogue: every `TRES_*` code tres gives, what it means and what the crawl does with
 * it (undici keeps one such table, `docs/api/Errors.md`). `TresError.code` is typed as
 * {@link ErrorCode}, so a code not listed here does not compile; docs/errors.md is generated from
 * this list (`npx vite-node scripts/errors-doc.ts`) and a test checks that it is up to date.
 *
 * Adding a code is one line in ERROR_CODES: `TRES_NAME: ['then', 'what it means'],`.
 */

/**
 * What happens after an error with a code, by the error class that carries it:
 * - `retry` RetryLaterError: tried again later, with backoff, up to `maxRetries` attempts; then
 *   recorded as a failed fetch with the code.
 * - `defer` DeferUrlError: the URL was not requested; it waits `retryAfterMs` and is tried again
 *   without counting an attempt or spending page budget.
 * - `skip` SkipUrlError: the URL is recorded as failed with the code, and the crawl goes on.
 * - `record` not thrown: a fetched response that is not a page carries the code in its record.
 * - `stop` StopCrawlError: the crawl ends after the fetches in flight land; `--resume` continues.
 * - `config` ConfigError: the command exits before it starts; the message names the flag, file or
 *   field and what to do.
 * - `fail` TresError: the command that asked (export, docweb build, word vectors) fails with the
 *   message; not raised by a crawl's fetches.
 * - `bug` TresError: an internal invariant is broken, a bug in tres; please report it.
 */
export type ErrorThen = 'retry' | 'defer' | 'skip' | 'record' | 'stop' | 'config' | 'fail' | 'bug';

/** The catalogue, one line a code: `[then, meaning]`. Keep it sorted by topic, then name. */
export const ERROR_CODES = {
  // Bad input from the user.
  TRES_CONFIG: ['config', 'A flag, option, file or field is bad; the message says which and what to do.'],
  // URLs and the fetch.
  TRES_INVALID_URL: ['skip', 'The URL is not a valid absolute URL.'],
  TRES_UNSUPPORTED_SCHEME: ['skip', 'The URL is not http or https.'],
  TRES_URL_FILTERED: ['skip', 'The URL filter (include/exclude patterns) rejected the URL.'],
  TRES_ADDRESS_BLOCKED: ['skip', 'The host resolves to a loopback, private or reserved address not allowed.'],
  TRES_DNS: ['skip', 'The host name does not resolve (no such name or no address).'],
  TRES_DNS_TEMPORARY: ['retry', 'The resolver failed for now (EAI_AGAIN).'],
  TRES_CONNECT_TIMEOUT: ['retry', 'No connection within connectTimeoutMs.'],
  TRES_HEADERS_TIMEOUT: ['retry', 'No response headers within headersTimeoutMs.'],
  TRES_BODY_TIMEOUT: ['retry', 'The body stalled longer than bodyTimeoutMs.'],
  TRES_TOTAL_TIMEOUT: ['retry', 'No complete response within totalTimeoutMs.'],
  TRES_CONNECTION_REFUSED: ['retry', 'The server refused the connection.'],
  TRES_CONNECTION_RESET: ['retry', 'The server reset the connection.'],
  TRES_CONNECTION_CLOSED: ['retry', 'The connection closed before the response was complete.'],
  TRES_HOST_UNREACHABLE: ['retry', 'The host or its network is unreachable.'],
  TRES_NETWORK: ['retry', 'Another network failure (the message gives the system code).'],
  TRES_TLS: ['skip', 'The TLS handshake failed (certificate or protocol).'],
  TRES_HTTP_PROTOCOL: ['skip', 'The response broke HTTP (bad headers, headers too large, bad framing).'],
  TRES_HTTP_429: ['retry', 'HTTP 429 Too Many Requests; Retry-After is honoured.'],
  TRES_HTTP_5XX: ['retry', 'HTTP 5xx from the server; Retry-After is honoured.'],
  TRES_REDIRECT_LOOP: ['skip', 'A redirect leads back to a URL already visited in the chain.'],
  TRES_TOO_MANY_REDIRECTS: ['skip', 'More redirects than maxRedirects.'],
  TRES_CONTENT_TYPE: ['skip', 'The Content-Type is not one the fetcher accepts.'],
  TRES_BODY_TOO_LARGE: ['skip', 'The body is larger than maxBodyBytes.'],
  TRES_DECOMPRESSION_BOMB: ['skip', 'The decompressed body is larger than maxDecompressedBytes.'],
  TRES_CONTENT_ENCODING: ['skip', 'The Content-Encoding is not one tres decodes.'],
  TRES_CONTENT_DECODING: ['skip', 'The compressed body is corrupt.'],
  TRES_PARSE_TIMEOUT: ['skip', 'Parsing the page took longer than its time budget.'],
  TRES_NOT_HTML: ['record', 'The response (2xx) is not an HTML page; it is stored but not parsed.'],
  TRES_BINARY_BODY: [
    'record',
    'The response says HTML or text but its bytes are binary (an image, an archive); stored, not parsed.',
  ],
  // PDFs and rendering (docs/more-of-the-web.md).
  TRES_PDF_INVALID: ['record', 'pdf.js cannot read the PDF (damaged, encrypted); it is stored unread.'],
  TRES_PDF_TIMEOUT: ['record', 'Reading the PDF took longer than pdf.timeoutMs; it is stored unread.'],
  TRES_PDF_TOO_BIG: [
    'record',
    'Reading the PDF passed pdf.maxHeapMb or pdf.maxBufferMb; it is stored unread.',
  ],
  TRES_RENDER_TIMEOUT: ['skip', 'Rendering took longer than render.timeoutMs; the page is read as fetched.'],
  TRES_RENDER_FAILED: ['skip', 'Rendering failed (the browser crashed); the page is read as fetched.'],
  // robots.txt and politeness.
  TRES_ROBOTS_DISALLOWED: ['skip', 'robots.txt disallows the URL for our user agent.'],
  TRES_ROBOTS_UNAVAILABLE: [
    'defer',
    'robots.txt is unreachable (RFC 9309 2.3.1.4); skip if it stays so. A host that never answered is retried as a failed fetch instead.',
  ],
  TRES_HOST_NOT_READY: ['bug', 'A request was sent to a host before its politeness delay passed.'],
  // The crawl store.
  TRES_STORE_WRITE: ['stop', 'The crawl store cannot be written (disk full, permissions).'],
  TRES_STORAGE_FULL: [
    'stop',
    'The disk (or a quota or file size limit) is full; exit 73; free space and --resume.',
  ],
  TRES_STORAGE_READ_ONLY: ['stop', 'The crawl folder is on read-only or unwritable storage; exit 77.'],
  TRES_STORE_DAMAGED: [
    'stop',
    'crawl.sqlite is damaged; exit 65; `tres repair DIR` rebuilds it from pages.jsonl and the WARC.',
  ],
  TRES_STORAGE_IO: ['stop', 'The storage device failed to read or write; exit 74.'],
  TRES_STORE_CLOSED: ['stop', 'The crawl store was used after it was closed.'],
  TRES_STORE_DUPLICATE: ['skip', 'The URL is already in the crawl store.'],
  TRES_STORE_CORRUPT: ['fail', 'Stored page text, outlinks or a strategy checkpoint cannot be decoded.'],
  TRES_NOT_A_STORE: ['fail', 'The folder is not a crawl store (no crawl.sqlite with a meta table).'],
  TRES_REPAIR_NO_SOURCE: ['fail', '`tres repair` has no pages.jsonl to rebuild crawl.sqlite from; exit 66.'],
  TRES_REPAIR_SOURCE_DAMAGED: [
    'fail',
    '`tres repair` found pages.jsonl or pages.warc.gz damaged before its end and changed nothing; exit 65.',
  ],
  // Models and data files.
  TRES_VECTORS_FORMAT: ['fail', 'The word-vector file does not have the expected layout.'],
  // The Tree-Frontier.
  TRES_TREE_BAD_VECTOR: ['bug', 'A feature vector has the wrong length or a NaN, or a reward is not finite.'],
  TRES_TREE_NO_RNG: ['bug', 'The Tree-Frontier was asked to draw without an rng.'],
  TRES_TREE_INVARIANT: ['bug', 'A Tree-Frontier invariant is broken.'],
  // The DocWeb builder (`npm run lab -- docweb build`).
  TRES_DOCWEB_APT: ['fail', 'apt-get, apt-cache or apt-helper failed; the message has its last lines.'],
  TRES_DOCWEB_COMMAND: ['fail', 'A command the DocWeb builder needs is missing or failed to start.'],
  TRES_DOCWEB_CONTENTS: ['fail', 'No Debian Contents index: run apt-get update with Contents enabled.'],
  TRES_DOCWEB_DPKG: ['fail', 'dpkg-deb could not unpack a package.'],
  // Cluster crawls (src/cluster).
  TRES_CLUSTER_AUTH: [
    'stop',
    'Redis refused the password or user of the cluster URL (WRONGPASS, NOAUTH); exit 67.',
  ],
  TRES_CLUSTER_BAD_OUTCOME: ['skip', 'A worker sent an outcome with neither a page nor a failure.'],
  TRES_CLUSTER_BUSY: [
    'stop',
    'Another live coordinator holds the crawl name in Redis (its lock is renewed), or took it over; exit 75.',
  ],
  TRES_CLUSTER_FOREIGN_HOST: [
    'skip',
    'A sitemap listed on a host whose shard another worker holds (its politeness owner); not read (redirects are handed to that worker).',
  ],
  TRES_CLUSTER_OTHER_CRAWL: [
    'stop',
    "A new crawl took the cluster name of the crawl this worker was fetching for; the worker stops (its WARC file holds the first crawl's pages); exit 68.",
  ],
  TRES_CLUSTER_PROTOCOL: [
    'stop',
    'The crawl in Redis was written by another tres version (cluster protocol) than this worker; exit 76.',
  ],
  TRES_CLUSTER_REDIS_FULL: [
    'stop',
    'Redis refused a write for lack of memory (maxmemory with noeviction: OOM); exit 71.',
  ],
  TRES_CLUSTER_REDIS_GONE: [
    'fail',
    'A stopping worker could not reach Redis in time; it quit, leaving its unreported requests to other workers.',
  ],
  TRES_CLUSTER_UNREACHABLE: [
    'stop',
    'Redis did not answer at start, or for longer than three lease lives during the crawl; exit 69.',
  ],
  TRES_CLUSTER_WRONG_SHARD: [
    'skip',
    "A request reached a shard that is not its host's; the worker refused it.",
  ],
  // Anything else.
  TRES_UNKNOWN: ['skip', 'A thrown value without a code (recorded by errorCode()).'],
} as const satisfies Record<`TRES_${string}`, readonly [ErrorThen, string]>;

/** Every code tres throws. */
export type ErrorCode = keyof typeof ERROR_CODES;

/**
 * Codes a page record may carry besides the catalogue's: `TRES_HTTP_404` and the like, for a
 * fetched response with a 3xx/4xx status that is stored but not used as a page (`record`).
 */
export type RecordErrorCode = ErrorCode | `TRES_HTTP_${number}`;

/** True if `code` is in the catalogue. */
export function isErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(ERROR_CODES, code);
}

/** What the crawl does after `code`, from the catalogue (undefined for a code not in it). */
export function errorThen(code: string): ErrorThen | undefined {
  return isErrorCode(code) ? ERROR_CODES[code][0] : undefined;
}
