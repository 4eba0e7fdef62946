/**
 * The crawl store: every fetch attempt of a crawl, recorded before it counts, in a SQLite database
 * with a WARC file of the HTTP exchanges and a JSON-lines file of pages beside it. A crawl killed
 * at any instant resumes with no page lost and none fetched twice (see {@link CrawlStore.recordPage}).
 */
import { accessSync, constants, existsSync, mkdirSync, rmSync } from 'node:fs';
import type Database from 'better-sqlite3';
import { ConfigError, SkipUrlError, StopCrawlError, TresError } from '../common/index.js';
import type { ContentFingerprint } from '../text/index.js';
import type { DiscoveredLink, Outcome } from '../types/index.js';
import { AppendFile } from './append-file.js';
import { decodeCheckpoint, encodeCheckpoint } from './checkpoint-codec.js';
import { type CrawlCounters, CrawlTally } from './crawl-tally.js';
import { DuplicateIndex, type DuplicateMatch, simhashFromHex } from './duplicate-index.js';
import { exportPagesCsv } from './export-csv.js';
import { jsonlLine } from './jsonl-line.js';
import { insertLabel, type LabelSource, labelCount, latestLabels, type PageLabel } from './labels.js';
import { checkFolder, repairFiles, STORE_FILES, storePaths, validateOptions } from './open-files.js';
import { type ListedPage, type PageQuery, queryPages, warcRangeOf } from './page-query.js';
import {
  allQuestions,
  insertQuestion,
  type QuestionStatus,
  type StoredQuestion,
  settleQuestion,
} from './questions.js';
import { locateWarcFile } from './read-crawl.js';
import { OUTCOME_COLUMNS, type OutcomeRow, outcomeOfRow } from './replay-outcome.js';
import {
  INSERT_PAGE_SQL,
  openDatabase,
  type PageRow,
  pageParams,
  readMeta,
  rowToPage,
  STORE_VERSION,
  writeMeta,
} from './schema.js';
import { asNewCrawlFault, StorageFaultError, storageFault } from './storage-fault.js';
import type {
  CrawlStatus,
  CrawlStoreOptions,
  ExportCsvOptions,
  PageRecord,
  ResolvedRecord,
  ResumeInfo,
  StoredPage,
} from './types.js';
import { buildExchangeRecords, buildWarcinfoRecord, PreparedWarc, type WarcPayload } from './warc-record.js';

/** Rows decoded per query while replaying, so that writes may happen between chunks. */
const REPLAY_CHUNK_ROWS = 512;

/**
 * A crawl folder opened for writing (one process at a time). Meta keys the store itself writes:
 * `storeVersion`, `startedAt`, `resumedAt` (list), `endedAt` (ms since the epoch), `status`
 * ({@link CrawlStatus}), `warcHeaderEnd`, `warcArchivedEnd`; the crawl adds its own (`config`, `seed`, `gitCommit`,
 * `version`, ...) with {@link CrawlStore.setMeta}.
 */
export class CrawlStore {
  /** What resuming found and repaired; undefined for a new crawl. */
  readonly resumeInfo: ResumeInfo | undefined;
  private readonly tally = new CrawlTally();
  private readonly duplicates: DuplicateIndex;
  private isClosed = false;
  private readonly insertPage: Database.Statement;
  private outcomesFromStatement: Database.Statement<[number, number], OutcomeRow> | undefined;

  private constructor(
    /** The crawl folder. */
    readonly dir: string,
    private readonly db: Database.Database,
    private readonly opts: Required<CrawlStoreOptions>,
    private readonly warc: AppendFile | undefined,
    private readonly jsonl: AppendFile | undefined,
    resumeInfo: ResumeInfo | undefined,
  ) {
    this.resumeInfo = resumeInfo;
    this.insertPage = db.prepare(INSERT_PAGE_SQL);
    this.duplicates = new DuplicateIndex(opts.nearDuplicateBits);
    type TallyRow = Pick<
      PageRow,
      | 'id'
      | 'url'
      | 'final_url'
      | 'domain'
      | 'reward'
      | 'is_page'
      | 'content_hash'
      | 'simhash'
      | 'duplicate_of'
    >;
    const rows = db.prepare<[], TallyRow>(
      'SELECT id, url, final_url, domain, reward, is_page, content_hash, simhash, duplicate_of FROM pages ORDER BY id',
    );
    for (const row of rows.iterate()) {
      if (row.content_hash !== null && row.simhash !== null && row.duplicate_of === null) {
        this.duplicates.add(row.id, { exact: row.content_hash, simhash: simhashFromHex(row.simhash) });
      }
      this.tally.add({
        id: row.id,
        url: row.url,
        finalUrl: row.final_url,
        domain: row.domain,
        reward: row.reward,
        isPage: row.is_page === 1,
        isDuplicate: row.duplicate_of !== null,
      });
    }
  }

