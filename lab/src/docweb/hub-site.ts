/**
 * The hub as a site of the DocWeb: built from apt's metadata during `npm run lab -- docweb build` into
 * `CACHE/hub/`, and served by a handler that speaks the real site's URL patterns:
 * `/bookworm/<package>` is a page, `/<package>` and `/<other suite>/<package>` answer 301 to it,
 * `/bookworm/<section>/` is a section index, `/` answers 301 to `/bookworm/`.
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join, relative } from 'node:path';
import { normalizeUrl, sendStatus } from 'tres-crawler/internals';
import type { CommandRunner } from './apt.js';
import { type CacheLayout, packageDir } from './cache-layout.js';
import { HOMEPAGES_DIR, type HomepageSite, homepageKey, homepageSites, writeHomepages } from './homepages.js';
import { HUB_DEFAULT_SECTIONS, HUB_HOST, type HubPage, writeHub } from './hub.js';
import type { ManifestSite } from './manifest.js';
import { readAvailablePackages, readTranslations } from './package-lists.js';
import type { HubIndex } from './topic.js';

/** Folder of the hub inside the cache. */
export const HUB_DIR = 'hub';
const SUITE = 'bookworm';
const OTHER_SUITES = new Set(
  'stable oldstable testing unstable sid experimental bullseye buster stretch jessie trixie forky bookworm-backports'.split(
    ' ',
  ),
);

/** The first index page of a site's folder: its root's index.html, else the first one a level down. */
export function siteEntryUrl(layout: CacheLayout, site: ManifestSite): string | undefined {
  const root = join(packageDir(layout, site.package), site.rootInPackage);
  if (existsSync(join(root, 'index.html'))) return `https://${site.host}${site.prefix}`;
  try {
    for (const name of readdirSync(root).sort())
      if (existsSync(join(root, name, 'index.html'))) return `https://${site.host}${site.prefix}${name}/`;
  } catch {
    // no such folder: the site is left out of the build anyway
  }
  return undefined;
}

/** What {@link buildHub} wrote. */
export interface HubBuild {
  /** Absolute folder of the pages. */
  dir: string;
  pages: { url: string; path: string; bytes: number }[];
  /** Pages by kind (package, section, facet, tag, home). */
  kinds: Record<string, number>;
  /** Project home pages (homepages.ts) as site rows; `dir` relative to the cache folder. */
  homepages: HomepageSite[];
}

/**
 * Writes the hub from apt's package lists and English translations (fetched with
 * `apt-get update -o Acquire::Languages=en` when missing).
 * @throws TresError if apt fails.
 */
