/**
 * Storage faults: the disk is full, the folder is read-only, the database is damaged, the device
 * fails. Each becomes one {@link StorageFaultError} whose message names the file and the cause and
 * says what to do next, with an exit code of its own (sysexits.h numbers), so that `tres` prints
 * one line instead of a stack trace and a script can tell the faults apart. Nothing recorded is
 * lost by any of them: a page counts once its row committed, and a resume cuts the WARC and JSONL
 * files back to the last committed row.
 */
import { statfsSync } from 'node:fs';
import { dirname } from 'node:path';
import type { ErrorCode } from '../common/index.js';
import { StopCrawlError } from '../common/index.js';

/** What went wrong with the storage. */
export type StorageFaultKind = 'full' | 'read-only' | 'corrupt' | 'io';

/** Exit code of each fault (sysexits.h: EX_CANTCREAT, EX_NOPERM, EX_DATAERR, EX_IOERR). */
export const STORAGE_EXIT_CODES: Readonly<Record<StorageFaultKind, number>> = Object.freeze({
  full: 73,
  'read-only': 77,
  corrupt: 65,
  io: 74,
});

/** Stable error codes of the faults. */
const CODES: Readonly<Record<StorageFaultKind, ErrorCode>> = {
  full: 'TRES_STORAGE_FULL',
  'read-only': 'TRES_STORAGE_READ_ONLY',
  corrupt: 'TRES_STORE_DAMAGED',
  io: 'TRES_STORAGE_IO',
};

/** A storage fault: stops the crawl; `exitCode` is what `tres` exits with. */
export class StorageFaultError extends StopCrawlError {
  readonly kind: StorageFaultKind;
  readonly file: string;
  readonly exitCode: number;

  constructor(kind: StorageFaultKind, file: string, message: string, cause: unknown) {
    super(CODES[kind], message, { cause, context: { file } });
    this.kind = kind;
    this.file = file;
    this.exitCode = STORAGE_EXIT_CODES[kind];
  }
}

/** errno and SQLite result codes of each kind (SQLite's extended codes start with the primary). */
function kindOf(code: string, message: string, file: string): StorageFaultKind | undefined {
  if (['ENOSPC', 'EDQUOT', 'EFBIG'].includes(code) || code === 'SQLITE_FULL') return 'full';
  if (['EROFS', 'EACCES', 'EPERM'].includes(code) || code.startsWith('SQLITE_READONLY')) return 'read-only';
  if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB') return 'corrupt';
  if (code === 'EIO' || code.startsWith('SQLITE_IOERR') || code === 'SQLITE_CANTOPEN') {
    // SQLite reports some write failures on a full disk as I/O errors (the errno is lost).
    if (isNearlyFull(file)) return 'full';
    // SQLite reports a file cut short as an I/O error on some paths.
    return /malformed|not a database/i.test(message) ? 'corrupt' : 'io';
  }
  if (/database disk image is malformed|file is not a database/i.test(message)) return 'corrupt';
  return undefined;
}

/** The cause chain of `error`, outermost first. */
function* causes(error: unknown): Generator<unknown> {
  let current = error;
  for (let depth = 0; current !== undefined && current !== null && depth < 8; depth++) {
    yield current;
    current = (current as { cause?: unknown }).cause;
  }
}

/**
 * The storage fault behind `error` (looking through its causes), or undefined when it is not one.
 * @param file the file being written or read, named in the message
 * @param dir the crawl folder, for the advice (`tres crawl --resume DIR`)
 */
export function storageFault(error: unknown, file: string, dir: string): StorageFaultError | undefined {
  for (const cause of causes(error)) {
    if (cause instanceof StorageFaultError) return cause;
    const code = (cause as { code?: unknown }).code;
    const message = (cause as { message?: unknown }).message;
    if (typeof code !== 'string' && typeof message !== 'string') continue;
    const kind = kindOf(
      typeof code === 'string' ? code : '',
      typeof message === 'string' ? message : '',
      file,
    );
    if (kind === undefined) continue;
    const text = typeof message === 'string' ? message : '';
    const why = typeof code === 'string' && !text.startsWith(code) ? `${code}: ${text}` : text;
    return new StorageFaultError(
      kind,
      file,
      `${file}: ${DESCRIPTION[kind]} (${why}); ${ADVICE[kind](dir)}`,
      error,
    );
  }
  return undefined;
}

const DESCRIPTION: Readonly<Record<StorageFaultKind, string>> = {
  full: 'the disk is full (or a file size or quota limit was reached)',
  'read-only': 'the storage is read-only or not writable',
  corrupt: 'the crawl database is damaged',
  io: 'the storage device failed to read or write',
};

const ADVICE: Readonly<Record<StorageFaultKind, (dir: string) => string>> = {
  full: (dir) =>
    `every page recorded so far is kept: free some space (or move the folder) and run \`tres crawl --resume ${dir}\``,
  'read-only': (dir) =>
    `reading commands (\`tres export ${dir}\`, \`tres ui ${dir}\`) work on read-only media; to crawl, copy the folder to writable storage`,
  corrupt: (dir) =>
    `${dir}/pages.jsonl and ${dir}/pages.warc.gz still hold every page: run \`tres repair ${dir}\` to rebuild crawl.sqlite from them (the damaged file is kept aside), then \`tres crawl --resume ${dir}\``,
  io: (dir) => `check the device; a crawl stopped by it resumes with \`tres crawl --resume ${dir}\``,
};

/**
 * The same fault told for a new crawl that could not be created: its files are removed again,
 * so there is nothing to resume; the same command runs once the storage is fixed.
 */
export function asNewCrawlFault(fault: StorageFaultError, dir: string): StorageFaultError {
  const advice = ADVICE[fault.kind](dir);
  if (!fault.message.endsWith(advice) || fault.kind === 'read-only') return fault;
  const next =
    'nothing was recorded (the files this crawl created are removed again): fix that, then run the same command again';
  return new StorageFaultError(
    fault.kind,
    fault.file,
    `${fault.message.slice(0, -advice.length)}${next}`,
    fault,
  );
}

/** True when the file system holding `file` has less than 1 MiB free for us. */
function isNearlyFull(file: string): boolean {
  try {
    const stats = statfsSync(dirname(file));
    return stats.bavail * stats.bsize < 1024 * 1024;
  } catch {
    return false;
  }
}
