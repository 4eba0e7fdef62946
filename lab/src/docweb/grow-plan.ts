/**
 * Plans how to grow the DocWeb by closing its own link graph: for each much-linked host that is
 * not served (or served without the linked pages), find the Debian package whose HTML files the
 * links actually name. A package "fits" a host when the linked paths, after a URL prefix, are
 * files under one folder of the package (apt's Contents index says which files a package ships):
 * `docs.python.org/3/library/os.html` fits python3.11-doc, root `usr/share/doc/python3.11/html`,
 * prefix `/3/`. A fit counts when the package's Homepage is on the host's registrable domain, or
 * when it resolves at least `strongFitPaths` linked pages (file names alone match by chance).
 *
 * Second, packages whose Homepage host the pages link to (the project's own site) and that ship an
 * HTML manual are added under the homepage's path: the links that name the site exist, and the
 * directory hub links each documentation package to its site. Documentation packages only
 * (section doc or a -doc/-docs/-html/-manual name), English only, no code-hosting platforms.
 */
import { registrableDomain } from 'tres-crawler/internals';
import type { HtmlContents } from './contents-index.js';
import type { UnservedHost } from './link-graph.js';
import type { ManifestSite } from './manifest.js';
import type { PackageInfo } from './package-lists.js';

/** Options of {@link planGrowth}. */
export interface GrowPlanOptions {
  /** Most bytes of debs to download (sum of apt's `Size`). @default 4e9 (about 4 GB) */
  budgetBytes?: number;
  /** A package must resolve at least this many distinct linked paths of a host. @default 3 */
  minPaths?: number;
  /**
   * Sites with more pages than this are not added (giant generated trees stay capped: about 10%
   * of the DocWeb). @default 9000
   */
  maxSitePages?: number;
  /** A fit without a matching Homepage needs this many linked pages. @default 10 */
  strongFitPaths?: number;
  /** A homepage site needs at least this many pages. @default 5 */
  minSitePages?: number;
  /** Add homepage sites (second pass) too. @default true */
  shouldAddHomepageSites?: boolean;
}

/** Defaults of {@link GrowPlanOptions}. */
export const GROW_PLAN_DEFAULTS = {
  budgetBytes: 4e9,
  minPaths: 3,
  maxSitePages: 9000,
  strongFitPaths: 10,
  minSitePages: 5,
  shouldAddHomepageSites: true,
} as const;

/** Hosts of code-hosting and package platforms: a homepage there is not a documentation site. */
const PLATFORMS = new Set(
  (
    'github.com gitlab.com sourceforge.net bitbucket.org launchpad.net salsa.debian.org pypi.org ' +
    'pypi.python.org metacpan.org search.cpan.org cran.r-project.org hackage.haskell.org crates.io ' +
    'npmjs.com www.npmjs.com savannah.gnu.org savannah.nongnu.org code.google.com gitlab.gnome.org ' +
    'invent.kde.org codeberg.org packagist.org rubygems.org opam.ocaml.org pear.php.net'
  ).split(' '),
);
const DOC_NAME = /-(doc|docs|html|manual|reference|handbook|guide)$/;
const TRANSLATION =
  /-(ar|ca|cs|da|de|el|es|eu|fi|fr|gl|hu|id|it|ja|ko|nb|nl|pl|pt|pt-br|ro|ru|sk|sv|tr|uk|vi|zh|zh-cn|zh-tw)(-doc)?$/;

/** Hostname and path of a package's Homepage, or undefined. */
function homepageOf(info: PackageInfo | undefined): { host: string; path: string } | undefined {
  if (!info?.homepage) return undefined;
  try {
    const u = new URL(info.homepage);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined;
    // A homepage naming a file (`.../java-3d.html`) puts the site in that file's folder.
    const path = u.pathname.replace(/\/[^/]*\.[a-z]+$/i, '/');
    return { host: u.hostname.toLowerCase(), path: path.endsWith('/') ? path : `${path}/` };
  } catch {
    return undefined;
  }
}

/**
 * The HTML root of a package: of the folders holding an index.html, the one with the most HTML
 * files below it (the shallowest on ties); its page count.
 */
