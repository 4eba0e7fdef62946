/**
 * The SQLite side of the crawl store: connection settings, tables, and the mapping between a
 * `pages` row and a {@link StoredPage}.
 */
import Database from 'better-sqlite3';
import { ConfigError } from '../common/index.js';
import { simhashToHex } from './duplicate-index.js';
import { decodeOutlinks, encodeOutlinks } from './outlinks-codec.js';
import type { ResolvedRecord, StoredPage } from './types.js';

/** Version of the tables below, kept in meta `storeVersion`; bump it with a migration. */
export const STORE_VERSION = 1;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL -- JSON
) STRICT;
CREATE TABLE IF NOT EXISTS seeds (
  url TEXT PRIMARY KEY,
  host TEXT NOT NULL,
  domain TEXT NOT NULL,
  added_at INTEGER NOT NULL -- ms since the epoch
) STRICT;
CREATE TABLE IF NOT EXISTS pages (
  id INTEGER PRIMARY KEY, -- fetch order, from 1, no gaps
  url TEXT NOT NULL UNIQUE,
  final_url TEXT NOT NULL,
  status INTEGER NOT NULL, -- 0: no HTTP response
  content_type TEXT,
  host TEXT NOT NULL,
  domain TEXT NOT NULL,
  depth INTEGER NOT NULL,
  parent_url TEXT,
  anchor_text TEXT,
  reward REAL NOT NULL,
  probability REAL NOT NULL,
  title TEXT,
  error_code TEXT,
  is_page INTEGER NOT NULL,
  fetched_at INTEGER NOT NULL, -- ms since the epoch
  duration_ms REAL,
  bytes INTEGER,
  outlinks BLOB, -- see outlinks-codec.ts
  warc_end INTEGER, -- length of pages.warc.gz once this row's records were written; NULL: no WARC
  jsonl_end INTEGER, -- length of pages.jsonl once this row's line was written; NULL: no JSONL
  content_hash TEXT, -- SHA-1 of the page's words; NULL: not a page
  simhash TEXT, -- 64-bit SimHash of the page's word shingles, 16 hex digits
  duplicate_of INTEGER -- id of the page this one copies; NULL: none
) STRICT;
CREATE INDEX IF NOT EXISTS pages_by_domain ON pages (domain);
CREATE TABLE IF NOT EXISTS labels (
  id INTEGER PRIMARY KEY,
  page_id INTEGER NOT NULL, -- pages.id of the labelled page
  url TEXT NOT NULL,
  is_relevant INTEGER NOT NULL, -- 1 relevant, 0 not
  labelled_at INTEGER NOT NULL, -- ms since the epoch
  source TEXT -- 'user' (the dashboard's page list) or 'answer' (a question the crawl asked); NULL: 'user'
) STRICT;
CREATE TABLE IF NOT EXISTS questions ( -- questions the crawl asked about its pages
  id INTEGER PRIMARY KEY, -- from 1, in the order asked
  page_id INTEGER NOT NULL, -- pages.id of the page asked about
  url TEXT NOT NULL,
  domain TEXT NOT NULL,
  title TEXT NOT NULL,
  text TEXT NOT NULL, -- the page's text as judged (capped), to retrain from without a WARC file
  probability REAL NOT NULL, -- the judge's P(relevant) when it was asked
  why TEXT NOT NULL, -- why this page was chosen, in words
  asked_at INTEGER NOT NULL, -- ms since the epoch
  status TEXT NOT NULL, -- 'open', 'answered', 'skipped' or 'expired'
  settled_at INTEGER, -- ms since the epoch; NULL while open
  kind TEXT -- 'informative' (chosen to teach the judge; NULL too) or 'random' (drawn uniformly, to check it)
) STRICT;
CREATE TABLE IF NOT EXISTS checkpoints ( -- what the strategy had learned; one row, the latest
  id INTEGER PRIMARY KEY CHECK (id = 1),
  strategy TEXT NOT NULL, -- the strategy's name (spec)
  config TEXT NOT NULL, -- JSON of the strategy's config when saved
  after_page INTEGER NOT NULL, -- pages.id of the last page it reflects (0: none)
  saved_at INTEGER NOT NULL, -- ms since the epoch
  data BLOB NOT NULL -- see checkpoint-codec.ts
) STRICT;
`;

/**
 * Opens (creating if needed) the database at `path`, takes the crawl's exclusive lock and makes
 * sure the tables exist.
 * @throws ConfigError if another process holds the crawl open, or the file is not a crawl store.
 */
export function openDatabase(path: string): Database.Database {
  let db: Database.Database | undefined;
  try {
    db = new Database(path, { timeout: 200 });
    // One writer per crawl: in exclusive locking mode the first write takes a lock held until
    // close (released by the OS if the process dies), so a second `tres crawl --resume` on the same
    // folder fails here instead of interleaving its records into the same WARC file. It also keeps
    // the WAL index in process memory (no -shm file). Must be set before journal_mode.
    db.pragma('locking_mode = EXCLUSIVE');
    db.pragma('journal_mode = WAL');
    // In WAL mode, synchronous=NORMAL writes every commit to the WAL file with write() before the
    // commit returns and fsyncs only at checkpoints: a commit survives a killed process (SIGKILL,
    // crash, OOM) because the OS holds the written pages; only a power loss or kernel crash can
    // roll back the last commits, never corrupt the database (sqlite.org/wal.html, section
    // "Performance Considerations"). FULL would add one fsync per page on the hot path.
    db.pragma('synchronous = NORMAL');
    db.exec(`BEGIN IMMEDIATE; ${SCHEMA} COMMIT;`);
    addMissingColumns(db);
    return db;
  } catch (cause) {
    db?.close();
    const code = (cause as { code?: string }).code;
    if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') {
      throw new ConfigError(`${path} is in use by another tres process; stop it or choose another --out`, {
        cause,
        context: { file: path },
      });
    }
    throw new ConfigError(`${path} cannot be opened as a tres crawl store: ${(cause as Error).message}`, {
      cause,
      context: { file: path },
    });
  }
}

/**
 * Columns added to `pages` after store version 1 was released: nullable, so a store written
 * before them opens as it is and gains them (older tres versions ignore them).
 */
const ADDED_PAGE_COLUMNS: ReadonlyArray<[string, string]> = [
  ['content_hash', 'TEXT'],
  ['simhash', 'TEXT'],
  ['duplicate_of', 'INTEGER'],
  ['judge_version', 'INTEGER'],
  // A cluster worker's WARC file of this row's records (NULL: pages.warc.gz) and their start
  // there; warc_end is then their end in that file.
  ['warc_file', 'TEXT'],
  ['warc_file_start', 'INTEGER'],
  ['directives', 'TEXT'], // space-separated, see PageRecord.directives
  ['canonical_url', 'TEXT'],
];

/** Columns added to `labels` after store version 1 was released (nullable, as above). */
const ADDED_LABEL_COLUMNS: ReadonlyArray<[string, string]> = [['source', 'TEXT']];

/** Columns added to `questions` after it was released (nullable, as above). */
const ADDED_QUESTION_COLUMNS: ReadonlyArray<[string, string]> = [['kind', 'TEXT']];

function addMissingColumns(db: Database.Database): void {
  for (const [table, columns] of [
    ['pages', ADDED_PAGE_COLUMNS],
    ['labels', ADDED_LABEL_COLUMNS],
    ['questions', ADDED_QUESTION_COLUMNS],
  ] as const) {
    const have = new Set(
      (db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((c) => c.name),
    );
    for (const [name, type] of columns) {
      if (!have.has(name)) db.exec(`ALTER TABLE ${table} ADD COLUMN ${name} ${type}`);
    }
  }
}

/** A `pages` row as better-sqlite3 returns it. */
export interface PageRow {
  id: number;
  url: string;
  final_url: string;
  status: number;
  content_type: string | null;
  host: string;
  domain: string;
  depth: number;
  parent_url: string | null;
  anchor_text: string | null;
  reward: number;
  probability: number;
  title: string | null;
  error_code: string | null;
  is_page: number;
  fetched_at: number;
  duration_ms: number | null;
  bytes: number | null;
  outlinks: Buffer | null;
  warc_end: number | null;
  jsonl_end: number | null;
  content_hash: string | null;
  simhash: string | null;
  duplicate_of: number | null;
  judge_version: number | null;
  warc_file?: string | null;
  warc_file_start?: number | null;
  directives?: string | null;
  canonical_url?: string | null;
}

/** Columns of an insert, in the named-parameter form of better-sqlite3. */
export const INSERT_PAGE_SQL = `INSERT INTO pages (id, url, final_url, status, content_type, host, domain, depth,
  parent_url, anchor_text, reward, probability, title, error_code, is_page, fetched_at, duration_ms, bytes,
  outlinks, warc_end, jsonl_end, content_hash, simhash, duplicate_of, judge_version, directives, canonical_url,
  warc_file, warc_file_start)
  VALUES (@id, @url, @final_url, @status, @content_type, @host, @domain, @depth, @parent_url, @anchor_text,
  @reward, @probability, @title, @error_code, @is_page, @fetched_at, @duration_ms, @bytes, @outlinks,
  @warc_end, @jsonl_end, @content_hash, @simhash, @duplicate_of, @judge_version, @directives, @canonical_url,
  @warc_file, @warc_file_start)`;

/** The parameters of {@link INSERT_PAGE_SQL} for a page and the file lengths after its writes. */
export function pageParams(page: ResolvedRecord, warcEnd: number | null, jsonlEnd: number | null) {
  return {
    id: page.id,
    url: page.url,
    final_url: page.finalUrl,
    status: page.status,
    content_type: page.contentType ?? null,
    host: page.host,
    domain: page.domain,
    depth: page.depth,
    parent_url: page.parentUrl ?? null,
    anchor_text: page.anchorText ?? null,
    reward: page.reward,
    probability: page.probability,
    title: page.title ?? null,
    error_code: page.errorCode ?? null,
    is_page: page.isPage ? 1 : 0,
    fetched_at: page.fetchedAt,
    duration_ms: page.durationMs ?? null,
    bytes: page.bytes ?? null,
    outlinks: page.outlinks?.length ? encodeOutlinks(page.outlinks) : null,
    warc_end: page.warcAt ? page.warcAt.end : warcEnd,
    jsonl_end: jsonlEnd,
    content_hash: page.fingerprint?.exact ?? null,
    simhash: page.fingerprint ? simhashToHex(page.fingerprint.simhash) : null,
    duplicate_of: page.duplicateOf ?? null,
    judge_version: page.judgeVersion ?? null,
    warc_file: page.warcAt?.file ?? null,
    warc_file_start: page.warcAt?.start ?? null,
    directives: page.directives?.length ? page.directives.join(' ') : null,
    canonical_url: page.canonicalUrl ?? null,
  };
}

/** A row decoded into the public shape, with its outlinks. */
export function rowToPage(row: PageRow): StoredPage {
  const page: StoredPage = {
    id: row.id,
    url: row.url,
    finalUrl: row.final_url,
    status: row.status,
    host: row.host,
    domain: row.domain,
    depth: row.depth,
    reward: row.reward,
    probability: row.probability,
    isPage: row.is_page === 1,
    fetchedAt: row.fetched_at,
    outlinks: decodeOutlinks(row.outlinks),
  };
  if (row.content_type !== null) page.contentType = row.content_type;
  if (row.parent_url !== null) page.parentUrl = row.parent_url;
  if (row.anchor_text !== null) page.anchorText = row.anchor_text;
  if (row.title !== null) page.title = row.title;
  if (row.error_code !== null) page.errorCode = row.error_code;
  if (row.duration_ms !== null) page.durationMs = row.duration_ms;
  if (row.bytes !== null) page.bytes = row.bytes;
  if (row.duplicate_of !== null) page.duplicateOf = row.duplicate_of;
  if (row.judge_version !== null && row.judge_version !== undefined) page.judgeVersion = row.judge_version;
  if (row.directives) page.directives = row.directives.split(' ');
  if (row.canonical_url) page.canonicalUrl = row.canonical_url;
  return page;
}

/** The JSON value stored in meta under `key`, or undefined. */
export function readMeta(db: Database.Database, key: string): unknown {
  const row = db.prepare<[string], { value: string }>('SELECT value FROM meta WHERE key = ?').get(key);
  return row === undefined ? undefined : JSON.parse(row.value);
}

/** Stores JSON values in meta, all in one transaction. */
export function writeMeta(db: Database.Database, entries: Record<string, unknown>): void {
  const upsert = db.prepare(
    'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
  );
  db.transaction(() => {
    for (const [key, value] of Object.entries(entries)) upsert.run(key, JSON.stringify(value));
  })();
}
