/**
 * What a folder site knows about a file path: missing, a folder, or a file (with its bytes when
 * small). Lookups are async (no sync fs on the request path), deduplicated while in flight and
 * kept in an LRU bounded by bytes. Files are assumed not to change while the server runs.
 */
import { readFile, stat } from 'node:fs/promises';

/** Result of looking up one absolute path. */
export type FileLookup =
  | { kind: 'missing' }
  | { kind: 'dir' }
  /** `body` is set when the file is small enough to cache; otherwise stream it from disk. */
  | { kind: 'file'; size: number; mtimeMs: number; body?: Buffer };

/** Limits of a {@link FileCache}. */
export interface FileCacheOptions {
  /** Total bytes of cached lookups (file bodies plus a small cost per entry). Use 0 to disable. */
  cacheBytes: number;
  /** Files larger than this many bytes are never held in memory, only streamed. */
  maxCachedFileBytes: number;
}

/** Approximate bytes held by one entry besides its body (key string, object, map slot). */
const ENTRY_OVERHEAD_BYTES = 160;

/** LRU cache of file lookups. */
export class FileCache {
  private readonly entries = new Map<string, { lookup: FileLookup; costBytes: number }>();
  private readonly inFlight = new Map<string, Promise<FileLookup>>();
  private usedBytes = 0;

  constructor(private readonly options: FileCacheOptions) {}

  /** Bytes currently held. */
  get sizeBytes(): number {
    return this.usedBytes;
  }

  /** What is at `absPath` (symlinks followed). Never throws: unreadable paths are 'missing'. */
  lookup(absPath: string): Promise<FileLookup> {
    const hit = this.entries.get(absPath);
    if (hit) {
      // Map keeps insertion order: re-inserting marks the entry most recently used.
      this.entries.delete(absPath);
      this.entries.set(absPath, hit);
      return Promise.resolve(hit.lookup);
    }
    const pending = this.inFlight.get(absPath);
    if (pending) return pending;
    const promise = this.load(absPath).then((lookup) => {
      this.inFlight.delete(absPath);
      this.remember(absPath, lookup);
      return lookup;
    });
    this.inFlight.set(absPath, promise);
    return promise;
  }

  private async load(absPath: string): Promise<FileLookup> {
    try {
      const info = await stat(absPath);
      if (info.isDirectory()) return { kind: 'dir' };
      if (!info.isFile()) return { kind: 'missing' };
      if (info.size > this.options.maxCachedFileBytes || this.options.cacheBytes === 0) {
        return { kind: 'file', size: info.size, mtimeMs: info.mtimeMs };
      }
      const body = await readFile(absPath);
      return { kind: 'file', size: body.length, mtimeMs: info.mtimeMs, body };
    } catch {
      return { kind: 'missing' };
    }
  }

  private remember(absPath: string, lookup: FileLookup): void {
    const bodyBytes = lookup.kind === 'file' && lookup.body ? lookup.body.length : 0;
    const costBytes = ENTRY_OVERHEAD_BYTES + absPath.length * 2 + bodyBytes;
    if (costBytes > this.options.cacheBytes) return;
    this.entries.set(absPath, { lookup, costBytes });
    this.usedBytes += costBytes;
    for (const [key, entry] of this.entries) {
      if (this.usedBytes <= this.options.cacheBytes) break;
      this.entries.delete(key);
      this.usedBytes -= entry.costBytes;
    }
  }
}
