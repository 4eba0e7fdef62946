/**
 * Project home pages: the second directory layer of the DocWeb. Documentation links its project's
 * home page far more often than any other site (www.python.org, www.r-project.org, the GitHub
 * repository), and so does the hub (every package page links its `Homepage`), but a Debian
 * mirror cannot serve those sites. Each `Homepage` URL of a package with a hub page, on a host
 * the DocWeb does not serve, becomes one page at that URL: Debian's descriptions of the packages
 * whose home page it is, a link to each package's hub page and, where the DocWeb serves the
 * project's documentation, a link to it, as a real home page links its manual, and links to the
 * home pages of related projects by Debian's relations (what it uses and what uses it, as a code
 * host's dependency graph shows). The text is Debian's; the template and the links are ours, and
 * the report says so. Nothing else of those
 * hosts exists: a link to another page of github.com is out of the web as before.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { hostSite, normalizeUrl } from 'tres-crawler/internals';
import { descriptionHtml, esc } from './hub.js';
import type { PackageInfo } from './package-lists.js';
import { pageUrl } from './page-scan.js';

/** Package column of the site rows of home page hosts (not a Debian package: generated). */
export const HOMEPAGES_PACKAGE = '(apt-homepages)';
/** Folder of the home pages inside the cache folder: `CACHE/homepages/<host>/...`. */
export const HOMEPAGES_DIR = 'homepages';

/** Options of {@link writeHomepages}. */
export interface HomepagesOptions {
  /** Folder the pages go to, one sub-folder per host (emptied first). */
  dir: string;
  /** Hub host and suite, for the links to package pages. */
  hubHost: string;
  suite: string;
  /** Packages with a hub page: only their home pages are written. */
  listed: ReadonlySet<string>;
  /**
   * Sites the DocWeb serves. A home page on a served host is written under the host's served
   * spelling (`gnu.org` -> `www.gnu.org`) unless a site's prefix covers its path: the package's
   * own files say what exists there.
   */
  servedSites: readonly { host: string; prefix: string }[];
  /** Source package -> URL of its documentation on this web. @default none */
  docsBySource?: ReadonlyMap<string, string>;
  /** Packages listed on one page at most (a home page shared by 2,000 cross compilers). @default 100 */
  maxPackagesPerPage?: number;
  /** Related projects linked per direction ("uses", "used by"): see relatedProjects. @default 20 */
  maxRelated?: number;
}

/** One written home page. */
export interface HomepagePage {
  host: string;
  /** Path relative to the host's folder (`owner/repo/index.html`). */
  path: string;
  /** The page's URL as the page table stores it. */
  url: string;
  bytes: number;
  /** Packages whose home page it is, sorted. */
  packages: string[];
}

/** The key of a page URL in the home page index: host and path, without index.html or slash. */
export function homepageKey(url: string): string | undefined {
  try {
    const u = new URL(url);
    return homepageKeyOf(u.hostname.replace(/\.$/, ''), u.pathname);
  } catch {
    return undefined;
  }
}

/** {@link homepageKey} of a URL already split into host (no trailing dot) and path. */
export function homepageKeyOf(host: string, path: string): string {
  return `${hostSite(host)}${path.replace(/\/index\.html$/, '/').replace(/\/+$/, '')}`;
}

/**
 * Where a `Homepage` value is written: host and relative file path (a folder with its
 * index.html, so that the URL with or without its slash answers), or undefined for a URL that
 * cannot be a page here (not http(s), a query, an odd path).
 */