export async function buildHub(
  layout: CacheLayout,
  sites: readonly ManifestSite[],
  options: {
    run?: CommandRunner;
    log?: (line: string) => void;
    aptListsDir?: string;
    sections?: readonly string[];
  } = {},
): Promise<HubBuild> {
  const log = options.log ?? (() => {});
  const packages = await readAvailablePackages(options.run, options.aptListsDir);
  const translations = await readTranslations(options.aptListsDir, options.run, log);
  const docsOf = new Map<string, string>();
  const docsBySource = new Map<string, string>();
  for (const site of sites) {
    const url = siteEntryUrl(layout, site);
    if (!url) continue;
    if (!docsOf.has(site.package)) docsOf.set(site.package, url);
    const source = packages.get(site.package)?.source;
    if (source && !docsBySource.has(source)) docsBySource.set(source, url);
  }
  const dir = join(layout.root, HUB_DIR);
  const written: HubPage[] = writeHub(packages, translations, {
    dir,
    suite: SUITE,
    sections: options.sections ?? HUB_DEFAULT_SECTIONS,
    docsOf,
  });
  const kinds: Record<string, number> = {};
  for (const p of written) kinds[p.kind] = (kinds[p.kind] ?? 0) + 1;
  const pages = written.map((p) => {
    const raw = `https://${HUB_HOST}${p.urlPath}`;
    return { url: normalizeUrl(raw) ?? raw, path: p.file, bytes: p.bytes };
  });
  // Packages with a page: their home pages are written, and the index lists them.
  const listed = new Set(
    written.filter((p) => p.kind === 'package').map((p) => p.urlPath.split('/').pop() ?? ''),
  );
  const homepageDir = join(layout.root, HOMEPAGES_DIR);
  const homepagePages = writeHomepages(packages, translations, {
    dir: homepageDir,
    hubHost: HUB_HOST,
    suite: SUITE,
    listed,
    servedSites: sites,
    docsBySource,
  });
  const homepages = homepageSites(homepagePages, sites).map((s) => ({
    ...s,
    dir: relative(layout.root, join(homepageDir, s.dir)),
  }));
  writeFileSync(join(dir, 'pages.json'), JSON.stringify({ kinds, pages, homepages }));
  const homepageIndex: Record<string, string[]> = {};
  for (const p of homepagePages) {
    const key = homepageKey(p.url);
    if (key !== undefined) homepageIndex[key] = p.packages;
  }
  writeFileSync(join(dir, HOMEPAGE_INDEX_FILE), JSON.stringify(homepageIndex));
  const index: Record<string, [string, string[]]> = {};
  for (const p of packages.values())
    if (listed.has(p.package)) index[p.package] = [p.section.replace(/^.*\//, ''), p.tags];
  writeFileSync(join(dir, HUB_INDEX_FILE), JSON.stringify(index));
  log(
    `hub      ${HUB_HOST}: ${pages.length} pages (${Object.entries(kinds)
      .map(([k, n]) => `${n} ${k}`)
      .join(', ')}) from ${packages.size} packages in apt's lists`,
  );
  log(
    `hub      project home pages: ${homepagePages.length} pages on ${new Set(homepagePages.map((p) => p.host)).size} hosts (${homepages.length} site rows)`,
  );
  return { dir, pages, kinds, homepages };
}

/** File of the hub folder mapping each package with a page to its section and debtags. */
export const HUB_INDEX_FILE = 'packages.json';

/** File of the hub folder mapping each project home page (`homepageKey`) to its packages. */
export const HOMEPAGE_INDEX_FILE = 'homepages.json';

/**
 * Section and debtags of every package page of the hub built in `cacheDir`, and the packages of
 * each project home page, or undefined if no hub was built.
 */
export function readHubIndex(cacheDir: string): HubIndex | undefined {
  let raw: Record<string, [string, string[]]>;
  try {
    raw = JSON.parse(readFileSync(join(cacheDir, HUB_DIR, HUB_INDEX_FILE), 'utf8')) as typeof raw;
  } catch {
    return undefined;
  }
  let homepages: Record<string, string[]> = {};
  try {
    homepages = JSON.parse(
      readFileSync(join(cacheDir, HUB_DIR, HOMEPAGE_INDEX_FILE), 'utf8'),
    ) as typeof homepages;
  } catch {
    // a hub built before home pages existed
  }
  return {
    packages: new Map(Object.entries(raw).map(([name, [section, tags]]) => [name, { section, tags }])),
    homepages: new Map(Object.entries(homepages)),
  };
}

/** The hub pages written by the last build, or undefined. */
export function readHubBuild(layout: CacheLayout): HubBuild | undefined {
  const dir = join(layout.root, HUB_DIR);
  try {
    const data = JSON.parse(readFileSync(join(dir, 'pages.json'), 'utf8')) as Omit<HubBuild, 'dir'>;
    return { dir, ...data, homepages: data.homepages ?? [] };
  } catch {
    return undefined;
  }
}

const isFile = (path: string) => {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
};

function redirect(res: ServerResponse, location: string): void {
  res.writeHead(301, { Location: location, 'Content-Length': 0 });
  res.end();
}

/**
 * The path of the hub page a request path lands on after the handler's redirects (`/<package>`
 * and `/<other suite>/<package>` -> `/bookworm/<package>`, `/` -> `/bookworm/`), without looking
 * at the files: whether the page exists is the page table's business. Undefined for a path the
 * handler answers 404 whatever the files.
 */
export function hubLandingPath(path: string): string | undefined {
  const rel = path.replace(/^\//, '');
  if (rel === '') return `/${SUITE}/`;
  const parts = rel.split('/');
  const first = parts[0] as string;
  if (OTHER_SUITES.has(first)) return `/${SUITE}/${parts.slice(1).join('/')}`;
  if (first === SUITE) return path;
  if (parts.length <= 2 && parts[1] !== undefined && parts[1] !== '') return undefined;
  return `/${SUITE}/${first}`;
}

/** A request handler serving the hub folder `dir` with the real site's URL patterns. */
export function hubHandler(dir: string) {
  return (req: IncomingMessage, res: ServerResponse, relPath: string): unknown => {
    let rel: string;
    try {
      rel = decodeURIComponent(relPath);
    } catch {
      sendStatus(req, res, 404);
      return;
    }
    if (rel.includes('..') || rel.includes('\0') || rel.includes('\\')) return void sendStatus(req, res, 404);
    if (rel === '') return redirect(res, `/${SUITE}/`);
    const parts = rel.split('/');
    const first = parts[0] as string;
    if (OTHER_SUITES.has(first)) return redirect(res, `/${SUITE}/${parts.slice(1).join('/')}`);
    if (first !== SUITE) {
      // /<package>: the real site sends it to the package's page in the current suite.
      if (parts.length <= 2 && parts[1] !== undefined && parts[1] !== '')
        return void sendStatus(req, res, 404);
      if (isFile(join(dir, SUITE, `${first}.html`))) return redirect(res, `/${SUITE}/${first}`);
      return void sendStatus(req, res, 404);
    }
    let file: string | undefined;
    if (parts.length === 2 && parts[1] !== '' && !parts[1]?.endsWith('.html')) {
      if (isFile(join(dir, SUITE, `${parts[1]}.html`))) file = join(dir, SUITE, `${parts[1]}.html`);
      else if (isFile(join(dir, rel, 'index.html'))) return redirect(res, `/${rel}/`);
    } else if (rel.endsWith('/')) {
      if (isFile(join(dir, rel, 'index.html'))) file = join(dir, rel, 'index.html');
      else if (parts.length === 3 && isFile(join(dir, SUITE, `${parts[1]}.html`)))
        return redirect(res, `/${SUITE}/${parts[1]}`);
    } else if (rel.endsWith('.html') && /\/index-\d+\.html$/.test(rel) && isFile(join(dir, rel))) {
      file = join(dir, rel);
    }
    if (!file) return void sendStatus(req, res, 404);
    const body = readFileSync(file);
    res.writeHead(200, { 'Content-Type': 'text/html', 'Content-Length': body.length });
    res.end(req.method === 'HEAD' ? undefined : body);
  };
}
