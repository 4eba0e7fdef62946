/**
 * The WARC file of one cluster worker: the worker appends each exchange it fetched and tells the
 * coordinator where the records are, which the crawl store keeps with the page row
 * (`PageRecord.warcAt`). One writer per file (the file is named by worker).
 */
import { existsSync, mkdirSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { AppendFile } from './append-file.js';
import {
  buildExchangeRecords,
  buildWarcinfoRecord,
  DEFAULT_WARC_GZIP_LEVEL,
  type WarcPayload,
} from './warc-record.js';

/** An append-only `.warc.gz` of one worker. */
export class WorkerWarcFile {
  private readonly file: AppendFile;

  /**
   * Opens (creating it and its folder if missing) `path`; a new file opens with a warcinfo record
   * dated `createdAtMs` (ms since the epoch).
   * @throws StopCrawlError `TRES_STORE_WRITE` if the file cannot be written.
   */
  constructor(
    readonly path: string,
    createdAtMs: number,
    info: Record<string, string> = {},
    private readonly gzipLevel = DEFAULT_WARC_GZIP_LEVEL,
  ) {
    if (!existsSync(dirname(path))) mkdirSync(dirname(path), { recursive: true });
    this.file = new AppendFile(path);
    if (this.file.offset === 0) {
      const fields = { software: 'tres', format: 'WARC File Format 1.1', ...info };
      this.file.append(buildWarcinfoRecord(basename(path), createdAtMs, fields));
    }
  }

  /**
   * Appends the request/response records of `exchange` (`relevance` becomes WARC-Tres-Relevance).
   * @returns the byte range `[start, end)` of the records.
   * @throws StopCrawlError `TRES_STORE_WRITE` if the write fails (the file is cut back first).
   */
  append(exchange: WarcPayload, relevance: number): { start: number; end: number } {
    const start = this.file.offset;
    this.file.append(buildExchangeRecords(exchange, relevance, this.gzipLevel));
    return { start, end: this.file.offset };
  }

  close(): void {
    this.file.close();
  }
}
