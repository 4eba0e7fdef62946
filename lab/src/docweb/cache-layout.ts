/**
 * Where a DocWeb build keeps its files. One cache folder holds everything, so deleting it undoes
 * the build:
 * ```
 * CACHE/debs/<package>_<version>_all.deb   downloads (apt-get download)
 * CACHE/extract/<package>/usr/share/...     unpacked packages (dpkg-deb -x)
 * CACHE/extract/<package>/.tres-extracted   marker: written last, names the deb it came from
 * CACHE/docweb.sqlite                       site, page and label tables (written last, atomically)
 * ```
 */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** File name of the site/page table database inside the cache. */
export const DOCWEB_DB_FILE = 'docweb.sqlite';

/** Name of the marker written into a package's folder once it is fully extracted. */
export const EXTRACTED_MARKER = '.tres-extracted';

/** The folders and files of a DocWeb cache. */
export interface CacheLayout {
  /** The cache folder itself (absolute). */
  root: string;
  /** Downloaded `.deb` files. */
  debsDir: string;
  /** One folder per extracted package. */
  extractDir: string;
  /** The SQLite file with the site, page and label tables. */
  dbPath: string;
}

/**
 * The default cache folder: `$TRES_CACHE_DIR/docweb`, else `~/.cache/tres/docweb`. Needs about
 * 5.7 GB (0.85 GB downloads + 4.8 GB extracted).
 */
export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.TRES_CACHE_DIR?.trim() ? env.TRES_CACHE_DIR : join(homedir(), '.cache', 'tres');
  return resolve(base, 'docweb');
}

/** Paths of the cache rooted at `cacheDir` (made absolute). */
export function cacheLayout(cacheDir: string): CacheLayout {
  const root = resolve(cacheDir);
  return {
    root,
    debsDir: join(root, 'debs'),
    extractDir: join(root, 'extract'),
    dbPath: join(root, DOCWEB_DB_FILE),
  };
}

/** Folder a package is extracted into. */
export function packageDir(layout: CacheLayout, pkg: string): string {
  return join(layout.extractDir, pkg);
}