  /**
   * Opens the crawl in `dir` (created if missing): `create` starts a new one, `resume` continues
   * the one there after cutting the WARC and JSONL files back to the last committed page.
   * @throws ConfigError if `create` finds a crawl there, `resume` finds none, another process holds
   * it, or an option is invalid (the error names the field).
   */
  static open(dir: string, options: CrawlStoreOptions): CrawlStore {
    const opts = validateOptions(dir, options);
    checkFolder(dir, opts.mode);
    mkdirSync(dir, { recursive: true });
    try {
      accessSync(dir, constants.W_OK);
    } catch (error) {
      // Read-only media: say so, rather than SQLite's "unable to open database file".
      throw storageFault(error, dir, dir) ?? error;
    }
    const paths = storePaths(dir);
    // Files a failed create removes again (a full disk must not leave a 0-byte crawl.sqlite that
    // blocks the next crawl and --resume alike).
    const created =
      opts.mode === 'create'
        ? [paths.sqlite, `${paths.sqlite}-wal`, `${paths.sqlite}-journal`, paths.warc, paths.jsonl].filter(
            (path) => !existsSync(path),
          )
        : [];
    const removeCreated = () => {
      for (const path of created) rmSync(path, { force: true });
    };
    let db: Database.Database;
    try {
      db = openDatabase(paths.sqlite);
    } catch (error) {
      removeCreated();
      throw newCrawlFault(storageFault(error, paths.sqlite, dir), opts.mode, dir) ?? error;
    }
    let warc: AppendFile | undefined;
    let jsonl: AppendFile | undefined;
    try {
      const getMeta = (key: string) => readMeta(db, key);
      const stored = getMeta('storeVersion');
      // Undefined: a create killed before its first commit; such a folder resumes as new.
      if (opts.mode === 'resume' && stored !== undefined && stored !== STORE_VERSION) {
        const message = `${paths.sqlite} has store version ${String(stored)}; this tres reads ${STORE_VERSION}`;
        throw new ConfigError(message, { context: { file: paths.sqlite } });
      }
      warc = opts.warc ? new AppendFile(paths.warc) : undefined;
      jsonl = opts.jsonl ? new AppendFile(paths.jsonl) : undefined;
      const previousStatus = getMeta('status') as CrawlStatus | undefined;
      const repair = repairFiles(
        db,
        warc,
        jsonl,
        Number(getMeta('warcHeaderEnd') ?? 0),
        Number(getMeta('warcArchivedEnd') ?? 0),
      );
      const now = opts.clock.now();
      const meta: Record<string, unknown> = { status: 'running' };
      if (stored === undefined) Object.assign(meta, { storeVersion: STORE_VERSION, startedAt: now });
      if (opts.mode === 'resume')
        meta.resumedAt = [...((getMeta('resumedAt') as number[] | undefined) ?? []), now];
      meta.warcHeaderEnd = repair.warcHeaderEnd;
      meta.warcArchivedEnd = repair.warcArchivedEnd;
      if (warc && warc.offset === 0) {
        // Each WARC file opens with a warcinfo record; its committed length keeps it on resume.
        const fields = { software: 'tres', format: 'WARC File Format 1.1', ...opts.warcInfo };
        warc.append(buildWarcinfoRecord(STORE_FILES.warc, now, fields));
        meta.warcHeaderEnd = warc.offset;
      }
      if (opts.mode === 'create') Object.assign(meta, opts.meta);
      // One transaction: a crawl killed while being created holds either its seeds and config
      // or no storeVersion at all (and then opens as a crawl that never started).
      db.transaction(() => {
        writeMeta(db, meta);
        if (opts.mode === 'create') insertSeeds(db, opts.seeds, now);
      })();
      const pages = (db.prepare('SELECT COUNT(*) AS n FROM pages').get() as { n: number }).n;
      const { warcHeaderEnd: _, warcArchivedEnd: _a, ...repaired } = repair;
      const info = opts.mode === 'resume' ? { pages, previousStatus, ...repaired } : undefined;
      return new CrawlStore(dir, db, opts, warc, jsonl, info);
    } catch (error) {
      warc?.close();
      jsonl?.close();
      db.close();
      removeCreated();
      const fault = storageFault(error, error instanceof StorageFaultError ? error.file : paths.sqlite, dir);
      throw newCrawlFault(fault, opts.mode, dir) ?? error;
    }
  }

