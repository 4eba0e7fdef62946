/**
 * `npm run lab -- docweb build`: manifest -> downloaded debs -> extracted packages -> site, page and label
 * tables. Every step is skipped when already done (markers, and a fingerprint of the manifest,
 * topics and extracted packages stored with the tables), so running it again is cheap and an
 * interrupted build resumes.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { CommandRunner } from './apt.js';
import {
  type CacheLayout,
  cacheLayout,
  defaultCacheDir,
  EXTRACTED_MARKER,
  packageDir,
} from './cache-layout.js';
import { type DocwebCounts, DocwebDb, type DocwebTables, writeDocwebDb } from './docweb-db.js';
import { type FetchReport, fetchPackages } from './fetch-packages.js';
import { HOMEPAGES_PACKAGE } from './homepages.js';
import { HUB_HOST, HUB_PACKAGE } from './hub.js';
import { buildHub, type HubBuild, readHubIndex } from './hub-site.js';
import {
  DEFAULT_MANIFEST_PATH,
  DEFAULT_TOPICS_DIR,
  loadManifest,
  type ManifestSite,
  selectSites,
} from './manifest.js';
import { pageUrl, scanSitePages } from './page-scan.js';
import { loadTopics, type Topic } from './topic.js';
import { withDefaults } from './with-defaults.js';

/** Options of {@link buildDocweb}. */
export interface DocwebBuildOptions {
  /** Cache folder. @default `$TRES_CACHE_DIR/docweb` or `~/.cache/tres/docweb` */
  cacheDir?: string;
  /** Manifest of packages and sites. @default data/docweb/sites.json of this project */
  manifestPath?: string;
  /** Folder of topic files used to label pages. @default data/topics of this project */
  topicsDir?: string;
  /** Leave out the manifest's heavy packages (rust-doc, openjdk-17-doc, ...). @default false */
  shouldExcludeHeavy?: boolean;
  /** Rewrite the tables even if nothing changed. @default false */
  shouldReindex?: boolean;
  /** Runs apt-get and dpkg-deb (tests pass a fake). @default the real commands */
  run?: CommandRunner;
  /** Progress lines. @default printed to stderr */
  log?: (line: string) => void;
  /** apt's package lists folder. @default '/var/lib/apt/lists' */
  aptListsDir?: string;
  /**
   * Build the directory hub (packages.debian.org from apt's metadata, see hub.ts); false leaves
   * it out. @default true
   */
  shouldBuildHub?: boolean;
}

/** Defaults of {@link DocwebBuildOptions} (the cache folder is computed from the environment). */
export const DOCWEB_BUILD_DEFAULTS = {
  manifestPath: DEFAULT_MANIFEST_PATH,
  topicsDir: DEFAULT_TOPICS_DIR,
  shouldExcludeHeavy: false,
  shouldReindex: false,
  aptListsDir: '/var/lib/apt/lists',
  shouldBuildHub: true,
} as const;

/** What a build did and what the tables hold. */
export interface DocwebBuildSummary {
  cacheDir: string;
  dbPath: string;
  fetch: FetchReport;
  counts: DocwebCounts;
  /** Sites whose `rootInPackage` folder does not exist in the package (left out; fix the manifest). */
  missingRoots: string[];
  /** True if the tables were up to date and not rewritten. */
  isIndexReused: boolean;
  elapsedMs: number;
}

/**
 * Builds (or completes) the DocWeb in the cache folder.
 * @throws ConfigError for a bad manifest or topic file, or a package apt does not know;
 *   TresError if apt-get or dpkg-deb fail.
 */
export async function buildDocweb(options: DocwebBuildOptions = {}): Promise<DocwebBuildSummary> {
  const start = performance.now();
  const o = withDefaults(DOCWEB_BUILD_DEFAULTS, options);
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const layout = cacheLayout(options.cacheDir ?? defaultCacheDir());
  const manifest = loadManifest(o.manifestPath);
  const sites = selectSites(manifest, { shouldExcludeHeavy: o.shouldExcludeHeavy });
  const topics = loadTopics(o.topicsDir);
  log(`DocWeb cache: ${layout.root}`);

  const fetch = await fetchPackages({
    layout,
    packages: sites.map((s) => s.package),
    run: options.run,
    log,
    aptListsDir: o.aptListsDir,
  });

  const fingerprint = fingerprintOf(layout, sites, topics, o.shouldBuildHub);
  let isIndexReused = false;
  let counts: DocwebCounts;
  let missingRoots: string[] = [];
  if (!o.shouldReindex && existsSync(layout.dbPath) && readFingerprint(layout) === fingerprint) {
    isIndexReused = true;
    counts = readCounts(layout);
    log('index: tables up to date (same manifest, topics and packages); --reindex rewrites them');
  } else {
    const hub = o.shouldBuildHub
      ? await buildHub(layout, sites, { run: options.run, log, aptListsDir: o.aptListsDir })
      : undefined;
    // Rules that select hub pages by section or debtags need the hub's index.
    const labelTopics = hub ? loadTopics(o.topicsDir, readHubIndex(layout.root)) : topics;
    const indexed = await indexSites(layout, sites, labelTopics, log, fingerprint, manifest.file, hub);
    counts = indexed.counts;
    missingRoots = indexed.missingRoots;
  }
  return {
    cacheDir: layout.root,
    dbPath: layout.dbPath,
    fetch,
    counts,
    missingRoots,
    isIndexReused,
    elapsedMs: performance.now() - start,
  };
}