export function htmlRootOf(files: readonly string[]): { root: string; pages: number } | undefined {
  const below = new Map<string, number>(); // folder -> HTML files anywhere below it
  const roots = new Set<string>();
  for (const f of files) {
    if (f.endsWith('/index.html')) roots.add(f.slice(0, -'/index.html'.length));
    for (let slash = f.lastIndexOf('/'); slash > 0; slash = f.lastIndexOf('/', slash - 1)) {
      const dir = f.slice(0, slash);
      below.set(dir, (below.get(dir) ?? 0) + 1);
    }
  }
  let best: { root: string; pages: number } | undefined;
  const depth = (r: string) => r.split('/').length;
  for (const root of [...roots].sort((a, b) => depth(a) - depth(b) || (a < b ? -1 : 1))) {
    const pages = below.get(root) ?? 0;
    if (!best || pages > best.pages) best = { root, pages };
  }
  return best;
}

/** One package that fits a host. */
export interface GrowCandidate {
  site: ManifestSite;
  /** Distinct linked paths of the host that are files of the package under the root. */
  paths: number;
  /** Links (from DocWeb pages) that these paths receive. */
  links: number;
  /** HTML files under the root (the site's pages before exclusions). */
  pages: number;
  sizeBytes: number;
}

/** What {@link planGrowth} chose and why others were left out. */
export interface GrowPlan {
  chosen: GrowCandidate[];
  /** Fitting packages left out: too big a site, over the budget, or adding too few new paths. */
  skipped: { candidate: GrowCandidate; reason: string }[];
  budgetBytes: number;
  plannedBytes: number;
}

const PAGE_EXT = /\.(?:html?|xhtml|shtml)$/i;

/** Path segments of a linked URL path, a folder URL ending in its index.html. */
export function linkedSegments(path: string): string[] {
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // keep the raw path
  }
  const segs = decoded.split('/').filter((s) => s !== '' && s !== '.');
  if (decoded.endsWith('/') || segs.length === 0 || !PAGE_EXT.test(segs[segs.length - 1] as string))
    segs.push('index.html');
  return segs;
}

const keyOf = (segs: readonly string[]) => segs.slice(-2).join('/');

/**
 * Finds, for each host, the packages (root folder + URL prefix) that its linked paths fit, best
 * first, then picks greedily by links within the budget.
 */