  /**
   * Records one fetch attempt, and returns only once it is durable against a process kill; count
   * the page (and tell the strategy) after this returns, never before.
   *
   * Crash safety comes from the order: (1) the WARC records and the JSONL line are appended to the
   * files, then (2) the row is inserted, with the new file lengths, in one transaction. A kill
   * before (2) leaves a tail that {@link CrawlStore.open} in `resume` mode cuts off, and the page is
   * fetched again; a kill after (2) leaves the page complete in all three places.
   *
   * `payload.warc` is given only for an actual HTTP response (failures are recorded as rows and
   * JSONL lines only): either the exchange, compressed here on the main thread, or a
   * {@link PreparedWarc} made with {@link CrawlStore.prepareWarc} before (the crawler does so for
   * large bodies while other fetches are in flight).
   * @throws SkipUrlError `TRES_STORE_DUPLICATE` if `record.url` was already recorded (nothing is
   * written). StopCrawlError `TRES_STORE_WRITE` if a file or the database cannot be written (the
   * files are cut back, so the store stays consistent), `TRES_STORE_CLOSED` after close.
   */
  recordPage(record: PageRecord, payload?: { warc?: WarcPayload | PreparedWarc }): void {
    this.assertOpen();
    if (this.tally.has(record.url)) {
      throw new SkipUrlError('TRES_STORE_DUPLICATE', `${record.url} is already in the crawl store`, {
        context: { url: record.url },
      });
    }
    const page: ResolvedRecord = {
      ...record,
      id: this.tally.lastId + 1,
      finalUrl: record.finalUrl ?? record.url,
      isPage: record.isPage ?? (record.status >= 200 && record.status < 300 && !record.errorCode),
      fetchedAt: record.fetchedAt ?? this.opts.clock.now(),
    };
    const warcStart = this.warc?.offset;
    const jsonlStart = this.jsonl?.offset;
    try {
      const exchange = payload?.warc;
      if (this.warc && exchange) {
        this.warc.append(
          exchange instanceof PreparedWarc
            ? exchange.bytes
            : buildExchangeRecords(exchange, record.probability, this.opts.warcGzipLevel),
        );
      }
      this.jsonl?.append(Buffer.from(jsonlLine(page), 'utf8'));
      // One statement in autocommit mode: one transaction.
      this.insertPage.run(pageParams(page, this.warc?.offset ?? null, this.jsonl?.offset ?? null));
    } catch (error) {
      this.cutBack(warcStart, jsonlStart);
      if (error instanceof TresError) throw error;
      const fault = storageFault(error, storePaths(this.dir).sqlite, this.dir);
      if (fault) throw fault;
      throw new StopCrawlError('TRES_STORE_WRITE', `Cannot record ${record.url} in ${this.dir}`, {
        cause: error,
        context: { url: record.url, file: this.dir },
      });
    }
    this.tally.add({ ...page, isDuplicate: page.duplicateOf !== undefined });
    if (page.fingerprint && page.duplicateOf === undefined) this.duplicates.add(page.id, page.fingerprint);
  }

