/**
 * The `pages.jsonl` format: one JSON object per recorded fetch, successful or not, in fetch order.
 *
 * Failures are included (with `status` 0 when no HTTP response came, and `errorCode`) so that the
 * file accounts for every fetch the crawl spent; keep pages only with `isPage: true`, relevant
 * pages with `reward: 1`. Absent optional fields are left out of the line.
 */
import type { ResolvedRecord } from './types.js';

/** One line of `pages.jsonl`, as written (the JSON keys, in this order). */
export interface JsonlPage {
  /** Fetch order, from 1 (the `pages.id` of the crawl store). */
  id: number;
  url: string;
  finalUrl: string;
  status: number;
  isPage: boolean;
  host: string;
  domain: string;
  depth: number;
  parentUrl?: string;
  reward: number;
  probability: number;
  title?: string;
  errorCode?: string;
  /** Id of the recorded page this one copies (its reward is 0). */
  duplicateOf?: number;
  contentType?: string;
  bytes?: number;
  durationMs?: number;
  /** Directives and caps that applied (see PageRecord.directives). */
  directives?: string[];
  /** The page's `<link rel="canonical">`, recorded only. */
  canonicalUrl?: string;
  /** ISO 8601 UTC time the response was received. */
  fetchedAt: string;
}

/** The line (with its newline) for a page about to be recorded. */
export function jsonlLine(record: ResolvedRecord): string {
  const line: JsonlPage = {
    id: record.id,
    url: record.url,
    finalUrl: record.finalUrl,
    status: record.status,
    isPage: record.isPage,
    host: record.host,
    domain: record.domain,
    depth: record.depth,
    parentUrl: record.parentUrl,
    reward: record.reward,
    probability: record.probability,
    title: record.title,
    errorCode: record.errorCode,
    duplicateOf: record.duplicateOf,
    contentType: record.contentType,
    bytes: record.bytes,
    durationMs: record.durationMs,
    directives: record.directives,
    canonicalUrl: record.canonicalUrl,
    fetchedAt: new Date(record.fetchedAt).toISOString(),
  };
  // JSON.stringify escapes CR and LF inside strings, so a line never breaks.
  return `${JSON.stringify(line)}\n`;
}
