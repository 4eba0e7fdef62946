/**
 * Reading a crawl folder without changing it: for `tres crawl --resume` (the stored config),
 * the end-of-crawl report (failures by reason) and `tres export`.
 *
 * A crawl store is a WAL database whose writer holds an exclusive lock (schema.ts). A plain
 * read-only open of such a file makes SQLite create `crawl.sqlite-wal` and `crawl.sqlite-shm`
 * beside it and leave them there, so a command that only looked at a folder would still change
 * it. Two cases, measured with better-sqlite3 12 (SQLite 3.53):
 * - no `-wal` file (the crawl was closed): a read-write connection in exclusive locking mode that
 *   only reads keeps its WAL index in memory and removes the empty `-wal` it opened on close, so
 *   the folder is left byte-identical. `query_only` makes sure it writes nothing.
 * - a `-wal` file (a running crawl, or one that was killed): a read-only connection; a running
 *   writer's lock makes it fail (SQLITE_BUSY), a killed one's WAL is read as is, and the `-shm`
 *   file SQLite creates for it is removed afterwards if it was not there before (a writer in
 *   exclusive mode never uses it).
 */
import { accessSync, constants, copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import Database from 'better-sqlite3';
import { ConfigError } from '../common/index.js';
import { latestLabels, type PageLabel } from './labels.js';
import { STORE_FILES, storePaths } from './open-files.js';
import { type ListedPage, type PageQuery, queryPages } from './page-query.js';
import { allQuestions, type StoredQuestion } from './questions.js';
import { type PageRow, readMeta, rowToPage } from './schema.js';
import { storageFault } from './storage-fault.js';
import type { StoredPage } from './types.js';

/** Rows decoded per query while iterating pages. */
const CHUNK_ROWS = 500;

/** Failed attempts of one error code. */
export interface FailureReason {
  /** The stored error code (`TRES_ADDRESS_BLOCKED`, `TRES_DNS`, ...). */
  code: string;
  count: number;
  /** The first URL that failed with it, in fetch order. */
  exampleUrl: string;
}

/** A stored page with the byte range of its WARC records in `pages.warc.gz`. */
export interface ReadPage extends StoredPage {
  /**
   * Offsets `[start, end)` of this attempt's records in `pages.warc.gz`; start equals end when
   * none were written (failures); undefined when the crawl keeps no WARC.
   */
  warcRange?: [number, number];
  /**
   * The cluster worker's WARC file that holds `warcRange` (as the worker named it: absolute on
   * its machine); absent: `pages.warc.gz` of the crawl folder. See {@link locateWarcFile}.
   */
  warcFile?: string;
}

/** Options of {@link CrawlReader.pages}. */
export interface ReadPagesOptions {
  /** Only pages judged relevant (reward > 0). @default false */
  onlyRelevant?: boolean;
}

/** A crawl folder opened for reading; close it when done. */
export class CrawlReader {
  /** Pages come with their outlinks (for export sources, see read-jsonl.ts). */
  readonly hasOutlinks = true;
  private isClosed = false;

  private constructor(
    /** The crawl folder. */
    readonly dir: string,
    private readonly db: Database.Database,
    private readonly createdShm: string | undefined,
    /** A copy of the database made because the folder is read-only; removed on close. */
    private readonly copyDir?: string,
  ) {}

  /**
   * Opens the crawl in `dir` for reading, leaving the folder as it was.
   * @throws ConfigError if `dir` holds no crawl, a running crawl holds it (then with
   *   `context.isLocked`), or the file is not a crawl store.
   */
  static open(dir: string): CrawlReader {
    const { sqlite } = storePaths(dir);
    if (!existsSync(sqlite)) {
      throw new ConfigError(`${dir} holds no crawl (no ${STORE_FILES.sqlite})`, { context: { file: dir } });
    }
    if (!isWritable(dir)) return CrawlReader.openCopy(dir, sqlite);
    const wal = `${sqlite}-wal`;
    const shm = `${sqlite}-shm`;
    const hasWal = existsSync(wal);
    const hadShm = existsSync(shm);
    let db: Database.Database | undefined;
    try {
      if (hasWal) {
        db = new Database(sqlite, { readonly: true, fileMustExist: true, timeout: 200 });
      } else {
        db = openQuiet(sqlite);
      }
      // The first read takes the lock: a running crawl shows here, not on some later query.
      db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'pages'").get();
      if (!db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'meta'").get()) {
        throw Object.assign(new Error('no meta table'), { code: 'TRES_NOT_A_STORE' });
      }
    } catch (cause) {
      db?.close();
      if (!hadShm && hasWal) rmSync(shm, { force: true });
      const code = (cause as { code?: string }).code;
      if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') {
        throw new ConfigError(
          `${dir} is being written by a running tres crawl; stop it first (Ctrl-C), then try again`,
          { cause, context: { file: sqlite, isLocked: true } },
        );
      }
      const fault = storageFault(cause, sqlite, dir);
      if (fault) throw fault;
      throw new ConfigError(`${sqlite} cannot be read as a tres crawl store: ${(cause as Error).message}`, {
        cause,
        context: { file: sqlite },
      });
    }
    return new CrawlReader(dir, db, hasWal && !hadShm ? shm : undefined);
  }

  /**
   * Opens a copy of the database (and its WAL) in a temporary folder: on read-only media SQLite
   * cannot open a WAL-mode database in place (it needs to create a side file), and opening it
   * "immutable" would skip pages still in the WAL.
   */
  private static openCopy(dir: string, sqlite: string): CrawlReader {
    const copyDir = mkdtempSync(join(tmpdir(), 'tres-read-'));
    const copy = join(copyDir, STORE_FILES.sqlite);
    try {
      copyFileSync(sqlite, copy);
      if (existsSync(`${sqlite}-wal`)) copyFileSync(`${sqlite}-wal`, `${copy}-wal`);
      const db = new Database(copy, { readonly: true, fileMustExist: true });
      if (!db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'meta'").get()) {
        db.close();
        throw new ConfigError(`${sqlite} is not a tres crawl store (no meta table)`, {
          context: { file: sqlite },
        });
      }
      return new CrawlReader(dir, db, undefined, copyDir);
    } catch (cause) {
      rmSync(copyDir, { recursive: true, force: true });
      if (cause instanceof ConfigError) throw cause;
      throw new ConfigError(`${sqlite} cannot be read as a tres crawl store: ${(cause as Error).message}`, {
        cause,
        context: { file: sqlite },
      });
    }
  }

  /** The JSON value stored in meta under `key`, or undefined. */
  meta<T = unknown>(key: string): T | undefined {
    return readMeta(this.db, key) as T | undefined;
  }

  /** True if the crawl writes WARC records (some page row has a WARC offset, or no page is recorded yet). */
  hasWarc(): boolean {
    if (this.db.prepare('SELECT 1 FROM pages LIMIT 1').get() === undefined) return true;
    return this.db.prepare('SELECT 1 FROM pages WHERE warc_end IS NOT NULL LIMIT 1').get() !== undefined;
  }

  /** Recorded attempts, pages (HTML fetched and parsed), relevant pages and failures. */
  counts(): { attempts: number; pages: number; relevant: number; failures: number } {
    const row = this.db
      .prepare<[], { attempts: number; pages: number | null; relevant: number | null }>(
        'SELECT COUNT(*) AS attempts, SUM(is_page) AS pages, SUM(is_page = 1 AND reward > 0) AS relevant FROM pages',
      )
      .get();
    const attempts = row?.attempts ?? 0;
    const pages = row?.pages ?? 0;
    return { attempts, pages, relevant: row?.relevant ?? 0, failures: attempts - pages };
  }

  /**
   * Failed attempts grouped by error code, most frequent first (ties by code). Attempts that are
   * not pages without a code (e.g. a 404, a PDF) are grouped under `HTTP_<status>` or `NOT_A_PAGE`.
   */
  failureReasons(): FailureReason[] {
    return this.db
      .prepare<[], FailureReason>(
        // With one MIN() aggregate, SQLite takes the bare column `url` from the row of that minimum.
        `SELECT code, COUNT(*) AS count, MIN(id) AS first_id, url AS exampleUrl
         FROM (SELECT id, url, COALESCE(error_code,
                 CASE WHEN status > 0 THEN 'HTTP_' || status ELSE 'NOT_A_PAGE' END) AS code
               FROM pages WHERE is_page = 0)
         GROUP BY code ORDER BY count DESC, code`,
      )
      .all()
      .map(({ code, count, exampleUrl }) => ({ code, count, exampleUrl }));
  }

  /**
   * The recorded attempts in fetch order, outlinks decoded, read in chunks (the crawl is never
   * held in memory at once).
   */
  *pages(options: ReadPagesOptions = {}): IterableIterator<ReadPage> {
    this.assertOpen();
    const where = options.onlyRelevant ? 'AND p.reward > 0' : '';
    // The WARC records of a row start where the previous row's end (rows are written in id order).
    const chunk = this.db.prepare<[number, number], PageRow & { warc_start: number | null }>(
      `SELECT p.*, (SELECT q.warc_end FROM pages q WHERE q.id = p.id - 1) AS warc_start
       FROM pages p WHERE p.id > ? ${where} ORDER BY p.id LIMIT ?`,
    );
    const headerEnd = Number(this.meta('warcHeaderEnd') ?? 0);
    let after = 0;
    for (;;) {
      const rows = chunk.all(after, CHUNK_ROWS);
      if (rows.length === 0) return;
      for (const row of rows) {
        const page: ReadPage = rowToPage(row);
        if (row.warc_file !== null && row.warc_file !== undefined && row.warc_end !== null) {
          page.warcRange = [row.warc_file_start ?? 0, row.warc_end];
          page.warcFile = row.warc_file;
        } else if (row.warc_end !== null) page.warcRange = [row.warc_start ?? headerEnd, row.warc_end];
        yield page;
      }
      after = rows[rows.length - 1]!.id;
    }
  }

  /**
   * The stored seed URLs in the order they were given, each with the error code of its recorded
   * attempt if that attempt failed (`failed`), undefined if it was fetched or not tried yet.
   */
  seeds(): { url: string; failed: string | undefined }[] {
    this.assertOpen();
    return this.db
      .prepare<[], { url: string; failed: string | null }>(
        `SELECT s.url AS url, CASE WHEN p.is_page = 0 THEN COALESCE(p.error_code,
           CASE WHEN p.status > 0 THEN 'HTTP_' || p.status ELSE 'NOT_A_PAGE' END) END AS failed
         FROM seeds s LEFT JOIN pages p ON p.url = s.url ORDER BY s.rowid`,
      )
      .all()
      .map((r) => ({ url: r.url, failed: r.failed ?? undefined }));
  }

  /** The newest relevance label of every labelled page (none in a store from before labels). */
  labels(): PageLabel[] {
    this.assertOpen();
    return latestLabels(this.db);
  }

  /** Recorded attempts matching `query`, newest first (see {@link PageQuery}). */
  queryPages(query: PageQuery): { total: number; pages: ListedPage[] } {
    this.assertOpen();
    return queryPages(this.db, query);
  }

  /** Every question the crawl asked, in the order asked (none in a store from before questions). */
  questions(): StoredQuestion[] {
    this.assertOpen();
    return allQuestions(this.db);
  }

  /** Closes the database and removes the `-shm` file this reader made SQLite create. */
  close(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    this.db.close();
    if (this.createdShm) rmSync(this.createdShm, { force: true });
    if (this.copyDir) rmSync(this.copyDir, { recursive: true, force: true });
  }

  private assertOpen(): void {
    if (this.isClosed) throw new ConfigError(`the crawl reader of ${this.dir} is closed`);
  }
}

