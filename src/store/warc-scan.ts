/**
 * Listing the records of a WARC file the store wrote (each record its own gzip member), with the
 * byte range of each: what `tres repair` needs to give rebuilt rows their WARC offsets. warcio's
 * parser finds the member boundaries; the last record is checked by decompressing it alone,
 * since the parser also yields a record cut short by a kill or a full disk.
 */
import { createReadStream, statSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { WARCParser } from 'warcio';
import { readRange } from './page-text.js';

/** One record of a WARC file. */
export interface WarcEntry {
  /** WARC-Type: warcinfo, request, response, ... */
  type: string;
  /** WARC-Target-URI ('' for warcinfo). */
  targetUri: string;
  /** Byte range `[start, end)` of its gzip member in the file. */
  start: number;
  end: number;
  /**
   * True when it carries WARC-Tres-Relevance: the response of a recorded page (a response the
   * store archived without a row, a sitemap, carries none).
   */
  isPage: boolean;
}

/** What {@link scanWarc} found. */
export interface WarcScan {
  /** The complete records, in file order. */
  records: WarcEntry[];
  /** End of the last complete record: bytes after it are a torn tail. */
  validEnd: number;
  /** Size of the file. */
  size: number;
  /**
   * Set when the file could not be read to its end (not a torn last record): the byte where
   * reading stopped and why.
   */
  damagedAt?: { offset: number; reason: string };
}

/** True if bytes `[start, end)` of `path` are one whole gzip'd WARC record. */
function isWholeRecord(path: string, start: number, end: number): boolean {
  try {
    const data = gunzipSync(readRange(path, start, end));
    const headEnd = data.indexOf('\r\n\r\n');
    const length = /\r\ncontent-length:\s*(\d+)/i.exec(data.toString('latin1', 0, Math.max(0, headEnd)));
    return headEnd > 0 && length !== null && data.length === headEnd + 4 + Number(length[1]) + 4;
  } catch {
    return false;
  }
}

/**
 * The records of the WARC file at `path`, in order. A last record cut short is left out
 * (`validEnd` is where it starts); a file that cannot be parsed before its end comes back with
 * `damagedAt`.
 */
export async function scanWarc(path: string): Promise<WarcScan> {
  const size = statSync(path).size;
  const records: WarcEntry[] = [];
  const parser = new WARCParser(createReadStream(path));
  let damagedAt: WarcScan['damagedAt'];
  try {
    for await (const record of parser) {
      const start = parser.offset;
      const end = start + parser.recordLength;
      // warcio reads past a cut member to the end of the file; a record must also start where
      // the one before it ended.
      const previousEnd = records.length > 0 ? records[records.length - 1]!.end : 0;
      if (start !== previousEnd || end > size) break;
      records.push({
        type: record.warcType ?? '',
        targetUri: record.warcTargetURI ?? '',
        start,
        end,
        isPage: record.warcHeader('WARC-Tres-Relevance') != null,
      });
    }
  } catch (error) {
    const offset = records.length > 0 ? records[records.length - 1]!.end : 0;
    damagedAt = { offset, reason: error instanceof Error ? error.message : String(error) };
  }
  // The last record is whole only if it decompresses alone to its declared length.
  const last = records[records.length - 1];
  if (last && !isWholeRecord(path, last.start, last.end)) records.pop();
  const validEnd = records.length > 0 ? records[records.length - 1]!.end : 0;
  if (damagedAt === undefined && validEnd < size && !isTornTail(path, validEnd, size)) {
    damagedAt = { offset: validEnd, reason: 'the bytes there are not a gzip member' };
  }
  return { records, validEnd, size, ...(damagedAt ? { damagedAt } : {}) };
}

/**
 * True if bytes `[start, end)` are the start of one gzip member cut short (a kill or a full disk
 * while it was appended): gzip's magic bytes, and no complete member in them.
 */
function isTornTail(path: string, start: number, end: number): boolean {
  const head = readRange(path, start, Math.min(end, start + 2));
  if (end - start < 2) return true;
  if (head[0] !== 0x1f || head[1] !== 0x8b) return false;
  try {
    gunzipSync(readRange(path, start, end));
    return false; // a whole member (or more) the parser could not read: not a tail
  } catch (error) {
    // Cut short, the data ends early (Z_BUF_ERROR); damaged, it does not decode (Z_DATA_ERROR).
    return (error as { code?: unknown }).code === 'Z_BUF_ERROR';
  }
}

/** The warcinfo field that holds the crawl's config as JSON (written when a crawl is created). */
export const WARCINFO_CONFIG_FIELD = 'tres-config';

/**
 * The fields (`name: value` lines) of the warcinfo record at bytes `[start, end)` of `path`;
 * an empty map when they cannot be read.
 */
export function readWarcinfoFields(path: string, start: number, end: number): Map<string, string> {
  const fields = new Map<string, string>();
  let text: string;
  try {
    text = gunzipSync(readRange(path, start, end)).toString('utf8');
  } catch {
    return fields;
  }
  const block = text.slice(text.indexOf('\r\n\r\n') + 4);
  for (const line of block.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) fields.set(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
  }
  return fields;
}
