// Where a run's relevant sites come from: for each crawl store kept by
// `tres bench crawl --keep-stores DIR`, the relevant sites found (by the topic's ground truth) at
// steps 540, 1,000 and the end, and every entry into a domain not fetched before: from a relevant
// or an irrelevant parent page, and whether the entry page was relevant at once; then what its
// relevant pages offered: their outlinks and cross-domain outlinks per page, and the domains not
// yet fetched that relevant pages linked to (against those only irrelevant pages linked to).
// npx vite-node lab/src/bench/analysis/sites-entries.ts -- STORES_DIR [TOPIC_FILE] [DOCWEB_CACHE]
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { decodeOutlinks } from 'tres-crawler/internals';
import { openBenchWeb } from '../crawl/index.js';

const [
  storesDir = '.tmp/sites-diag/stores',
  topicFile = 'data/topics/hardware.yaml',
  cacheDir = 'DOCWEB_CACHE',
] = process.argv.slice(2).filter((a) => a !== '--');
const web = await openBenchWeb(topicFile, { cacheDir });
const rel = (u: string) => web.topic.labelOf(u);

/** The columns of the crawl store's `pages` table this analysis reads. */
interface PageRow {
  id: number;
  url: string;
  final_url: string;
  domain: string;
  parent_url: string | null;
  is_page: number;
  outlinks: Buffer | null;
}
for (const name of readdirSync(storesDir).sort()) {
  const db = new Database(join(storesDir, name, 'crawl.sqlite'), { readonly: true });
  const pages = db
    .prepare('SELECT id, url, final_url, domain, parent_url, is_page, outlinks FROM pages ORDER BY id')
    .all() as PageRow[];
  db.close();
  if (pages.length < 1000) continue;
  const domOfUrl = new Map<string, string>();
  const relOfUrl = new Map<string, boolean>();
  const perDomain = new Map<string, number>();
  const relDomains = new Map<string, number>(); // domain -> step found
  let fromRelParent = 0,
    fromSameDomainParent = 0,
    homePage = 0;
  let at540 = 0,
    at1000 = 0;
  let entries = 0,
    entriesRelParent = 0,
    entriesRelParentOk = 0,
    entriesIrrParentOk = 0;
  const seenDom = new Set<string>();
  const offered = new Set<string>(); // domains not yet fetched that a relevant page linked to
  const offeredByIrrelevant = new Set<string>();
  let relPages = 0,
    relOut = 0,
    relCross = 0;
  for (const p of pages) {
    const r = p.is_page === 1 && rel(p.final_url);
    if (p.is_page === 1) {
      const links = decodeOutlinks(p.outlinks);
      if (r) {
        relPages++;
        relOut += links.length;
      }
      for (const l of links) {
        if (l.domain === p.domain) continue;
        if (r) relCross++;
        if (!seenDom.has(l.domain) && l.domain !== p.domain)
          (r ? offered : offeredByIrrelevant).add(l.domain);
      }
    }
    if (!seenDom.has(p.domain)) {
      seenDom.add(p.domain);
      entries++;
      const pr = p.parent_url ? relOfUrl.get(p.parent_url) === true : false;
      if (pr) {
        entriesRelParent++;
        if (r) entriesRelParentOk++;
      } else if (r) entriesIrrParentOk++;
    }
    domOfUrl.set(p.url, p.domain);
    relOfUrl.set(p.url, r);
    perDomain.set(p.domain, (perDomain.get(p.domain) ?? 0) + 1);
    if (r && !relDomains.has(p.domain)) {
      relDomains.set(p.domain, p.id);
      if (p.parent_url && relOfUrl.get(p.parent_url)) fromRelParent++;
      if (p.parent_url && domOfUrl.get(p.parent_url) === p.domain) fromSameDomainParent++;
      const path = new URL(p.final_url).pathname;
      if (path === '/' || /^\/(index\.html?)?$/.test(path)) homePage++;
    }
    if (p.id === 540) at540 = relDomains.size;
    if (p.id === 1000) at1000 = relDomains.size;
  }
  const domains = perDomain.size;
  console.log(
    `${name.padEnd(22)} relSites ${relDomains.size} (@540 ${at540}, @1000 ${at1000}) domainsFetched ${domains} | new rel site via: relevant parent ${fromRelParent}, same-domain parent ${fromSameDomainParent}, home page ${homePage} | entries ${entries}: from relevant parent ${entriesRelParent} (${entriesRelParentOk} relevant at once), from irrelevant parent ${entries - entriesRelParent} (${entriesIrrParentOk} relevant at once)`,
  );
  console.log(
    `${''.padEnd(22)} relevant pages ${relPages}, outlinks per relevant page ${(relOut / relPages).toFixed(1)}, cross-domain per relevant page ${(relCross / relPages).toFixed(2)}, new domains offered by relevant pages ${offered.size}, by irrelevant only ${[...offeredByIrrelevant].filter((d) => !offered.has(d)).length}`,
  );
}
await web.close();