  /**
   * Appends the WARC records of a response the crawl fetched that is not a page (a sitemap), so
   * that pages.warc.gz holds every response; it gets no row. Its end is committed as the meta
   * value `warcArchivedEnd`, so a resume keeps it (and cuts off one whose commit was lost). The
   * next page's byte range ({@link CrawlStore.warcRange}) then starts with these records: readers
   * take the last response of a range (page-text.ts), which is the page's. No-op without a WARC
   * file.
   * @throws StopCrawlError `TRES_STORE_WRITE` if the file or the database cannot be written (the
   *   file is cut back), `TRES_STORE_CLOSED` after close.
   */
  archiveResponse(exchange: WarcPayload | PreparedWarc): void {
    this.assertOpen();
    if (!this.warc) return;
    const warcStart = this.warc.offset;
    try {
      this.warc.append(
        exchange instanceof PreparedWarc
          ? exchange.bytes
          : buildExchangeRecords(exchange, undefined, this.opts.warcGzipLevel),
      );
      writeMeta(this.db, { warcArchivedEnd: this.warc.offset });
    } catch (error) {
      this.cutBack(warcStart, undefined);
      if (error instanceof TresError) throw error;
      const fault = storageFault(error, storePaths(this.dir).sqlite, this.dir);
      if (fault) throw fault;
      const url = exchange.url;
      throw new StopCrawlError('TRES_STORE_WRITE', `Cannot archive ${url} in ${this.dir}`, {
        cause: error,
        context: { url, file: this.dir },
      });
    }
  }

  /**
   * The recorded page that a page with fingerprint `fp` would copy: same words, or (unless the
   * store's `nearDuplicateBits` is false) a SimHash within that many bits. Copies are not indexed,
   * so the match is always an original.
   */
  findDuplicate(fp: ContentFingerprint): DuplicateMatch | undefined {
    return this.duplicates.find(fp);
  }

  /** The requested URL of recorded page `id`, or undefined. */
  urlOf(id: number): string | undefined {
    this.assertOpen();
    const row = this.db.prepare<[number], { url: string }>('SELECT url FROM pages WHERE id = ?').get(id);
    return row?.url;
  }

  /**
   * Builds and gzips the WARC records of an exchange in libuv's thread pool, for a later
   * {@link CrawlStore.recordPage}: on the crawl's main thread this saves most of the cost of a
   * record (gzip of the body). `relevance` is the page's probability, written as
   * WARC-Tres-Relevance. Nothing is written until recordPage.
   */
  prepareWarc(exchange: WarcPayload, relevance: number | undefined): Promise<PreparedWarc> {
    return PreparedWarc.prepare(exchange, relevance, this.opts.warcGzipLevel);
  }

  /** True if `url` was recorded as a requested URL (the UNIQUE key of a page). */
  isFetched(url: string): boolean {
    return this.tally.has(url);
  }

  /** True if some recorded fetch was redirected to `url` (its final URL differs from its URL). */
  isRedirectTarget(url: string): boolean {
    return this.tally.isRedirectTarget(url);
  }

  /** Requested URLs of every recorded fetch, in fetch order. */
  fetchedUrls(): IterableIterator<string> {
    return this.tally.urls();
  }

  /** Number of recorded fetch attempts, failures included. */
  pageCount(): number {
    return this.tally.count;
  }

  /** Recorded fetch attempts of `domain`, failures included. */
  domainCount(domain: string): number {
    return this.tally.domainCount(domain);
  }

  /** Recorded fetch attempts per registrable domain, failures included (a copy). */
  domainCounts(): Map<string, number> {
    return new Map(this.tally.perDomain);
  }

  /** Number of recorded pages judged relevant (reward > 0). */
  relevantCount(): number {
    return this.tally.counters.relevant;
  }

  /** The live counters of recorded fetches (steps, pages, relevant, relevant domains, failures). */
  get counters(): Readonly<CrawlCounters> {
    return this.tally.counters;
  }

  /**
   * Every recorded fetch in fetch order, with decoded outlinks: what the crawl loop feeds back to
   * the strategy when it resumes. Reads in chunks, so pages may be recorded while iterating.
   */
  *replay(): IterableIterator<StoredPage> {
    this.assertOpen();
    const chunk = this.db.prepare<[number, number], PageRow>(
      'SELECT * FROM pages WHERE id > ? ORDER BY id LIMIT ?',
    );
    let after = 0;
    for (;;) {
      const rows = chunk.all(after, REPLAY_CHUNK_ROWS);
      if (rows.length === 0) return;
      for (const row of rows) yield rowToPage(row);
      after = rows[rows.length - 1]!.id;
    }
  }

