/**
 * An append-only output file (WARC or JSONL) whose length the crawl store commits with each row,
 * so that a resumed crawl can cut it back to the last committed byte.
 */
import { closeSync, fstatSync, fsyncSync, ftruncateSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { StopCrawlError } from '../common/index.js';
import { storageFault } from './storage-fault.js';

/** An open file written only at its end, tracking its length in bytes. */
export class AppendFile {
  private fd: number | undefined;
  /** Current length of the file in bytes (the end offset of the last append). */
  offset: number;

  /** Opens (creating if missing) `path` for appending. */
  constructor(readonly path: string) {
    // 'a' is O_APPEND: every write lands at the end, also after a truncation.
    this.fd = openSync(path, 'a');
    this.offset = fstatSync(this.fd).size;
  }

  /**
   * Writes all of `data` at the end of the file (to the OS: it survives a process kill).
   * @throws StopCrawlError `TRES_STORE_WRITE` if the write fails (disk full, I/O error); the file is
   * cut back to its previous length first, so no partial record stays behind.
   */
  append(data: Uint8Array): void {
    const fd = this.openFd();
    const start = this.offset;
    try {
      let written = 0;
      while (written < data.byteLength) written += writeSync(fd, data, written, data.byteLength - written);
    } catch (cause) {
      try {
        this.truncate(start);
      } catch {
        // The write error is the one to report; resume cuts the file back anyway.
      }
      throw (
        storageFault(cause, this.path, dirname(this.path)) ??
        new StopCrawlError('TRES_STORE_WRITE', `Cannot write to ${this.path}`, {
          cause,
          context: { file: this.path },
        })
      );
    }
    this.offset = start + data.byteLength;
  }

  /** Cuts the file to `length` bytes. */
  truncate(length: number): void {
    ftruncateSync(this.openFd(), length);
    this.offset = length;
  }

  /** Flushes the file to the disk (fsync). */
  sync(): void {
    fsyncSync(this.openFd());
  }

  /** Flushes and closes the file. Safe to call twice. */
  close(): void {
    if (this.fd === undefined) return;
    fsyncSync(this.fd);
    closeSync(this.fd);
    this.fd = undefined;
  }

  private openFd(): number {
    if (this.fd === undefined) throw new StopCrawlError('TRES_STORE_CLOSED', `${this.path} is closed`);
    return this.fd;
  }
}
