// What a run's relevant pages offered (issue 12): for each crawl store kept by
// `tres bench crawl --keep-stores DIR`, the relevant pages fetched (ground truth), their outlinks
// and cross-domain outlinks per page, and the domains not yet fetched that relevant pages linked
// to (against those only irrelevant pages linked to).
// npx vite-node results/sites-offered.ts -- STORES_DIR [TOPIC_FILE] [DOCWEB_CACHE]
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openBenchWeb } from '../src/bench/crawl-bench-topic.js';
import { decodeOutlinks } from '../src/store/outlinks-codec.js';
const [storesDir = '.tmp/sites-diag/stores', topicFile = 'data/topics/hardware.yaml', cacheDir = '/work/cache/docweb3'] =
  process.argv.slice(2).filter((a) => a !== '--');
const web = await openBenchWeb(topicFile, { cacheDir });
const rel = (u: string) => web.topic.labelOf(u);
for (const name of readdirSync(storesDir).sort()) {
  const db = new Database(join(storesDir, name, 'crawl.sqlite'), { readonly: true });
  const pages = db.prepare('SELECT id, url, final_url, domain, is_page, outlinks FROM pages ORDER BY id').all() as any[];
  db.close();
  if (pages.length < 1000) continue;
  const fetchedDomains = new Set<string>();
  const offered = new Set<string>(); // new domains offered by relevant pages
  const offeredByIrr = new Set<string>();
  let relPages = 0, relOut = 0, relCross = 0;
  for (const p of pages) {
    fetchedDomains.add(p.domain);
    if (p.is_page !== 1) continue;
    const links = decodeOutlinks(p.outlinks);
    const r = rel(p.final_url);
    if (r) { relPages++; relOut += links.length; }
    for (const l of links) {
      if (l.domain === p.domain) continue;
      if (r) relCross++;
      if (fetchedDomains.has(l.domain)) continue;
      (r ? offered : offeredByIrr).add(l.domain);
    }
  }
  console.log(`${name.padEnd(40)} relevant pages ${relPages}, outlinks per relevant page ${(relOut / relPages).toFixed(1)}, cross-domain per relevant page ${(relCross / relPages).toFixed(2)}, new domains offered by relevant pages ${offered.size}, by irrelevant only ${[...offeredByIrr].filter((d) => !offered.has(d)).length}`);
}
await web.close();