/** Scans every site's folder and writes the tables. */
async function indexSites(
  layout: CacheLayout,
  sites: readonly ManifestSite[],
  topics: readonly Topic[],
  log: (line: string) => void,
  fingerprint: string,
  manifestFile: string,
  hub: HubBuild | undefined,
): Promise<{ counts: DocwebCounts; missingRoots: string[] }> {
  const tables: DocwebTables = {
    sites: [],
    pages: [],
    topics: topics.map((t) => ({ name: t.name, file: t.file, labelOf: t.labelOf })),
    meta: { fingerprint, builtAt: new Date().toISOString(), manifest: manifestFile },
  };
  const missingRoots: string[] = [];
  for (const [i, site] of sites.entries()) {
    const rootDir = join(packageDir(layout, site.package), site.rootInPackage);
    const where = `${site.host}${site.prefix}`;
    if (!existsSync(rootDir)) {
      missingRoots.push(site.package);
      log(
        `index    [${i + 1}/${sites.length}] ${where}: MISSING ${site.rootInPackage} in ${site.package}, left out`,
      );
      continue;
    }
    const scan = await scanSitePages(rootDir, site);
    tables.sites.push({
      package: site.package,
      host: site.host,
      prefix: site.prefix,
      dir: relative(layout.root, rootDir),
      topic: site.topic,
      pages: scan.pages.length,
      excludedPages: scan.excludedPages,
      excludedTrees: scan.excludedTrees,
      ...(site.robotsTxt === undefined ? {} : { robotsTxt: site.robotsTxt }),
    });
    tables.pages.push(
      scan.pages.map((p) => ({
        url: pageUrl(site.host, site.prefix, p.relPath),
        path: p.relPath,
        bytes: p.bytes,
      })),
    );
    log(
      `index    [${i + 1}/${sites.length}] ${where}: ${scan.pages.length} pages` +
        (scan.excludedPages > 0 ? ` (${scan.excludedPages} in excluded trees)` : ''),
    );
  }
  if (hub) {
    tables.sites.push({
      package: HUB_PACKAGE,
      host: HUB_HOST,
      prefix: '/',
      dir: relative(layout.root, hub.dir),
      topic: 'Directory of Debian packages (apt metadata, our template)',
      pages: hub.pages.length,
      excludedPages: 0,
      excludedTrees: [],
    });
    tables.pages.push(hub.pages);
    for (const site of hub.homepages) {
      tables.sites.push({
        package: HOMEPAGES_PACKAGE,
        host: site.host,
        prefix: site.prefix,
        dir: site.dir,
        topic: 'Project home page (Debian package descriptions, our template)',
        pages: site.pages.length,
        excludedPages: 0,
        excludedTrees: [],
      });
      tables.pages.push(site.pages);
    }
  }
  const counts = writeDocwebDb(layout.dbPath, tables);
  return { counts, missingRoots };
}

/** Hash of what the tables depend on: selected sites, topic files, and each package's marker. */
function fingerprintOf(
  layout: CacheLayout,
  sites: readonly ManifestSite[],
  topics: readonly Topic[],
  shouldBuildHub: boolean,
): string {
  const h = createHash('sha256');
  h.update(JSON.stringify(sites));
  h.update(shouldBuildHub ? 'hub with project home pages' : 'no hub');
  for (const t of topics) h.update(t.file).update(readFileSync(t.file));
  for (const s of sites) {
    const marker = join(packageDir(layout, s.package), EXTRACTED_MARKER);
    h.update(existsSync(marker) ? readFileSync(marker) : 'missing');
  }
  return h.digest('hex');
}

function readFingerprint(layout: CacheLayout): string | undefined {
  const db = new DocwebDb(layout.root, layout.dbPath);
  try {
    return db.meta('fingerprint');
  } finally {
    db.close();
  }
}

function readCounts(layout: CacheLayout): DocwebCounts {
  const db = new DocwebDb(layout.root, layout.dbPath);
  try {
    const sites = db.sites();
    return {
      sites: sites.length,
      pages: sites.reduce((n, s) => n + s.pages, 0),
      excludedPages: sites.reduce((n, s) => n + s.excludedPages, 0),
      labelled: db.labelCounts(),
    };
  } finally {
    db.close();
  }
}