  /**
   * Every recorded fetch in fetch order, with its page id, as the outcome the strategy observed
   * (marked `isReplay`): what the crawl loop feeds back to the strategy when it resumes; those
   * with an id up to `learnedThrough` (a restored checkpoint's last page) are marked `isLearned`;
   * only those with an id above `afterId` (a restored frontier snapshot's last page) are given.
   * Reads in chunks, and only the columns an outcome is made of. @default 0 for both
   */
  *replayOutcomes(learnedThrough = 0, afterId = 0): IterableIterator<{ id: number; outcome: Outcome }> {
    this.assertOpen();
    const chunk = this.db.prepare<[number, number], OutcomeRow>(
      `SELECT ${OUTCOME_COLUMNS} FROM pages WHERE id > ? ORDER BY id LIMIT ?`,
    );
    let after = afterId;
    for (;;) {
      const rows = chunk.all(after, REPLAY_CHUNK_ROWS);
      if (rows.length === 0) return;
      for (const row of rows) {
        const outcome = outcomeOfRow(row);
        // The pages a restored checkpoint reflects (see Strategy.restore).
        if (row.id <= learnedThrough) outcome.isLearned = true;
        yield { id: row.id, outcome };
      }
      after = rows[rows.length - 1]!.id;
    }
  }

  /**
   * The recorded fetches with ids from `fromId`, at most `limit`, in fetch order, each as the
   * outcome the strategy observed (marked `isReplay`, as {@link CrawlStore.replayOutcomes} gives
   * it): the crawl loop reads here the links it held back from the strategy (crawl/frontier-spill.ts).
   */
  outcomesFrom(fromId: number, limit: number): Array<{ id: number; outcome: Outcome }> {
    this.assertOpen();
    this.outcomesFromStatement ??= this.db.prepare<[number, number], OutcomeRow>(
      `SELECT ${OUTCOME_COLUMNS} FROM pages WHERE id >= ? ORDER BY id LIMIT ?`,
    );
    return this.outcomesFromStatement
      .all(fromId, limit)
      .map((row) => ({ id: row.id, outcome: outcomeOfRow(row) }));
  }

  /** Id of the last recorded fetch (0: none). */
  get lastPageId(): number {
    return this.tally.lastId;
  }

  /**
   * Stores what the strategy has learned (`Strategy.checkpoint`), replacing the checkpoint before
   * it, in one transaction: a kill at any instant leaves the old one or the new one whole.
   * `afterPage` is the id of the last recorded page it reflects (every page up to it observed,
   * none after); it is checked against the store, so a checkpoint never names a page the store
   * does not hold. Returns the bytes written.
   * @throws RangeError if `afterPage` is not a recorded page id (or 0);
   *   StorageFaultError if the database cannot be written.
   */
  saveCheckpoint(checkpoint: {
    strategy: string;
    config: unknown;
    afterPage: number;
    data: unknown;
  }): number {
    this.assertOpen();
    const { afterPage } = checkpoint;
    if (!Number.isInteger(afterPage) || afterPage < 0 || afterPage > this.tally.lastId)
      throw new RangeError(
        `checkpoint afterPage must be a recorded page id, got ${afterPage} of ${this.tally.lastId}`,
      );
    const bytes = encodeCheckpoint(checkpoint.data);
    try {
      this.db
        .prepare(
          'INSERT OR REPLACE INTO checkpoints (id, strategy, config, after_page, saved_at, data) VALUES (1, ?, ?, ?, ?, ?)',
        )
        .run(
          checkpoint.strategy,
          JSON.stringify(checkpoint.config ?? null),
          afterPage,
          this.opts.clock.now(),
          bytes,
        );
    } catch (error) {
      throw storageFault(error, storePaths(this.dir).sqlite, this.dir) ?? error;
    }
    return bytes.byteLength;
  }

