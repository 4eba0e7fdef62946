/**
 * The link graph of a built DocWeb, counted: every page is parsed with the crawler's parser and
 * each link that leaves its own host is sorted into "resolves" (a page of the build), "served
 * host, no such page" and "host not served", following the redirects the DocWeb server answers
 * (`www.` spellings, version segments, folder and root redirects: `../site-aliases.ts`) as a
 * crawler would. Hosts that are not served are ranked by how many
 * links (and from how many sites) point at them: that ranking is what `npm run lab -- docweb grow` closes.
 */
import { writeFileSync } from 'node:fs';
import { SiteRouter } from 'tres-crawler/internals';
import type { DocwebDb } from './docweb-db.js';
import { docwebSiteSources } from './docweb-server.js';
import { HUB_HOST } from './hub.js';
import { hubLandingPath } from './hub-site.js';
import { pageKey, pageLinks } from './seed-check.js';

/** Redirects followed when resolving a link, as a crawler's redirect limit. */
const MAX_REDIRECTS = 5;

/**
 * Where the server takes a link: the URL it answers after its redirects, or undefined if the
 * link's host is not served (nor its `www.` spelling).
 */
export function landingUrl(router: SiteRouter, url: string): string | undefined {
  let at = new URL(url);
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const route = router.route(at.hostname, at.pathname + at.search);
    if (route.kind === 'unknown-host') return undefined;
    if (route.kind !== 'redirect') return at.href;
    at = new URL(route.location, route.host === undefined ? at : `${at.protocol}//${route.host}/`);
  }
  return at.href;
}

/** Links pointing at one host the DocWeb does not serve. */
export interface UnservedHost {
  host: string;
  /** Links (one per page and target URL) from DocWeb pages to this host. */
  links: number;
  /** Distinct DocWeb sites (host + prefix) linking to it. */
  sites: number;
  /** Most linked paths with their link counts (at most `maxPathsPerHost`), most linked first. */
  paths: [string, number][];
}

/** What {@link countLinkGraph} found. */
export interface LinkGraphCounts {
  pages: number;
  /** Links (one per page and target URL, http(s) only, fragments dropped). */
  links: number;
  /** Links to another host than the page's own. */
  crossHost: number;
  /** Cross-host links whose target is a page of the build. */
  crossHostResolved: number;
  /** Cross-host links to a served host but to no page of the build (404 there). */
  crossHostServedMissing: number;
  /** Cross-host links to hosts the DocWeb does not serve. */
  crossHostUnserved: number;
  /** Share of cross-host links that resolve (crossHostResolved / crossHost). */
  crossHostResolvedShare: number;
  /** Served hosts, and ordered pairs of served hosts with at least one resolving link. */
  servedHosts: number;
  linkedHostPairs: number;
  /** Served hosts with no resolving link to another served host. */
  isolatedHosts: number;
  /** Distinct hosts not served that pages link to. */
  unservedHostCount: number;
  /** The most linked hosts not served, most links first (at most `top`). */
  unservedHosts: UnservedHost[];
  /** Served hosts with links to pages the build does not have (www.gnu.org's other manuals). */
  servedMissing: UnservedHost[];
  elapsedMs: number;
}

/** Options of {@link countLinkGraph}. */
export interface LinkGraphOptions {
  /** How many unserved hosts to list. @default 500 */
  top?: number;
  /** Paths kept per unserved host (for aligning a package's folder with its URLs). @default 2000 */
  maxPathsPerHost?: number;
  /** Progress lines every 10,000 pages. @default none */
  log?: (line: string) => void;
}

/** Defaults of {@link LinkGraphOptions}. */
export const LINK_GRAPH_DEFAULTS = { top: 500, maxPathsPerHost: 2000 } as const;

const hostOf = (url: string) => {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.hostname.replace(/\.$/, '') : undefined;
  } catch {
    return undefined;
  }
};

/**
 * A lookup of the pages a built DocWeb answers: the URL of the page a link lands on after the
 * server's redirects, or undefined if the server has no page there (404, host not served).
 */
export function servedPageLookup(db: DocwebDb): (url: string) => string | undefined {
  const router = new SiteRouter(docwebSiteSources(db), { aliases: true });
  const keys = new Set<string>();
  for (const p of db.pages()) {
    const key = pageKey(p.url);
    if (key) keys.add(key);
  }
  return (url) => {
    let landing = landingUrl(router, url);
    if (landing !== undefined && hostOf(landing) === HUB_HOST) {
      // The hub's handler answers its own redirects (/<package>, /sid/<package>).
      const at = new URL(landing);
      const path = hubLandingPath(at.pathname);
      landing = path === undefined ? undefined : `${at.protocol}//${HUB_HOST}${path}`;
    }
    const key = landing === undefined ? undefined : pageKey(landing);
    return key !== undefined && keys.has(key) ? landing : undefined;
  };
}

