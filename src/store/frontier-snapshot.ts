/**
 * A crawl's frontier snapshot (`Strategy.frontierSnapshot` and what the crawl loop adds to it),
 * kept beside crawl.sqlite in `frontier-snapshot.bin`: a value of hundreds of megabytes on a long
 * crawl, written once as a file rather than twice as a row (the WAL, then the database) and never
 * near SQLite's 1 GB limit on a value. Written to a temporary file, fsynced, then renamed over the
 * last one (and the folder fsynced): a kill leaves the old snapshot or the new one, whole.
 * Encoded as a checkpoint (`checkpoint-codec.ts`), long string arrays packed.
 */
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { TresError } from '../common/index.js';
import { decodeCheckpoint, encodeCheckpointParts } from './checkpoint-codec.js';

/** The file name of a crawl folder's frontier snapshot. */
export const FRONTIER_SNAPSHOT_FILE = 'frontier-snapshot.bin';
/** String arrays this long or longer are packed (URLs, words, sites). */
const PACKED_STRINGS_FROM = 64;

/** A frontier snapshot as stored. */
export interface StoredFrontierSnapshot {
  /** Name of the strategy that made it. */
  strategy: string;
  /** That strategy's config (`Strategy.config`) when it was made. */
  config: unknown;
  /** Id of the last recorded page the snapshot reflects (every page up to it observed). */
  afterPage: number;
  /** URL of that page, to tell this crawl's store from another with as many pages. */
  afterPageUrl: string;
  /** The strategy's snapshot and the crawl loop's parts. */
  data: unknown;
}

/**
 * Writes `snapshot` into `dir` atomically (see the file comment); returns its bytes.
 * @throws the file system's error (the previous snapshot, if any, stays).
 */
export function writeFrontierSnapshot(dir: string, snapshot: StoredFrontierSnapshot): number {
  const parts = encodeCheckpointParts(snapshot, { packedStringsFrom: PACKED_STRINGS_FROM });
  const file = join(dir, FRONTIER_SNAPSHOT_FILE);
  const tmp = `${file}.tmp`;
  let bytes = 0;
  const fd = openSync(tmp, 'w');
  try {
    for (const part of parts) {
      for (let at = 0; at < part.byteLength; ) at += writeSync(fd, part, at, part.byteLength - at);
      bytes += part.byteLength;
    }
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
  // The rename itself is durable once the folder is.
  const dirFd = openSync(dir, 'r');
  try {
    fsyncSync(dirFd);
  } finally {
    closeSync(dirFd);
  }
  return bytes;
}

/**
 * The snapshot stored in `dir` and its bytes, or undefined when there is none.
 * @throws TresError `TRES_STORE_CORRUPT` if the file is not a snapshot: bytes that do not decode,
 *   or a value without the strategy and page it was made by.
 */
export function readFrontierSnapshot(
  dir: string,
): { snapshot: StoredFrontierSnapshot; bytes: number } | undefined {
  let raw: Buffer;
  try {
    raw = readFileSync(join(dir, FRONTIER_SNAPSHOT_FILE));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  // The file's bytes are its own: the columns stay views of them (restoring copies what it keeps).
  const snapshot = decodeCheckpoint(raw, { isViewed: true }) as StoredFrontierSnapshot;
  if (typeof snapshot?.afterPage !== 'number' || typeof snapshot.strategy !== 'string')
    throw new TresError(
      'TRES_STORE_CORRUPT',
      `${join(dir, FRONTIER_SNAPSHOT_FILE)} decodes but is not a frontier snapshot (no strategy or page)`,
    );
  return { snapshot, bytes: raw.byteLength };
}

/** Removes the frontier snapshot of `dir`, if any (a crawl started over must not find it). */
export function removeFrontierSnapshot(dir: string): void {
  rmSync(join(dir, FRONTIER_SNAPSHOT_FILE), { force: true });
}