  /**
   * The last checkpoint {@link CrawlStore.saveCheckpoint} stored, or undefined.
   * @throws TresError `TRES_STORE_CORRUPT` if its bytes do not decode.
   */
  loadCheckpoint(): StoredCheckpoint | undefined {
    this.assertOpen();
    const row = this.db
      .prepare<[], { strategy: string; config: string; after_page: number; saved_at: number; data: Buffer }>(
        'SELECT strategy, config, after_page, saved_at, data FROM checkpoints WHERE id = 1',
      )
      .get();
    if (row === undefined) return undefined;
    return {
      strategy: row.strategy,
      config: JSON.parse(row.config) as unknown,
      afterPage: row.after_page,
      savedAt: row.saved_at,
      bytes: row.data.byteLength,
      data: decodeCheckpoint(row.data),
    };
  }

  /**
   * Adds seed URLs (those already there are kept as they are) and returns the ones that were new.
   */
  addSeeds(links: readonly DiscoveredLink[]): DiscoveredLink[] {
    this.assertOpen();
    return this.db.transaction(() => insertSeeds(this.db, links, this.opts.clock.now()))();
  }

  /** The seed URLs, in the order they were added, as depth-0 links without anchor text. */
  seeds(): DiscoveredLink[] {
    this.assertOpen();
    const rows = this.db
      .prepare('SELECT url, host, domain FROM seeds ORDER BY rowid')
      .all() as DiscoveredLink[];
    return rows.map((r) => ({ url: r.url, host: r.host, domain: r.domain, anchorText: '', depth: 0 }));
  }

  /**
   * Stores a relevance label of recorded page `pageId` (relevance feedback): a user's label from
   * the dashboard's page list (`source` 'user') or an answer to a crawl's question ('answer').
   * @throws ConfigError if no page with that id was fetched (failures cannot be labelled).
   */
  addLabel(pageId: number, isRelevant: boolean, source: LabelSource = 'user'): PageLabel {
    this.assertOpen();
    return insertLabel(this.db, pageId, isRelevant, this.opts.clock.now(), source);
  }

  /** Stores a question the crawl asks about a recorded page; it starts open. */
  addQuestion(question: Omit<StoredQuestion, 'id' | 'status' | 'settledAt'>): StoredQuestion {
    this.assertOpen();
    return insertQuestion(this.db, question);
  }

  /** Closes open question `id` with `status`; false if it was not open. */
  settleQuestion(id: number, status: Exclude<QuestionStatus, 'open'>): boolean {
    this.assertOpen();
    return settleQuestion(this.db, id, status, this.opts.clock.now());
  }

  /** Every question the crawl asked, in the order asked. */
  questions(): StoredQuestion[] {
    this.assertOpen();
    return allQuestions(this.db);
  }

  /** The newest label of every labelled page, in label order. */
  labels(): PageLabel[] {
    this.assertOpen();
    return latestLabels(this.db);
  }

  /** Every label given so far (a relabelled page counts twice). */
  labelCount(): number {
    this.assertOpen();
    return labelCount(this.db);
  }

  /** Recorded attempts matching `query`, newest first (see {@link PageQuery}). */
  queryPages(query: PageQuery): { total: number; pages: ListedPage[] } {
    this.assertOpen();
    return queryPages(this.db, query);
  }

  /**
   * Path of the WARC file holding page `id`'s records and their byte range, or undefined (no
   * WARC). The file is pages.warc.gz, or the file of the cluster worker that fetched the page
   * (at its own path, or collected into `<crawl>/warc/`: {@link locateWarcFile}).
   * @throws ConfigError naming a worker's file that is missing here.
   */
  warcRange(id: number): { path: string; range: [number, number] } | undefined {
    this.assertOpen();
    const worker = this.db
      .prepare<
        [number],
        { warc_file: string | null; warc_file_start: number | null; warc_end: number | null }
      >('SELECT warc_file, warc_file_start, warc_end FROM pages WHERE id = ?')
      .get(id);
    if (worker?.warc_file && worker.warc_end !== null) {
      return {
        path: locateWarcFile(this.dir, worker.warc_file),
        range: [worker.warc_file_start ?? 0, worker.warc_end],
      };
    }
    if (!this.warc) return undefined;
    const range = warcRangeOf(this.db, id, Number(this.getMeta('warcHeaderEnd') ?? 0));
    return range && { path: storePaths(this.dir).warc, range };
  }

