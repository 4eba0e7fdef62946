/**
 * Lists the HTML pages of one extracted site and turns file paths into URLs. Giant generated
 * trees named in the manifest (`exclude`, `excludeDirNames`) are skipped and counted.
 */
import type { Dirent } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { normalizeUrl } from 'tres-crawler/internals';

/** Extensions of the files that count as pages (what the replay server sends as HTML). */
export const PAGE_EXTENSIONS: ReadonlySet<string> = new Set(['.html', '.htm', '.xhtml', '.shtml']);

/** Exclusion rules of one site, as in the manifest. */
export interface ExcludeRules {
  /** Subtrees relative to the site root, each ending in '/'. */
  exclude?: readonly string[];
  /** Folder names excluded at any depth. */
  excludeDirNames?: readonly string[];
}

/** One page file of a site. */
export interface ScannedPage {
  /** Path relative to the site root, '/'-separated, not encoded, e.g. `a b/index.html`. */
  relPath: string;
  bytes: number;
}

/** Pages of a site and what the exclusion rules left out. */
export interface SiteScan {
  /** Pages sorted by relPath. */
  pages: ScannedPage[];
  /** Page files under excluded trees (not listed in `pages`). */
  excludedPages: number;
  /** Topmost excluded folders that exist, relative to the site root, each ending in '/', sorted. */
  excludedTrees: string[];
}

/** True if the folder `dirRel` (relative to the site root, ending in '/') is excluded by itself. */
function isExcludedDir(dirRel: string, name: string, rules: ExcludeRules): boolean {
  return (
    (rules.exclude?.some((tree) => dirRel.startsWith(tree)) ?? false) ||
    (rules.excludeDirNames?.includes(name) ?? false)
  );
}

/**
 * Every page file under `rootDir`, following symlinked files but not symlinked folders (they
 * would list the same pages twice, or loop).
 * @throws the file system error if `rootDir` cannot be read.
 */
export async function scanSitePages(rootDir: string, rules: ExcludeRules = {}): Promise<SiteScan> {
  const pages: ScannedPage[] = [];
  const excludedTrees: string[] = [];
  let excludedPages = 0;
  const stack: { rel: string; isExcluded: boolean }[] = [{ rel: '', isExcluded: false }];
  while (stack.length > 0) {
    const { rel, isExcluded } = stack.pop() as { rel: string; isExcluded: boolean };
    let entries: Dirent[];
    try {
      entries = await readdir(join(rootDir, rel), { withFileTypes: true });
    } catch (error) {
      if (rel === '') throw error;
      continue; // an unreadable subfolder is left out, not fatal
    }
    for (const entry of entries) {
      const childRel = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) {
        const isChildExcluded = isExcluded || isExcludedDir(`${childRel}/`, entry.name, rules);
        if (isChildExcluded && !isExcluded) excludedTrees.push(`${childRel}/`);
        stack.push({ rel: childRel, isExcluded: isChildExcluded });
        continue;
      }
      if (!PAGE_EXTENSIONS.has(extname(entry.name).toLowerCase())) continue;
      if (!entry.isFile() && !entry.isSymbolicLink()) continue;
      if (isExcluded) {
        excludedPages++;
        continue;
      }
      const info = await stat(join(rootDir, childRel)).catch(() => undefined);
      if (info?.isFile()) pages.push({ relPath: childRel, bytes: info.size }); // else a dangling link
    }
  }
  pages.sort((a, b) => (a.relPath < b.relPath ? -1 : a.relPath > b.relPath ? 1 : 0));
  return { pages, excludedPages, excludedTrees: excludedTrees.sort() };
}

/**
 * The URL of a page file: `https://HOST` + prefix + the path as a link to the file would spell
 * it (characters that URLs reserve, `%`, `?` and `#`, escaped; the rest left to the URL parser),
 * normalised as the crawler normalises. https because most absolute links in these pages are
 * https; the crawler fetches them over http through its resolve rule.
 */
export function pageUrl(host: string, prefix: string, relPath: string): string {
  const path = relPath
    .split('/')
    .map((part) => part.replace(/%/g, '%25').replace(/\?/g, '%3F').replace(/#/g, '%23'))
    .join('/');
  const raw = `https://${host}${prefix}${path}`;
  return normalizeUrl(raw) ?? raw;
}
