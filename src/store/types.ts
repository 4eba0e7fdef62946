/** Public types of the crawl store. */
import type { Clock } from '../common/index.js';
import type { ContentFingerprint } from '../text/index.js';
import type { DiscoveredLink } from '../types/index.js';

/** How {@link CrawlStore.open} treats the folder. */
export type OpenMode = 'create' | 'resume';

/** Options of {@link CrawlStore.open}. */
export interface CrawlStoreOptions {
  /** `create`: start a new crawl in an empty folder; `resume`: continue the crawl found there. */
  mode: OpenMode;
  /** Source of wall-clock time for meta times and default `fetchedAt`. @default systemClock */
  clock?: Clock;
  /** Write request and response records to `pages.warc.gz`; `false` turns it off. @default true */
  warc?: boolean;
  /** Write one JSON line per recorded page to `pages.jsonl`; `false` turns it off. @default true */
  jsonl?: boolean;
  /**
   * gzip level (1 to 9) of each WARC record: 1 is the fastest, 9 the smallest. Measured on 30 KB
   * HTML pages: level 1 compresses in about 55% of the time of level 6 for 9% more bytes.
   * @default 6
   */
  warcGzipLevel?: number;
  /**
   * Extra `name: value` fields of the `warcinfo` record that opens a new WARC file (e.g.
   * `software: tres/0.1.0`, `json-metadata: <run config>`). @default {}
   */
  warcInfo?: Record<string, string>;
  /**
   * `create` only: seed URLs stored in the same transaction that creates the crawl, so a crawl
   * killed at any instant resumes with its seeds. @default []
   */
  seeds?: readonly DiscoveredLink[];
  /** `create` only: meta entries (e.g. `config`, `seed`) written in that same transaction. @default {} */
  meta?: Record<string, unknown>;
  /**
   * Pages whose SimHash fingerprints differ in at most this many bits (0 to 3) are near copies
   * (see {@link CrawlStore.findDuplicate}); `false` finds exact copies only. @default 3
   */
  nearDuplicateBits?: number | false;
}

/** What a crawl is doing, kept in meta `status`. `running` after a restart means it was killed. */
export type CrawlStatus = 'running' | 'finished' | 'interrupted' | 'failed';

/**
 * One fetch attempt, successful or not. Failures (DNS error, robots disallowed, too large, 404)
 * are recorded too, with `status` 0 when no HTTP response came and an `errorCode`.
 */
export interface PageRecord {
  /** URL that was requested (normalised); unique in a crawl. */
  url: string;
  /** URL after redirects. @default url */
  finalUrl?: string;
  /** HTTP status of the final response; 0 if there was none. */
  status: number;
  /** Content-Type of the response, when there was one. */
  contentType?: string;
  host: string;
  /** Registrable domain (the "web site" the domain limit counts). */
  domain: string;
  /** Crawl depth (seeds are 0). */
  depth: number;
  /** Page the link was found on; undefined for seeds. */
  parentUrl?: string;
  /** Anchor text of the link that led here. */
  anchorText?: string;
  /** Reward of the MDP: 1 if judged relevant, else 0. */
  reward: number;
  /** Relevance probability in [0, 1]. */
  probability: number;
  title?: string;
  /** Error code (a `TresError.code`) when the fetch or parse failed. */
  errorCode?: string;
  /**
   * True if a page was fetched and parsed (the `Outcome.isPage` of the strategy contract).
   * @default status in 200..299 and no errorCode
   */
  isPage?: boolean;
  /** When the response was received, in milliseconds since the epoch. @default clock.now() */
  fetchedAt?: number;
  /** Time the fetch took, in milliseconds. */
  durationMs?: number;
  /** Size of the (decoded) body in bytes. */
  bytes?: number;
  /** New outlinks of the page as given to the strategy (their `context` is not stored). */
  outlinks?: readonly DiscoveredLink[];
  /** Fingerprints of the page's words (pages only), kept to find later copies of it. */
  fingerprint?: ContentFingerprint;
  /**
   * Id of the recorded page this one copies (same words, or a near copy by SimHash): such a page
   * gets reward 0 and counts as an attempt but never as a relevant page.
   */
  duplicateOf?: number;
  /**
   * Version of the relevance judge that gave `probability` (0: the crawl's first judge; relevance
   * feedback swaps in 1, 2, ...). Absent in crawls recorded before versions were kept.
   */
  judgeVersion?: number;
  /**
   * Where a cluster worker wrote this attempt's WARC records (its own file, by worker): the file
   * (absolute, or relative to the crawl folder) and the byte range `[start, end)`. Absent: the
   * records are in the crawl's own `pages.warc.gz`, if anywhere.
   */
  warcAt?: { file: string; start: number; end: number };
  /**
   * What the page asked of crawlers and which caps it hit, in this order when present: `noindex`
   * (meta robots or X-Robots-Tag; left out of exports), `nofollow` (its links were not followed),
   * `text-capped` (text cut at the crawl's `maxTextChars`), `links-capped` (links past
   * `maxLinksPerPage` not read). Absent when none applies.
   */
  directives?: string[];
  /** Absolute `<link rel="canonical">` URL of the page, recorded only (never enqueued). */
  canonicalUrl?: string;
}

/** A recorded page read back from the store, in fetch order. */
export interface StoredPage
  extends Omit<PageRecord, 'outlinks' | 'finalUrl' | 'isPage' | 'fetchedAt' | 'fingerprint'> {
  /** Fetch order, from 1. */
  id: number;
  finalUrl: string;
  isPage: boolean;
  fetchedAt: number;
  outlinks: DiscoveredLink[];
}

/** What {@link CrawlStore.open} found and repaired when resuming. */
export interface ResumeInfo {
  /** Pages recorded before this run. */
  pages: number;
  /** Status the previous run left; `running` means it was killed. */
  previousStatus: CrawlStatus | undefined;
  /** Bytes cut from the end of `pages.warc.gz`: records written for rows that never committed. */
  warcBytesDiscarded: number;
  /** Bytes cut from the end of `pages.jsonl`, for the same reason. */
  jsonlBytesDiscarded: number;
  /**
   * Committed rows deleted because a file was shorter than they said (the machine lost power
   * before the OS wrote the file); those pages will be fetched again. 0 after a process kill.
   */
  rowsDropped: number;
}

/** Options of {@link CrawlStore.exportCsv}. */
export interface ExportCsvOptions {
  /** Export only pages judged relevant (reward > 0). @default false */
  onlyRelevant?: boolean;
}

/** A record with its defaults filled in and its id, as the store writes it (internal). */
export interface ResolvedRecord extends PageRecord {
  id: number;
  finalUrl: string;
  isPage: boolean;
  fetchedAt: number;
}
