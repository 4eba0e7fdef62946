/**
 * The visible text of a stored page, read back from its WARC records: `pages.jsonl` and
 * `crawl.sqlite` keep no text, but the WARC file keeps every response body, and each row knows the
 * byte range of its records (see {@link CrawlReader.pages}). The body is decoded with the same
 * charset rules the crawler used and parsed with the same HTML parser, so the text is the one the
 * relevance judge saw.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { TresError } from '../common/index.js';
import { parseHtml } from '../html/index.js';
import { decodeText, detectCharset, parseContentType } from '../net/index.js';
import type { PdfExtractor } from '../pdf/index.js';

/** The HTTP response of a WARC `response` record. */
export interface WarcResponse {
  targetUri: string;
  /** Response header lines, names lowercased (last value of repeated headers). */
  headers: Map<string, string>;
  body: Buffer;
  /**
   * The document after the page's scripts ran, when the crawl rendered it (`--render`): the
   * `conversion` record that refers to this response.
   */
  rendered?: string;
}

const HEADER_END = Buffer.from('\r\n\r\n', 'latin1');

/** Reads bytes `[start, end)` of a file. */
export function readRange(path: string, start: number, end: number): Buffer {
  const bytes = Buffer.alloc(end - start);
  const fd = openSync(path, 'r');
  try {
    let done = 0;
    while (done < bytes.length) {
      const n = readSync(fd, bytes, done, bytes.length - done, start + done);
      if (n === 0) break;
      done += n;
    }
    return bytes.subarray(0, done);
  } finally {
    closeSync(fd);
  }
}

function parseHeaderBlock(text: string): Map<string, string> {
  const headers = new Map<string, string>();
  for (const line of text.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return headers;
}

/**
 * The last `response` record among the WARC records in bytes `[start, end)` of `warcPath` (each
 * record its own gzip member, as the store writes them): the final response after redirects.
 * @returns undefined when the range holds no response record.
 * @throws TresError `TRES_STORE_CORRUPT` if the bytes are not gzip'd WARC records.
 */
export function readWarcResponse(warcPath: string, start: number, end: number): WarcResponse | undefined {
  if (end <= start) return undefined;
  let data: Buffer;
  try {
    data = gunzipSync(readRange(warcPath, start, end)); // concatenated members: one buffer
  } catch (cause) {
    throw new TresError(
      'TRES_STORE_CORRUPT',
      `${warcPath}: bytes ${start}-${end} are not gzip'd WARC records`,
      {
        cause,
        context: { file: warcPath },
      },
    );
  }
  let found: WarcResponse | undefined;
  let foundId: string | undefined;
  let at = 0;
  while (at < data.length) {
    const headEnd = data.indexOf(HEADER_END, at);
    if (headEnd < 0) break;
    const warcHeaders = parseHeaderBlock(data.toString('utf8', at, headEnd));
    const length = Number(warcHeaders.get('content-length') ?? Number.NaN);
    if (!Number.isSafeInteger(length)) {
      throw new TresError(
        'TRES_STORE_CORRUPT',
        `${warcPath}: a WARC record near byte ${start} has no Content-Length`,
        {
          context: { file: warcPath },
        },
      );
    }
    const block = data.subarray(headEnd + HEADER_END.length, headEnd + HEADER_END.length + length);
    if (warcHeaders.get('warc-type') === 'response') {
      const httpEnd = block.indexOf(HEADER_END);
      const head = block.toString('latin1', 0, httpEnd < 0 ? block.length : httpEnd);
      found = {
        targetUri: warcHeaders.get('warc-target-uri') ?? '',
        headers: parseHeaderBlock(head.slice(head.indexOf('\r\n') + 2)),
        body: httpEnd < 0 ? Buffer.alloc(0) : block.subarray(httpEnd + HEADER_END.length),
      };
      foundId = warcHeaders.get('warc-record-id');
    } else if (
      found &&
      warcHeaders.get('warc-type') === 'conversion' &&
      foundId !== undefined &&
      warcHeaders.get('warc-refers-to') === foundId
    ) {
      found.rendered = block.toString('utf8');
    }
    at = headEnd + HEADER_END.length + length + 4; // the record ends with CRLF CRLF
  }
  return found;
}

/**
 * The HTML the crawl read for a stored HTML response: its rendered document when the crawl
 * rendered it, else the body decoded with the crawler's charset rules.
 */
export function responseHtml(response: WarcResponse): string {
  if (response.rendered !== undefined) return response.rendered;
  const type = parseContentType(response.headers.get('content-type'));
  const { charset } = detectCharset(response.body, type.charset, type.mime || 'text/html');
  return decodeText(response.body, charset);
}

/**
 * The visible text (whitespace collapsed, scripts and styles left out) of the final response in
 * bytes `[start, end)` of `warcPath` (of its rendered document, when the crawl rendered it); ''
 * when there is none or it is not textual.
 * @throws TresError `TRES_STORE_CORRUPT` as {@link readWarcResponse}.
 */
export function readPageText(warcPath: string, start: number, end: number): string {
  const response = readWarcResponse(warcPath, start, end);
  if (!response || response.body.length === 0) return '';
  return parseHtml(responseHtml(response), response.targetUri).text;
}

/**
 * {@link readPageText}, PDFs included: a stored `application/pdf` response gives the text
 * `pdf` extracts from it (the text the crawl judged), '' if it cannot be read.
 * @throws TresError `TRES_STORE_CORRUPT` as {@link readWarcResponse}.
 */
export async function readStoredText(
  warcPath: string,
  start: number,
  end: number,
  pdf: () => PdfExtractor,
): Promise<string> {
  const response = readWarcResponse(warcPath, start, end);
  if (!response || response.body.length === 0) return '';
  const type = parseContentType(response.headers.get('content-type'));
  if (type.mime === 'application/pdf') {
    return pdf()
      .extract(response.body, response.targetUri)
      .then(
        (extracted) => extracted.text,
        () => '',
      );
  }
  return parseHtml(responseHtml(response), response.targetUri).text;
}
