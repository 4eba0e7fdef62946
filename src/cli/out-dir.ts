/**
 * The output folder of a new crawl: checked before anything is written, created one level at a
 * time, and removed again if the crawl is refused before writing into it.
 *
 * Node's `mkdirSync(dir, { recursive: true })` never returns for a path under /proc (it retries
 * the parent forever at full CPU; Node 20), so folders are made here without `recursive`, each
 * failure reported in one line with the path and the system's reason.
 */
import { accessSync, constants, existsSync, mkdirSync, readdirSync, rmdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { ConfigError } from '../common/index.js';
import { STORE_FILES, StorageFaultError, withCrawlReader } from '../store/index.js';

/** Node's message without the syscall and path it appends: `ENOENT: no such file or directory`. */
function reason(error: unknown): string {
  const message = (error as Error).message ?? String(error);
  return message.replace(/, \w+ '.*'$/, '');
}

function fail(flag: string, dir: string, why: string, cause?: unknown): never {
  throw new ConfigError(`${flag} ${dir}: ${why}`, { cause, context: { file: dir, field: flag } });
}

/**
 * Checks, without writing anything, that a new crawl can be stored in `dir`: it holds no crawl,
 * it is (or can become) a folder, and its nearest existing ancestor is a writable folder.
 * @throws ConfigError naming `flag` and the path.
 */
export function checkNewCrawlFolder(dir: string, flag = '--out'): void {
  const path = resolve(dir);
  if (existsSync(path)) {
    if (!statSync(path).isDirectory()) fail(flag, dir, 'is a file, not a folder');
    // An empty file is what a create on a full disk left (older tres): no crawl.
    const found = Object.values(STORE_FILES).filter(
      (name) => existsSync(join(path, name)) && statSync(join(path, name)).size > 0,
    );
    if (found.length > 0) {
      const next =
        fetchedPages(path) === 0
          ? `it fetched no page: run it again with --resume ${dir} and the options that fix its failures (it then starts again from its seeds), or choose another ${flag}`
          : `continue it with --resume ${dir}, or choose another ${flag}`;
      fail(flag, dir, `already holds a crawl (${found.join(', ')}); ${next}`);
    }
    const others = readdirSync(path);
    if (others.length > 0) {
      const listed =
        others.slice(0, 3).join(', ') + (others.length > 3 ? `, ... (${others.length} files)` : '');
      fail(
        flag,
        dir,
        `holds other files (${listed}); a crawl goes into a new or empty folder: choose another ${flag}, such as ${join(dir, 'crawl1')}`,
      );
    }
    checkWritable(flag, dir, path);
    return;
  }
  let ancestor = dirname(path);
  while (!existsSync(ancestor)) ancestor = dirname(ancestor);
  if (!statSync(ancestor).isDirectory()) fail(flag, dir, `${ancestor} is a file, not a folder`);
  checkWritable(flag, dir, ancestor);
}

/** Pages (not failures) the crawl in `dir` fetched, or undefined if it cannot be read. */
function fetchedPages(dir: string): number | undefined {
  try {
    return withCrawlReader(dir, (r) => r.counts().pages);
  } catch {
    return undefined;
  }
}

/**
 * A folder the crawl cannot write is read-only storage to the user, whether a new crawl or a
 * resume meets it: exit 77 as docs/real-web.md's table says (a script tells it from a typo, 2).
 */
function checkWritable(flag: string, dir: string, folder: string): void {
  try {
    accessSync(folder, constants.W_OK | constants.X_OK);
  } catch (error) {
    throw new StorageFaultError(
      'read-only',
      folder,
      `${flag} ${dir}: ${folder} is not writable (${reason(error)}); nothing was written: choose an ${flag} on writable storage`,
      error,
    );
  }
}

/**
 * Creates `dir` and its missing ancestors, one level at a time.
 * @returns the folders created, outermost first (empty if `dir` existed).
 * @throws ConfigError naming `flag`, the folder that could not be made, and why.
 */
export function makeCrawlFolder(dir: string, flag = '--out'): string[] {
  const missing: string[] = [];
  for (let p = resolve(dir); !existsSync(p); p = dirname(p)) missing.unshift(p);
  const created: string[] = [];
  for (const p of missing) {
    try {
      mkdirSync(p);
    } catch (error) {
      removeIfEmpty(created);
      fail(flag, dir, `cannot create ${p} (${reason(error)})`, error);
    }
    created.push(p);
  }
  return created;
}

/** Removes the folders of `created` (outermost first) that are still empty, innermost first. */
export function removeIfEmpty(created: readonly string[]): void {
  for (const p of [...created].reverse()) {
    try {
      if (readdirSync(p).length > 0) return;
      rmdirSync(p);
    } catch {
      return; // leave it; the error that got us here matters more
    }
  }
}