/** The read-write connection that only reads (see the file comment); read-only on a read-only disk. */
function openQuiet(sqlite: string): Database.Database {
  let db: Database.Database;
  try {
    db = new Database(sqlite, { fileMustExist: true, timeout: 200 });
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code !== 'SQLITE_CANTOPEN' && code !== 'SQLITE_READONLY') throw error;
    return new Database(sqlite, { readonly: true, fileMustExist: true, timeout: 200 });
  }
  db.pragma('locking_mode = EXCLUSIVE');
  db.pragma('query_only = 1');
  return db;
}

/**
 * Runs `fn` with a reader of the crawl in `dir` and closes it afterwards.
 * @throws what {@link CrawlReader.open} and `fn` throw.
 */
export function withCrawlReader<T>(dir: string, fn: (reader: CrawlReader) => T): T {
  const reader = CrawlReader.open(dir);
  try {
    return fn(reader);
  } finally {
    reader.close();
  }
}

/** True when files may be created in `dir` (false on read-only media, or without permission). */
function isWritable(dir: string): boolean {
  try {
    accessSync(dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Where a cluster worker's WARC file can be read from here: its own path if it exists (a shared
 * folder), else `<crawl>/warc/<file name>` (collected afterwards).
 * @throws ConfigError naming the file and both places looked in.
 */
export function locateWarcFile(crawlDir: string, file: string): string {
  if (existsSync(file)) return file;
  const collected = join(crawlDir, 'warc', basename(file));
  if (existsSync(collected)) return collected;
  throw new ConfigError(
    `the WARC file ${file} written by a cluster worker is missing here (looked at ${file} and ${collected}): copy the workers' WARC files into ${join(crawlDir, 'warc')}, or leave out --with-text`,
    { context: { file } },
  );
}