export function planGrowth(
  hosts: readonly UnservedHost[],
  contents: HtmlContents,
  packages: ReadonlyMap<string, PackageInfo>,
  manifestSites: readonly ManifestSite[],
  options: GrowPlanOptions = {},
): GrowPlan {
  const budgetBytes = options.budgetBytes ?? GROW_PLAN_DEFAULTS.budgetBytes;
  const minPaths = options.minPaths ?? GROW_PLAN_DEFAULTS.minPaths;
  const maxSitePages = options.maxSitePages ?? GROW_PLAN_DEFAULTS.maxSitePages;
  const strongFitPaths = options.strongFitPaths ?? GROW_PLAN_DEFAULTS.strongFitPaths;
  const minSitePages = options.minSitePages ?? GROW_PLAN_DEFAULTS.minSitePages;
  const inManifest = new Set(manifestSites.map((s) => s.package));
  // key (last two path segments) -> files of downloadable packages not in the manifest yet
  const index = new Map<string, { pkg: string; segs: string[] }[]>();
  for (const [pkg, files] of contents) {
    if (inManifest.has(pkg) || !packages.has(pkg)) continue;
    for (const file of files) {
      const segs = file.split('/');
      const key = keyOf(segs);
      const list = index.get(key);
      if (list) list.push({ pkg, segs });
      else index.set(key, [{ pkg, segs }]);
    }
  }
  const candidates: (GrowCandidate & { host: string; covered: Set<string> })[] = [];
  for (const host of hosts) {
    const votes = new Map<
      string,
      { pkg: string; root: string; prefix: string; paths: Set<string>; links: number }
    >();
    for (const [path, count] of host.paths) {
      const segs = linkedSegments(path);
      if (segs.length < 2 && segs[0] === 'index.html') continue; // "/" fits every package
      for (const file of index.get(keyOf(segs)) ?? []) {
        let k = 0;
        while (
          k < segs.length &&
          k < file.segs.length &&
          segs[segs.length - 1 - k] === file.segs[file.segs.length - 1 - k]
        )
          k++;
        if (k < Math.min(2, segs.length)) continue;
        const root = file.segs.slice(0, file.segs.length - k).join('/');
        if (!root.startsWith('usr/share/')) continue;
        const prefix = `/${segs
          .slice(0, segs.length - k)
          .map((s) => `${s}/`)
          .join('')}`;
        const id = `${file.pkg}\t${root}\t${prefix}`;
        let vote = votes.get(id);
        if (!vote) {
          vote = { pkg: file.pkg, root, prefix, paths: new Set<string>(), links: 0 };
          votes.set(id, vote);
        }
        if (!vote.paths.has(path)) {
          vote.paths.add(path);
          vote.links += count;
        }
      }
    }
    for (const v of votes.values()) {
      if (v.paths.size < minPaths) continue;
      const info = packages.get(v.pkg) as PackageInfo;
      const home = homepageOf(info);
      const isHomeDomain =
        home !== undefined && registrableDomain(home.host) === registrableDomain(host.host);
      if (!isHomeDomain && v.paths.size < strongFitPaths) continue;
      const pages = (contents.get(v.pkg) ?? []).filter((f) => f.startsWith(`${v.root}/`)).length;
      candidates.push({
        host: host.host,
        covered: v.paths,
        site: {
          package: v.pkg,
          host: host.host,
          prefix: v.prefix,
          rootInPackage: `/${v.root}`,
          topic: `grown: ${host.host} (${v.paths.size} linked pages fit ${v.pkg})`,
        },
        paths: v.paths.size,
        links: v.links,
        pages,
        sizeBytes: info.sizeBytes,
      });
    }
  }
  if (options.shouldAddHomepageSites ?? GROW_PLAN_DEFAULTS.shouldAddHomepageSites) {
    const linksTo = new Map(hosts.map((h) => [h.host, h.links]));
    for (const [pkg, files] of contents) {
      const info = packages.get(pkg);
      if (!info || inManifest.has(pkg)) continue;
      if (!(info.section.endsWith('doc') || DOC_NAME.test(pkg)) || TRANSLATION.test(pkg)) continue;
      const home = homepageOf(info);
      if (!home || PLATFORMS.has(home.host) || PLATFORMS.has(registrableDomain(home.host))) continue;
      const links = linksTo.get(home.host) ?? 0;
      if (links === 0) continue;
      const found = htmlRootOf(files);
      if (!found || found.pages < minSitePages) continue;
      candidates.push({
        host: home.host,
        covered: new Set([`homepage:${pkg}`]),
        site: {
          package: pkg,
          host: home.host,
          prefix: home.path,
          rootInPackage: `/${found.root}`,
          topic: `grown: ${home.host} (Homepage of ${pkg}, ${links} links to the host)`,
        },
        paths: 0,
        links,
        pages: found.pages,
        sizeBytes: info.sizeBytes,
      });
    }
  }
  // Fits first: they are the stronger evidence and name the prefix the links use.
  candidates.sort(
    (a, b) =>
      Number(b.paths > 0) - Number(a.paths > 0) ||
      b.links - a.links ||
      b.paths - a.paths ||
      a.sizeBytes - b.sizeBytes ||
      (a.site.package < b.site.package ? -1 : 1),
  );
  const chosen: GrowCandidate[] = [];
  const skipped: GrowPlan['skipped'] = [];
  const usedPackages = new Set<string>();
  const usedPlaces = new Set(manifestSites.map((s) => s.host + s.prefix));
  const coveredByHost = new Map<string, Set<string>>();
  let plannedBytes = 0;
  for (const c of candidates) {
    const { covered, host, ...candidate } = c;
    if (usedPackages.has(c.site.package)) continue;
    if (usedPlaces.has(host + c.site.prefix) && c.paths === 0) {
      const docPrefix = `${c.site.prefix}${c.site.package}/`; // homepage taken: the manual one level down
      candidate.site = { ...c.site, prefix: docPrefix };
    }
    if (usedPlaces.has(host + candidate.site.prefix)) continue;
    const already = coveredByHost.get(host) ?? new Set<string>();
    const fresh = [...covered].filter((p) => !already.has(p)).length;
    if (c.paths > 0 && fresh < minPaths) continue; // another package already serves these pages
    if (c.pages > maxSitePages) {
      skipped.push({ candidate, reason: `${c.pages} pages > maxSitePages ${maxSitePages}` });
      continue;
    }
    if (plannedBytes + c.sizeBytes > budgetBytes) {
      skipped.push({ candidate, reason: 'over the download budget' });
      continue;
    }
    chosen.push(candidate);
    plannedBytes += c.sizeBytes;
    usedPackages.add(c.site.package);
    usedPlaces.add(host + candidate.site.prefix);
    for (const p of covered) already.add(p);
    coveredByHost.set(host, already);
  }
  return { chosen, skipped, budgetBytes, plannedBytes };
}