export function homepageTarget(homepage: string): { host: string; path: string } | undefined {
  const normal = normalizeUrl(homepage.trim());
  if (!normal) return undefined;
  let u: URL;
  try {
    u = new URL(normal);
  } catch {
    return undefined;
  }
  if ((u.protocol !== 'http:' && u.protocol !== 'https:') || u.search || u.port || u.username)
    return undefined;
  // Host names as DNS (and the crawler's resolve rules) accept them: `volans-.github.io` is not one.
  const labels = u.hostname.split('.');
  if (labels.length < 2 || !/^[a-z]{2,}$/.test(labels.at(-1) ?? '')) return undefined;
  if (!labels.every((l) => /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/.test(l))) return undefined;
  let path: string;
  try {
    path = decodeURIComponent(u.pathname);
  } catch {
    return undefined;
  }
  const parts = path.split('/').filter(Boolean);
  if (parts.some((p) => p === '..' || p === '.' || p.length > 120 || /[\0\\%?#]/.test(p))) return undefined;
  if (parts.length > 8) return undefined;
  const last = parts.at(-1) ?? '';
  const file = /\.html?$/.test(last) ? parts.join('/') : [...parts, 'index.html'].join('/');
  return { host: u.hostname, path: file };
}

/**
 * Writes one page per home page URL into `options.dir/<host>/` and lists them.
 * @param packages every package apt knows
 * @param longDescriptions Description-md5 -> Description-en
 */
export function writeHomepages(
  packages: ReadonlyMap<string, PackageInfo>,
  longDescriptions: ReadonlyMap<string, string>,
  options: HomepagesOptions,
): HomepagePage[] {
  const maxPackages = options.maxPackagesPerPage ?? 100;
  const spelling = new Map(options.servedSites.map((s) => [hostSite(s.host), s.host]));
  const isCovered = (host: string, path: string) =>
    options.servedSites.some((s) => s.host === host && `/${path}`.startsWith(s.prefix));
  rmSync(options.dir, { recursive: true, force: true });
  const byTarget = new Map<string, { host: string; path: string; members: PackageInfo[] }>();
  for (const p of packages.values()) {
    if (!p.homepage || !options.listed.has(p.package)) continue;
    const found = homepageTarget(p.homepage);
    if (!found || hostSite(found.host) === hostSite(options.hubHost)) continue;
    const target = { host: spelling.get(hostSite(found.host)) ?? found.host, path: found.path };
    if (
      spelling.has(hostSite(target.host)) &&
      (!target.path.endsWith('/index.html') || isCovered(target.host, target.path))
    )
      continue;
    const id = `${target.host}/${target.path}`;
    const entry = byTarget.get(id) ?? { ...target, members: [] };
    entry.members.push(p);
    byTarget.set(id, entry);
  }
  // A file and a folder of one name cannot both exist (`/x.html` and `/x.html/y`): the first wins.
  const kept: string[] = [];
  const taken = new Set<string>();
  for (const id of [...byTarget.keys()].sort()) {
    const { host, path } = byTarget.get(id)!;
    const dirs = path.split('/').slice(0, -1);
    const clash = dirs.some((_, i) => taken.has(`${host}/${dirs.slice(0, i + 1).join('/')}`));
    if (clash || taken.has(`${host}/${path}/`)) continue;
    for (let i = 0; i < dirs.length; i++) taken.add(`${host}/${dirs.slice(0, i + 1).join('/')}/`);
    taken.add(`${host}/${path}`);
    kept.push(id);
  }
  const related = relatedProjects(kept, byTarget, options.maxRelated ?? 20);
  const linkOf = (id: string) => {
    const { host, path } = byTarget.get(id)!;
    return pageUrl(host, '/', path).replace(/index\.html$/, '');
  };
  const written: HomepagePage[] = [];
  for (const id of kept) {
    const { host, path, members } = byTarget.get(id)!;
    members.sort((a, b) => rank(a) - rank(b) || (a.package < b.package ? -1 : 1));
    const links = related.get(id)!;
    const html = homepageHtml(members, longDescriptions, options, maxPackages, {
      uses: links.uses.map((r) => ({ url: linkOf(r), name: byTarget.get(r)!.members[0]!.source })),
      usedBy: links.usedBy.map((r) => ({ url: linkOf(r), name: byTarget.get(r)!.members[0]!.source })),
    });
    const abs = join(options.dir, host, path);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, html);
    written.push({
      host,
      path,
      url: pageUrl(host, '/', path),
      bytes: Buffer.byteLength(html),
      packages: members.map((m) => m.package).sort(),
    });
  }
  return written;
}

/**
 * The home pages each home page links as related projects, from Debian's relations: the
 * projects its packages depend on, recommend or suggest ("uses"), and the projects whose packages
 * name one of its packages so ("used by", as a code host's dependency graph shows). At most
 * `max` of each, those sharing the most debtags first (then by URL), so that a hardware tool's
 * page leads to other hardware projects before it leads to the C library.
 */
function relatedProjects(
  kept: readonly string[],
  byTarget: ReadonlyMap<string, { members: PackageInfo[] }>,
  max: number,
): Map<string, { uses: string[]; usedBy: string[] }> {
  const targetOf = new Map<string, string>();
  const tagsOf = new Map<string, Set<string>>();
  for (const id of kept) {
    const members = byTarget.get(id)!.members;
    for (const m of members) targetOf.set(m.package, id);
    tagsOf.set(id, new Set(members.flatMap((m) => m.tags.filter((t) => !t.startsWith('role::')))));
  }
  const uses = new Map<string, Set<string>>(kept.map((id) => [id, new Set()]));
  const usedBy = new Map<string, Set<string>>(kept.map((id) => [id, new Set()]));
  for (const id of kept)
    for (const m of byTarget.get(id)!.members)
      for (const group of [...m.depends, ...m.recommends, ...m.suggests])
        for (const name of group) {
          const other = targetOf.get(name);
          if (other === undefined || other === id) continue;
          uses.get(id)!.add(other);
          usedBy.get(other)!.add(id);
        }
  const shared = (a: string, b: string) => {
    const ta = tagsOf.get(a)!;
    let n = 0;
    for (const t of tagsOf.get(b)!) if (ta.has(t)) n++;
    return n;
  };
  const best = (id: string, set: Set<string>) =>
    [...set]
      .map((other) => ({ other, score: shared(id, other) }))
      .sort((x, y) => y.score - x.score || (x.other < y.other ? -1 : 1))
      .slice(0, max)
      .map((x) => x.other);
  return new Map(
    kept.map((id) => [id, { uses: best(id, uses.get(id)!), usedBy: best(id, usedBy.get(id)!) }]),
  );
}

/** The package named like its source first, then libraries and the rest by name. */
const rank = (p: PackageInfo) => (p.package === p.source ? 0 : 1);

function homepageHtml(
  members: readonly PackageInfo[],
  longDescriptions: ReadonlyMap<string, string>,
  options: HomepagesOptions,
  maxPackages: number,
  related: { uses: { url: string; name: string }[]; usedBy: { url: string; name: string }[] },
): string {
  const lead = members[0]!;
  const hub = `https://${options.hubHost}/${options.suite}`;
  const sources = [...new Set(members.map((m) => m.source))].sort();
  const docs = sources.flatMap((s) => {
    const url = options.docsBySource?.get(s);
    return url ? [`<li><a href="${esc(url)}">Documentation of ${esc(s)}</a></li>`] : [];
  });
  const long = lead.descriptionMd5 ? longDescriptions.get(lead.descriptionMd5) : undefined;
  const shown = members.slice(0, maxPackages);
  const body = [
    `<h1>${esc(lead.source)}</h1>`,
    `<h2>${esc(lead.summary)}</h2>`,
    long ? descriptionHtml(long) : '',
    docs.length ? `<h3>Documentation</h3>\n<ul>${docs.join('')}</ul>` : '',
    `<h3>Packages</h3>\n<dl>${shown
      .map(
        (m) => `<dt><a href="${hub}/${esc(m.package)}">${esc(m.package)}</a></dt><dd>${esc(m.summary)}</dd>`,
      )
      .join('\n')}</dl>`,
    members.length > shown.length ? `<p>and ${members.length - shown.length} more packages</p>` : '',
    relatedList('Uses', related.uses),
    relatedList('Used by', related.usedBy),
  ].filter(Boolean);
  return (
    `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>${esc(lead.source)}: ${esc(lead.summary)}</title></head><body>\n` +
    `${body.join('\n')}\n</body></html>\n`
  );
}

function relatedList(title: string, items: readonly { url: string; name: string }[]): string {
  if (items.length === 0) return '';
  return `<h3>${title}</h3>\n<ul>${items.map((r) => `<li><a href="${esc(r.url)}">${esc(r.name)}</a></li>`).join('')}</ul>`;
}

/** A site row of home pages: the whole host, or one page's folder on a host the DocWeb serves. */
export interface HomepageSite {
  host: string;
  prefix: string;
  /** Folder relative to the home pages folder. */
  dir: string;
  pages: { url: string; path: string; bytes: number }[];
}

/**
 * The site rows of the written home pages: a host the DocWeb does not serve is one site (prefix
 * `/`); on a served host each home page is a site of its own folder, so that the longest-prefix
 * routing keeps every path the packages serve.
 */
export function homepageSites(
  pages: readonly HomepagePage[],
  servedSites: readonly { host: string; prefix: string }[],
): HomepageSite[] {
  const served = new Set(servedSites.map((s) => s.host));
  const sites = new Map<string, HomepageSite>();
  for (const page of pages) {
    const folder = served.has(page.host) ? page.path.slice(0, -'index.html'.length) : '';
    const id = `${page.host}/${folder}`;
    let site = sites.get(id);
    if (!site) {
      // The router compares prefixes with request paths, percent-encoded as the page's URL is.
      const prefix = folder ? new URL(page.url).pathname.replace(/index\.html$/, '') : '/';
      site = { host: page.host, prefix, dir: join(page.host, folder), pages: [] };
      sites.set(id, site);
    }
    site.pages.push({ url: page.url, path: page.path.slice(folder.length), bytes: page.bytes });
  }
  return [...sites.values()];
}
