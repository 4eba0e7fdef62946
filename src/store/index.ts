/**
 * The crawl store: a resumable record of every fetch of a crawl (SQLite), its HTTP exchanges
 * (WARC) and its pages with their relevance (JSON lines), plus CSV export.
 */
export { decodeCheckpoint, encodeCheckpoint } from './checkpoint-codec.js';
export { CrawlStore, type StoredCheckpoint } from './crawl-store.js';
export type { CrawlCounters } from './crawl-tally.js';
export type { DuplicateMatch } from './duplicate-index.js';
export { DuplicateIndex } from './duplicate-index.js';
export { type ExportOptions, exportCrawl } from './export.js';
export { CSV_COLUMNS } from './export-csv.js';
export {
  FRONTIER_SNAPSHOT_FILE,
  readFrontierSnapshot,
  removeFrontierSnapshot,
  type StoredFrontierSnapshot,
  writeFrontierSnapshot,
} from './frontier-snapshot.js';
export type { JsonlPage } from './jsonl-line.js';
export type { LabelSource, PageLabel } from './labels.js';
export { CRAWL_STORE_DEFAULTS, STORE_FILES, storePaths } from './open-files.js';
export { decodeOutlinks, encodeOutlinks } from './outlinks-codec.js';
export { indexOutlinks } from './outlinks-table.js';
export { type ListedPage, listedPageOf, type PageQuery } from './page-query.js';
export { readPageText, readWarcResponse, responseHtml } from './page-text.js';
export type { QuestionKind, QuestionStatus, StoredQuestion } from './questions.js';
export { CrawlReader, type FailureReason, type ReadPage, withCrawlReader } from './read-crawl.js';
export { JsonlPages, type PageSource } from './read-jsonl.js';
export {
  type PageRereader,
  REPAIR_EXIT_CODES,
  type RebuildResult,
  RepairError,
  rebuildStore,
} from './rebuild-store.js';
export { toReplayOutcome } from './replay-outcome.js';
export {
  STORAGE_EXIT_CODES,
  StorageFaultError,
  type StorageFaultKind,
  storageFault,
} from './storage-fault.js';
export type {
  CrawlStatus,
  CrawlStoreOptions,
  ExportCsvOptions,
  OpenMode,
  PageRecord,
  ResumeInfo,
  StoredPage,
} from './types.js';
export { DEFAULT_WARC_GZIP_LEVEL, PreparedWarc, type WarcPayload } from './warc-record.js';
export { WARCINFO_CONFIG_FIELD } from './warc-scan.js';
export { WorkerWarcFile } from './worker-warc.js';
