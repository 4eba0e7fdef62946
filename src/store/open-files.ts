/**
 * Opening a crawl folder: which files make a crawl, the checks of `create` and `resume`, and the
 * repair that makes the WARC and JSONL files end exactly where the committed rows say.
 */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { ConfigError, systemClock } from '../common/index.js';
import type { AppendFile } from './append-file.js';
import type { CrawlStoreOptions, OpenMode } from './types.js';
import { DEFAULT_WARC_GZIP_LEVEL } from './warc-record.js';

/** File names inside a crawl folder. */
export const STORE_FILES = {
  sqlite: 'crawl.sqlite',
  warc: 'pages.warc.gz',
  jsonl: 'pages.jsonl',
} as const;

/** Paths of the files of the crawl in `dir`. */
export function storePaths(dir: string): { sqlite: string; warc: string; jsonl: string } {
  return {
    sqlite: join(dir, STORE_FILES.sqlite),
    warc: join(dir, STORE_FILES.warc),
    jsonl: join(dir, STORE_FILES.jsonl),
  };
}

/**
 * Checks that `dir` holds a crawl (resume) or none (create).
 * @throws ConfigError naming the folder and what to pass instead.
 */
export function checkFolder(dir: string, mode: OpenMode): void {
  const paths = storePaths(dir);
  if (mode === 'create') {
    // An empty file is what a create on a full disk left before tres removed it: no crawl.
    const found = Object.values(paths).filter((p) => existsSync(p) && statSync(p).size > 0);
    if (found.length > 0) {
      throw new ConfigError(
        `${dir} already holds a crawl (${found.join(', ')}); pass --resume to continue it or choose another --out`,
        { context: { file: dir, field: 'mode' } },
      );
    }
  } else if (!existsSync(paths.sqlite)) {
    throw new ConfigError(
      `${dir} holds no crawl to resume (no ${STORE_FILES.sqlite}); leave out --resume to start a new crawl there`,
      { context: { file: dir, field: 'mode' } },
    );
  }
}

/** What {@link repairFiles} did. */
export interface RepairResult {
  warcBytesDiscarded: number;
  jsonlBytesDiscarded: number;
  rowsDropped: number;
}

/**
 * Makes the files and the rows agree, for a folder a killed process may have left behind.
 *
 * `recordPage` appends a row's WARC records and JSONL line before it commits the row with the new
 * file lengths, so after a process kill the files may hold a tail for a row that never committed:
 * it is cut off (that page was not counted and will be fetched again). After a power loss a file
 * may instead be shorter than committed rows say: those rows (a suffix, since lengths grow with
 * ids) are deleted so that their pages are fetched again, rather than kept without their data.
 * `warcHeaderEnd` is the committed length of the file's opening warcinfo record (0: none);
 * `warcArchivedEnd` the committed end of the last response archived without a row (a sitemap,
 * `CrawlStore.archiveResponse`; 0: none), kept when the file still holds it.
 */
export function repairFiles(
  db: Database.Database,
  warc: AppendFile | undefined,
  jsonl: AppendFile | undefined,
  warcHeaderEnd: number,
  warcArchivedEnd = 0,
): RepairResult & { warcHeaderEnd: number; warcArchivedEnd: number } {
  const warcSize = warc?.offset ?? Number.MAX_SAFE_INTEGER;
  const jsonlSize = jsonl?.offset ?? Number.MAX_SAFE_INTEGER;
  const firstBad = db
    .prepare<[number, number], { id: number | null }>(
      'SELECT MIN(id) AS id FROM pages WHERE warc_end > ? OR jsonl_end > ?',
    )
    .get(warcSize, jsonlSize)?.id;
  const rowsDropped =
    firstBad == null ? 0 : db.prepare('DELETE FROM pages WHERE id >= ?').run(firstBad).changes;
  const ends = db
    .prepare<[], { warc: number | null; jsonl: number | null }>(
      'SELECT MAX(warc_end) AS warc, MAX(jsonl_end) AS jsonl FROM pages',
    )
    .get();
  // A warcinfo record the file lost: the rows after it went with it, so the file restarts empty.
  const headerEnd = warc && warcHeaderEnd > warc.offset ? 0 : warcHeaderEnd;
  let warcBytesDiscarded = 0;
  let jsonlBytesDiscarded = 0;
  // Archived records the file lost (a power loss) are forgotten with it.
  const archivedEnd = warcArchivedEnd <= warcSize ? warcArchivedEnd : 0;
  if (warc) {
    const target = Math.max(headerEnd, ends?.warc ?? 0, archivedEnd);
    warcBytesDiscarded = warc.offset - target;
    warc.truncate(target);
  }
  if (jsonl) {
    const target = ends?.jsonl ?? 0;
    jsonlBytesDiscarded = jsonl.offset - target;
    jsonl.truncate(target);
  }
  return {
    warcBytesDiscarded,
    jsonlBytesDiscarded,
    rowsDropped,
    warcHeaderEnd: headerEnd,
    warcArchivedEnd: archivedEnd,
  };
}

/** Defaults of the optional fields of {@link CrawlStoreOptions} (the clock is `systemClock`). */
export const CRAWL_STORE_DEFAULTS = {
  warc: true,
  jsonl: true,
  warcGzipLevel: DEFAULT_WARC_GZIP_LEVEL,
  nearDuplicateBits: 3,
} as const;

/**
 * Checks the options of `CrawlStore.open` once and fills in the defaults.
 * @throws ConfigError naming the field.
 */
export function validateOptions(dir: string, options: CrawlStoreOptions): Required<CrawlStoreOptions> {
  if (typeof dir !== 'string' || dir === '') throw new ConfigError('The crawl folder (--out) must be a path');
  if (options.mode !== 'create' && options.mode !== 'resume') {
    throw new ConfigError(`store option mode must be 'create' or 'resume', got ${String(options.mode)}`, {
      context: { field: 'mode' },
    });
  }
  for (const field of ['warc', 'jsonl'] as const) {
    if (options[field] !== undefined && typeof options[field] !== 'boolean') {
      throw new ConfigError(`store option ${field} must be true or false`, { context: { field } });
    }
  }
  const bits = options.nearDuplicateBits;
  if (bits !== undefined && bits !== false && !(Number.isInteger(bits) && bits >= 0 && bits <= 3)) {
    throw new ConfigError(
      `store option nearDuplicateBits must be an integer from 0 to 3, or false; got ${bits}`,
      {
        context: { field: 'nearDuplicateBits' },
      },
    );
  }
  const level = options.warcGzipLevel ?? CRAWL_STORE_DEFAULTS.warcGzipLevel;
  if (!Number.isInteger(level) || level < 1 || level > 9) {
    throw new ConfigError(`store option warcGzipLevel must be an integer from 1 to 9, got ${level}`, {
      context: { field: 'warcGzipLevel' },
    });
  }
  return {
    mode: options.mode,
    warcGzipLevel: level,
    clock: options.clock ?? systemClock,
    warc: options.warc ?? CRAWL_STORE_DEFAULTS.warc,
    jsonl: options.jsonl ?? CRAWL_STORE_DEFAULTS.jsonl,
    warcInfo: options.warcInfo ?? {},
    seeds: options.seeds ?? [],
    meta: options.meta ?? {},
    nearDuplicateBits: options.nearDuplicateBits ?? CRAWL_STORE_DEFAULTS.nearDuplicateBits,
  };
}