  /** Stores a JSON-serialisable value under `key`; `undefined` deletes it. */
  setMeta(key: string, value: unknown): void {
    this.assertOpen();
    if (value === undefined) this.db.prepare('DELETE FROM meta WHERE key = ?').run(key);
    else writeMeta(this.db, { [key]: value });
  }

  /**
   * Recorded attempts that are not pages, by reason: the error code, else `HTTP_<status>` or
   * `NOT_A_PAGE` (the grouping of CrawlReader.failureReasons and the dashboard's monitor).
   */
  failureCounts(): { reason: string; count: number }[] {
    this.assertOpen();
    return this.db
      .prepare<[], { reason: string; count: number }>(
        `SELECT COALESCE(error_code, CASE WHEN status > 0 THEN 'HTTP_' || status ELSE 'NOT_A_PAGE' END) AS reason,
                COUNT(*) AS count
         FROM pages WHERE is_page = 0 GROUP BY reason ORDER BY reason`,
      )
      .all();
  }

  /** The value stored under `key`, or undefined. */
  getMeta<T = unknown>(key: string): T | undefined {
    this.assertOpen();
    return readMeta(this.db, key) as T | undefined;
  }

  /**
   * Writes the pages as CSV to `path` (columns in `CSV_COLUMNS`) and returns how many were written.
   * @throws the file system's error if `path` cannot be written.
   */
  exportCsv(path: string, options: ExportCsvOptions = {}): number {
    this.assertOpen();
    return exportPagesCsv(this.db, path, options);
  }

  /**
   * Records `status` and the end time, checkpoints the WAL into the database, fsyncs and closes
   * every file. Call it on SIGINT/SIGTERM (`interrupted`) and at the end (`finished`). Safe to call
   * twice. @default status 'finished'
   */
  close(options: { status?: CrawlStatus } = {}): void {
    if (this.isClosed) return;
    try {
      writeMeta(this.db, { status: options.status ?? 'finished', endedAt: this.opts.clock.now() });
      this.db.pragma('wal_checkpoint(TRUNCATE)');
      this.warc?.close();
      this.jsonl?.close();
    } catch (error) {
      // Every committed page is safe in the WAL; only the status and the checkpoint are missing,
      // and a resume (or a reader) takes the WAL as it is.
      throw storageFault(error, storePaths(this.dir).sqlite, this.dir) ?? error;
    } finally {
      this.isClosed = true;
      this.db.close();
    }
  }

  private cutBack(warcStart: number | undefined, jsonlStart: number | undefined): void {
    try {
      if (this.warc && warcStart !== undefined) this.warc.truncate(warcStart);
      if (this.jsonl && jsonlStart !== undefined) this.jsonl.truncate(jsonlStart);
    } catch {
      // Reporting the first error matters more; a resume cuts the files back anyway.
    }
  }

  private assertOpen(): void {
    if (this.isClosed)
      throw new StopCrawlError('TRES_STORE_CLOSED', `The crawl store in ${this.dir} is closed`);
  }
}

/** A strategy checkpoint as stored (see {@link CrawlStore.saveCheckpoint}). */
export interface StoredCheckpoint {
  strategy: string;
  config: unknown;
  /** Id of the last page it reflects. */
  afterPage: number;
  /** ms since the epoch. */
  savedAt: number;
  /** Size of the stored (compressed) bytes. */
  bytes: number;
  data: unknown;
}

/** Inserts seeds not stored yet, in order; returns those inserted. Run inside a transaction. */
function insertSeeds(db: Database.Database, links: readonly DiscoveredLink[], now: number): DiscoveredLink[] {
  const insert = db.prepare('INSERT OR IGNORE INTO seeds (url, host, domain, added_at) VALUES (?, ?, ?, ?)');
  return links.filter((l) => insert.run(l.url, l.host, l.domain, now).changes > 0);
}

/** A create's storage fault told as one with nothing to resume (see asNewCrawlFault). */
function newCrawlFault(
  fault: StorageFaultError | undefined,
  mode: 'create' | 'resume',
  dir: string,
): StorageFaultError | undefined {
  return fault && mode === 'create' ? asNewCrawlFault(fault, dir) : fault;
}