/** Parses every page of the build and counts its links (see {@link LinkGraphCounts}). */
export function countLinkGraph(db: DocwebDb, options: LinkGraphOptions = {}): LinkGraphCounts {
  const start = performance.now();
  const top = options.top ?? LINK_GRAPH_DEFAULTS.top;
  const maxPaths = options.maxPathsPerHost ?? LINK_GRAPH_DEFAULTS.maxPathsPerHost;
  const sites = db.sites();
  const sitesById = new Map(sites.map((s) => [s.id, s]));
  const served = new Set(sites.map((s) => s.host));
  const router = new SiteRouter(docwebSiteSources(db), { aliases: true });
  const pages = db.pages();
  const pageKeys = new Set<string>();
  for (const p of pages) {
    const key = pageKey(p.url);
    if (key) pageKeys.add(key);
  }
  const counts = { links: 0, crossHost: 0, resolved: 0, servedMissing: 0, unserved: 0 };
  const pairs = new Set<string>();
  type Tally = { links: number; sites: Set<number>; paths: Map<string, number> };
  const unserved = new Map<string, Tally>();
  const missing = new Map<string, Tally>();
  const tally = (map: Map<string, Tally>, host: string, siteId: number, url: string) => {
    let entry = map.get(host);
    if (!entry) {
      entry = { links: 0, sites: new Set(), paths: new Map() };
      map.set(host, entry);
    }
    entry.links++;
    entry.sites.add(siteId);
    const path = new URL(url).pathname;
    if (entry.paths.has(path) || entry.paths.size < maxPaths)
      entry.paths.set(path, (entry.paths.get(path) ?? 0) + 1);
  };
  pages.forEach((page, i) => {
    const site = sitesById.get(page.siteId);
    if (!site) return;
    let links: string[];
    try {
      links = pageLinks(db, site, page);
    } catch {
      return; // an unreadable file counts as a page without links
    }
    const seen = new Set<string>();
    for (const raw of links) {
      const url = raw.replace(/#.*$/, '');
      const host = hostOf(url);
      if (!host || seen.has(url)) continue;
      seen.add(url);
      counts.links++;
      if (host === site.host) continue;
      counts.crossHost++;
      const landing = landingUrl(router, url);
      if (landing !== undefined) {
        const key = pageKey(landing);
        const landingHost = hostOf(landing) as string;
        if (key && pageKeys.has(key)) {
          counts.resolved++;
          if (landingHost !== site.host) pairs.add(`${site.host} ${landingHost}`);
        } else {
          counts.servedMissing++;
          tally(missing, host, site.id, url);
        }
        continue;
      }
      counts.unserved++;
      tally(unserved, host, site.id, url);
    }
    if ((i + 1) % 10_000 === 0) options.log?.(`links: ${i + 1} of ${pages.length} pages parsed`);
  });
  const linkedFrom = new Set([...pairs].map((p) => p.split(' ')[0]));
  const linkedTo = new Set([...pairs].map((p) => p.split(' ')[1]));
  const rank = (map: Map<string, Tally>): UnservedHost[] =>
    [...map.entries()]
      .map(([host, e]) => ({
        host,
        links: e.links,
        sites: e.sites.size,
        paths: [...e.paths.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)),
      }))
      .sort((a, b) => b.links - a.links || (a.host < b.host ? -1 : 1));
  return {
    pages: pages.length,
    links: counts.links,
    crossHost: counts.crossHost,
    crossHostResolved: counts.resolved,
    crossHostServedMissing: counts.servedMissing,
    crossHostUnserved: counts.unserved,
    crossHostResolvedShare: counts.crossHost === 0 ? 0 : counts.resolved / counts.crossHost,
    servedHosts: served.size,
    linkedHostPairs: pairs.size,
    isolatedHosts: [...served].filter((h) => !linkedFrom.has(h) && !linkedTo.has(h)).length,
    unservedHostCount: unserved.size,
    unservedHosts: rank(unserved).slice(0, top),
    servedMissing: rank(missing).slice(0, top),
    elapsedMs: performance.now() - start,
  };
}

/** Writes the counts as JSON (paths included). */
export function writeLinkGraph(file: string, counts: LinkGraphCounts): void {
  writeFileSync(file, `${JSON.stringify(counts, null, 1)}\n`);
}

/** Lines for the terminal: the shares and the most linked hosts not served. */
export function formatLinkGraph(c: LinkGraphCounts, shown = 30): string[] {
  const pct = (n: number) => `${((100 * n) / Math.max(1, c.crossHost)).toFixed(1)}%`;
  return [
    `${c.pages} pages, ${c.links} links; ${c.crossHost} leave their own host:`,
    `  ${c.crossHostResolved} (${pct(c.crossHostResolved)}) resolve to a page of the DocWeb`,
    `  ${c.crossHostServedMissing} (${pct(c.crossHostServedMissing)}) go to a served host but no page of the build`,
    `  ${c.crossHostUnserved} (${pct(c.crossHostUnserved)}) go to ${c.unservedHostCount} hosts not served`,
    `${c.servedHosts} served hosts, ${c.linkedHostPairs} ordered pairs linked, ${c.isolatedHosts} hosts linked with no other`,
    `most linked hosts not served (links, linking sites):`,
    ...c.unservedHosts.slice(0, shown).map((h) => `  ${h.host}  ${h.links}  ${h.sites}`),
  ];
}
