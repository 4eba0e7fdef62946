/**
 * The DocWeb manifest: which Debian documentation package mirrors which web site. The project's
 * copy lives in `data/docweb/sites.json` (started from `../shared/docweb/sites.json`).
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError } from 'tres-crawler';

/** One site of the manifest: a package and where its pages live on the (real) web. */
export interface ManifestSite {
  /** Debian package holding the pages, e.g. `linux-doc-6.1`. */
  package: string;
  /** Hostname of the mirrored site, e.g. `docs.kernel.org`. */
  host: string;
  /** URL path prefix of the site, starting and ending with '/', e.g. `/doc/v2.24/`. */
  prefix: string;
  /** Folder inside the package that maps onto the prefix, e.g. `/usr/share/doc/lilypond/html`. */
  rootInPackage: string;
  /** Site-level topic label (free text, informative only; ground truth comes from topic files). */
  topic: string;
  /** Left out by `--exclude-heavy` (large packages: rust-doc, openjdk-17-doc, ...). @default false */
  heavy?: boolean;
  /**
   * Giant generated subtrees to leave out of the page table and answer 404 when served: paths
   * relative to the site root, ending in '/', e.g. `core/arch/`. @default []
   */
  exclude?: string[];
  /**
   * Folder names left out at any depth, e.g. `class-use` (javadoc's generated usage pages).
   * @default []
   */
  excludeDirNames?: string[];
  /**
   * Body served as the host's `/robots.txt` instead of the package's own file, for packages whose
   * robots.txt was written for another setting (CUPS ships one that shuts out every robot from a
   * local print server; the real www.cups.org does not). @default undefined (the package's file, if any)
   */
  robotsTxt?: string;
}

/** A whole manifest. */
export interface Manifest {
  /** The file it was read from (absolute). */
  file: string;
  sites: ManifestSite[];
}

/** The manifest of the project: `data/docweb/sites.json` at the repository root. */
export const DEFAULT_MANIFEST_PATH = resolve(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  '..',
  'data',
  'docweb',
  'sites.json',
);

/** Folder of the topic files shipped with the project: `data/topics/`. */
export const DEFAULT_TOPICS_DIR = join(dirname(DEFAULT_MANIFEST_PATH), '..', 'topics');

function fail(file: string, field: string, message: string): never {
  throw new ConfigError(`${file}: ${field} ${message}`, { context: { file, field } });
}

function str(file: string, where: string, value: unknown, field: string): string {
  if (typeof value !== 'string' || value.trim() === '')
    fail(file, `${where}.${field}`, `must be a non-empty string, got ${JSON.stringify(value)}`);
  return value;
}

/**
 * Checks one parsed manifest entry.
 * @throws ConfigError naming the file and field (`sites[3].prefix`) and what is expected.
 */
export function parseManifestSite(raw: unknown, index: number, file: string): ManifestSite {
  const where = `sites[${index}]`;
  if (!raw || typeof raw !== 'object') fail(file, where, 'must be an object');
  const r = raw as Record<string, unknown>;
  const pkg = str(file, where, r.package, 'package');
  if (!/^[a-z0-9][a-z0-9+.-]+$/.test(pkg))
    fail(file, `${where}.package`, `is not a Debian package name: '${pkg}'`);
  const host = str(file, where, r.host, 'host').toLowerCase();
  if (!/^[a-z0-9.-]+$/.test(host))
    fail(file, `${where}.host`, `must be a bare hostname (no scheme, no port), got '${host}'`);
  let prefix = str(file, where, r.prefix, 'prefix');
  if (!prefix.startsWith('/') || prefix.split('/').includes('..'))
    fail(file, `${where}.prefix`, `must start with '/' and hold no '..', got '${prefix}'`);
  if (!prefix.endsWith('/')) prefix += '/';
  const rootInPackage = str(file, where, r.rootInPackage, 'rootInPackage');
  if (!rootInPackage.startsWith('/') || rootInPackage.split('/').includes('..'))
    fail(file, `${where}.rootInPackage`, `must be an absolute path without '..', got '${rootInPackage}'`);
  const topic = typeof r.topic === 'string' ? r.topic : '';
  if (r.heavy !== undefined && typeof r.heavy !== 'boolean')
    fail(file, `${where}.heavy`, 'must be true or false');
  const exclude = r.exclude ?? [];
  if (!Array.isArray(exclude) || exclude.some((e) => typeof e !== 'string' || !/^[^/].*\/$/.test(e)))
    fail(
      file,
      `${where}.exclude`,
      "must be a list of relative folder paths ending in '/', like 'core/arch/'",
    );
  if ((exclude as string[]).some((e) => e.split('/').includes('..')))
    fail(file, `${where}.exclude`, "must not hold '..'");
  const excludeDirNames = r.excludeDirNames ?? [];
  if (
    !Array.isArray(excludeDirNames) ||
    excludeDirNames.some((e) => typeof e !== 'string' || !/^[^/]+$/.test(e))
  )
    fail(file, `${where}.excludeDirNames`, "must be a list of folder names without '/', like 'class-use'");
  if (r.robotsTxt !== undefined && typeof r.robotsTxt !== 'string')
    fail(file, `${where}.robotsTxt`, 'must be the text of a robots.txt file');
  return {
    ...(typeof r.robotsTxt === 'string' ? { robotsTxt: r.robotsTxt } : {}),
    package: pkg,
    host,
    prefix,
    rootInPackage: rootInPackage.replace(/\/+$/, ''),
    topic,
    heavy: r.heavy === true,
    exclude: exclude as string[],
    excludeDirNames: excludeDirNames as string[],
  };
}

/**
 * Reads and checks a manifest: a JSON object with a `sites` list, or a bare list of sites (the
 * format of `../shared/docweb/sites.json`).
 * @throws ConfigError if the file cannot be read or parsed, a field is invalid, or two sites
 *   share a package or a host+prefix.
 */
export function loadManifest(path: string = DEFAULT_MANIFEST_PATH): Manifest {
  const file = resolve(path);
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ConfigError(`cannot read DocWeb manifest ${file}: ${(error as Error).message}`, {
      context: { file },
      cause: error,
    });
  }
  const list = Array.isArray(parsed) ? parsed : (parsed as { sites?: unknown } | null)?.sites;
  if (!Array.isArray(list) || list.length === 0)
    fail(file, 'sites', 'must be a non-empty list of {package, host, prefix, rootInPackage, topic}');
  const sites = list.map((raw, i) => parseManifestSite(raw, i, file));
  const packages = new Set<string>();
  const places = new Set<string>();
  sites.forEach((site, i) => {
    if (packages.has(site.package))
      fail(file, `sites[${i}].package`, `repeats '${site.package}' (one site per package)`);
    const place = site.host + site.prefix;
    if (places.has(place)) fail(file, `sites[${i}].prefix`, `repeats http://${place}`);
    packages.add(site.package);
    places.add(place);
  });
  return { file, sites };
}

/** Sites of a manifest to build: all, or without the heavy ones. */
export function selectSites(manifest: Manifest, options: { shouldExcludeHeavy?: boolean } = {}) {
  return manifest.sites.filter((s) => !(options.shouldExcludeHeavy && s.heavy));
}
