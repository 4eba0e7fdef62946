// False near-duplicates per DocWeb site, fingerprinting the whole text and the main content
// (the crawler's way, src/text/page-fingerprint.ts). Each site's pages are read from the
// DocWeb extract in page-id order, parsed as the crawler parses them, and added to a
// DuplicateIndex (3 bits, the crawl's default); a page matched as a near copy (not an exact one)
// is a false near-duplicate when its word 3-shingles and its match's overlap by less than 0.9
// (Jaccard over the whole visible text: a real copy shares nearly all its words in order).
// npx vite-node lab/src/bench/analysis/near-duplicates-docweb.ts -- [SITE_PACKAGE ...] (default: the 12 largest sites)
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import {
  type ContentFingerprint,
  contentFingerprint,
  DuplicateIndex,
  pageFingerprint,
  parseHtml,
} from 'tres-crawler/internals';

const CACHE = process.env.TRES_DOCWEB ?? '/work/cache/docweb';
const MAX_PAGES_PER_SITE = 3_000;
const args = process.argv.slice(2).filter((a) => a !== '--');
const db = new Database(join(CACHE, 'docweb.sqlite'), { readonly: true });
type Site = { id: number; package: string; dir: string };
const sites = (
  args.length > 0
    ? args.map((p) => db.prepare('SELECT id, package, dir FROM sites WHERE package = ?').get(p) as Site)
    : (db.prepare('SELECT id, package, dir FROM sites ORDER BY pages DESC LIMIT 12').all() as Site[])
).filter(Boolean);

function shingles(text: string): Set<string> {
  const words = text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  const out = new Set<string>();
  for (let i = 0; i + 3 <= words.length; i++) out.add(`${words[i]} ${words[i + 1]} ${words[i + 2]}`);
  if (words.length < 3) out.add(words.join(' '));
  return out;
}

function jaccard(a: Set<string>, b: Set<string>): number {
  let common = 0;
  for (const s of a) if (b.has(s)) common++;
  return common / (a.size + b.size - common || 1);
}

console.log('| site | pages | near matches before | false before | near matches after | false after |');
console.log('|---|---:|---:|---:|---:|---:|');
const totals = [0, 0, 0, 0, 0];
for (const site of sites) {
  const pages = db
    .prepare('SELECT id, url, path FROM pages WHERE site_id = ? ORDER BY id LIMIT ?')
    .all(site.id, MAX_PAGES_PER_SITE) as { id: number; url: string; path: string }[];
  const parsed: { shingles: Set<string>; before: ContentFingerprint; after: ContentFingerprint }[] = [];
  for (const page of pages) {
    let html: string;
    try {
      html = readFileSync(join(CACHE, site.dir, page.path), 'utf8');
    } catch {
      continue;
    }
    const p = parseHtml(html, page.url);
    parsed.push({
      shingles: shingles(p.text),
      before: contentFingerprint(`${p.title} ${p.text}`),
      after: pageFingerprint(p),
    });
  }
  const counts = (pick: (x: (typeof parsed)[number]) => ContentFingerprint) => {
    const index = new DuplicateIndex(3);
    let near = 0;
    let wrong = 0;
    for (const [i, page] of parsed.entries()) {
      const match = index.find(pick(page));
      if (!match) index.add(i + 1, pick(page));
      else if (!match.isExact) {
        near++;
        if (jaccard(page.shingles, (parsed[match.id - 1] as (typeof parsed)[number]).shingles) < 0.9) wrong++;
      }
    }
    return [near, wrong];
  };
  const [nb, fb] = counts((x) => x.before);
  const [na, fa] = counts((x) => x.after);
  const row = [parsed.length, nb, fb, na, fa] as number[];
  row.forEach((v, i) => {
    totals[i] = (totals[i] as number) + v;
  });
  console.log(`| ${site.package} | ${row.join(' | ')} |`);
}
console.log(`| all ${sites.length} sites | ${totals.join(' | ')} |`);
