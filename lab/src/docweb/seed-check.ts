/**
 * Checks a topic's seeds in the DocWeb page graph: each seed must be a page of the build, and no
 * seed may link to another (the TRES papers run one seed per run and compare runs; seeds that
 * link to each other would share their first steps). Links are read from the seed files with
 * the crawler's own parser, so `<base href>` and relative links resolve as the crawler sees them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeText, detectCharset, normalizeUrl, parseHtml } from 'tres-crawler/internals';
import type { DocwebDb, DocwebPageRow, DocwebSiteRow } from './docweb-db.js';

/** One link from a seed to another seed. */
export interface SeedLink {
  from: string;
  to: string;
}

/** Result of {@link checkSeeds}. */
export interface SeedCheckReport {
  /** Seeds that are pages of the build. */
  found: string[];
  /** Seeds not in the page table (wrong URL, or the site is not built). */
  missing: string[];
  /** Links between seeds (each direction listed separately). */
  links: SeedLink[];
  /** Seeds that share a site with another seed (allowed, but runs from them are less independent). */
  sharedSites: string[][];
  /** True if every seed was found and none links to another. */
  isIndependent: boolean;
}

/**
 * One spelling per page for comparing links: normalised, https, no trailing `index.html`, no
 * trailing slash (a folder URL and its index page are the same page on the replay server).
 */
export function pageKey(url: string): string | undefined {
  const n = normalizeUrl(url);
  if (!n) return undefined;
  return n
    .replace(/^http:/, 'https:')
    .replace(/\/index\.html$/, '/')
    .replace(/\/$/, '');
}

/** The page row of a URL, trying the folder's index.html for a folder URL. */
export function findPage(db: DocwebDb, url: string): DocwebPageRow | undefined {
  const n = normalizeUrl(url)?.replace(/^http:/, 'https:');
  if (!n) return undefined;
  return db.pageByUrl(n) ?? (n.endsWith('/') ? db.pageByUrl(`${n}index.html`) : undefined);
}

/** Reads a page file and decodes it as a browser would (BOM, meta charset, else UTF-8). */
export function readPageHtml(db: DocwebDb, site: DocwebSiteRow, page: DocwebPageRow): string {
  const body = readFileSync(join(db.siteDir(site), page.path));
  return decodeText(body, detectCharset(body, undefined, 'text/html').charset);
}

/** Absolute links of a page of the build, resolved as the crawler resolves them. */
export function pageLinks(db: DocwebDb, site: DocwebSiteRow, page: DocwebPageRow): string[] {
  const parsed = parseHtml(readPageHtml(db, site, page), page.url, { maxLinks: false, maxTextChars: 1 });
  const links = parsed.links.map((l) => l.url);
  if (parsed.metaRefreshUrl) links.push(parsed.metaRefreshUrl);
  return links;
}

/** Checks that the seeds are pages of the build and do not link to each other. */
export function checkSeeds(db: DocwebDb, seeds: readonly string[]): SeedCheckReport {
  const sitesById = new Map(db.sites().map((s) => [s.id, s]));
  const found: { url: string; key: string; page: DocwebPageRow }[] = [];
  const missing: string[] = [];
  for (const url of seeds) {
    const page = findPage(db, url);
    const key = pageKey(url);
    if (page && key) found.push({ url, key, page });
    else missing.push(url);
  }
  const byKey = new Map(found.map((f) => [f.key, f.url]));
  const links: SeedLink[] = [];
  for (const seed of found) {
    const site = sitesById.get(seed.page.siteId) as DocwebSiteRow;
    const targets = new Set<string>();
    for (const link of pageLinks(db, site, seed.page)) {
      const key = pageKey(link);
      const target = key === undefined ? undefined : byKey.get(key);
      if (target && target !== seed.url && !targets.has(target)) {
        targets.add(target);
        links.push({ from: seed.url, to: target });
      }
    }
  }
  const bySite = new Map<number, string[]>();
  for (const f of found) bySite.set(f.page.siteId, [...(bySite.get(f.page.siteId) ?? []), f.url]);
  const sharedSites = [...bySite.values()].filter((urls) => urls.length > 1);
  return {
    found: found.map((f) => f.url),
    missing,
    links,
    sharedSites,
    isIndependent: missing.length === 0 && links.length === 0,
  };
}
